/**
 * The document's outline (its bookmarks, as the PDF holds them), in a disclosure: each entry goes to its
 * page. Destinations are resolved when chosen, as pdf.js's viewer does (a named one through the
 * document's table of names, then the page's reference to its number).
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useState } from 'react';

type OutlineItem = Awaited<ReturnType<PDFDocumentProxy['getOutline']>>[number];

/** An outline of many thousands of entries is shown in part. */
const MAX_ENTRIES = 2_000;

async function pageOfDestination(
  document: PDFDocumentProxy,
  destination: OutlineItem['dest'],
): Promise<number | null> {
  const explicit =
    typeof destination === 'string' ? await document.getDestination(destination) : destination;
  if (!Array.isArray(explicit)) return null;
  const [target] = explicit as unknown[];
  if (Number.isInteger(target)) return (target as number) + 1;
  if (target && typeof target === 'object' && 'num' in target && 'gen' in target)
    return (await document.getPageIndex(target as { num: number; gen: number })) + 1;
  return null;
}

export function Outline({
  document,
  onGoTo,
}: {
  document: PDFDocumentProxy;
  onGoTo: (page: number) => void;
}) {
  const [items, setItems] = useState<OutlineItem[]>([]);
  useEffect(() => {
    let current = true;
    document
      .getOutline()
      .then((outline) => {
        if (current) setItems(outline ?? []);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [document]);

  if (items.length === 0) return null;
  let budget = MAX_ENTRIES;
  const list = (entries: OutlineItem[]) => (
    <ul>
      {entries.map((item, index) => {
        if (budget-- <= 0) return null;
        return (
          <li key={index}>
            <button
              type="button"
              className="link-button"
              onClick={() =>
                void pageOfDestination(document, item.dest)
                  .then((page) => {
                    if (page) onGoTo(page);
                  })
                  .catch(() => undefined)
              }
            >
              {item.title || 'Untitled'}
            </button>
            {item.items.length > 0 && list(item.items as OutlineItem[])}
          </li>
        );
      })}
    </ul>
  );
  return (
    <details className="pdf-outline card">
      <summary>Outline</summary>
      <nav aria-label="Outline">{list(items)}</nav>
    </details>
  );
}
