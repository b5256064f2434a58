/**
 * Where an annotation sits in a PDF (`highlights.pdf` of the API): the page it starts on, the text
 * selected and its boxes as fractions 0..1 of their page, so that they fit the page at any size it is
 * drawn. A selection past a page break is one anchor: its boxes on later pages say their page.
 */
import type { components } from '../../api/schema';

export type PdfAnchor = components['schemas']['PdfAnchorInput'];
export type PdfRect = PdfAnchor['rects'][number];
/** A box without its page: the page it is drawn on is known. */
export type PageRect = Omit<PdfRect, 'page'>;

/** The API's bounds on an anchor (src/workspaces/schemas.ts LIMITS). */
export const ANCHOR_LIMITS = { quote: 2_000, rects: 200 } as const;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const clamp = (value: number) => Math.min(1, Math.max(0, value));
/** Boxes on the same line overlap vertically by at least half the smaller one's height. */
function sameLine(a: Box, b: Box): boolean {
  const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return overlap >= Math.min(a.bottom - a.top, b.bottom - b.top) / 2;
}

/**
 * The selection's client rectangles as fractions of the page's box, one per line (a line's words are
 * many boxes in the text layer), clipped to the page; slivers under a pixel are dropped.
 */
export function rectsOnPage(clientRects: Iterable<Box>, page: Box): PageRect[] {
  const width = page.right - page.left;
  const height = page.bottom - page.top;
  if (width <= 0 || height <= 0) return [];
  const lines: Box[] = [];
  for (const rect of clientRects) {
    const box = {
      left: Math.max(rect.left, page.left),
      top: Math.max(rect.top, page.top),
      right: Math.min(rect.right, page.right),
      bottom: Math.min(rect.bottom, page.bottom),
    };
    if (box.right - box.left < 1 || box.bottom - box.top < 1) continue;
    const line = lines.find((candidate) => sameLine(candidate, box));
    if (!line) {
      lines.push(box);
      continue;
    }
    line.left = Math.min(line.left, box.left);
    line.top = Math.min(line.top, box.top);
    line.right = Math.max(line.right, box.right);
    line.bottom = Math.max(line.bottom, box.bottom);
  }
  return lines.map((line) => {
    const x = clamp((line.left - page.left) / width);
    const y = clamp((line.top - page.top) / height);
    return {
      x,
      y,
      width: Math.min(1 - x, clamp((line.right - line.left) / width)),
      height: Math.min(1 - y, clamp((line.bottom - line.top) / height)),
    };
  });
}

/** The selected text as one line of words (the text layer breaks it where the PDF's lines end). */
export function quoteOf(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The anchor of an annotation's highlights, or null when it has none (a note, a highlight of the abstract). */
export function anchorOf(highlights: { pdf?: PdfAnchor }): PdfAnchor | null {
  const pdf = highlights.pdf;
  if (!pdf || !Number.isInteger(pdf.page) || !Array.isArray(pdf.rects)) return null;
  return pdf;
}

/** The anchor's boxes grouped by the page they are on (a box without a page is on the anchor's). */
export function rectsByPage(anchor: PdfAnchor): Map<number, PageRect[]> {
  const byPage = new Map<number, PageRect[]>();
  for (const { page, ...rect } of anchor.rects) {
    const on = page ?? anchor.page;
    byPage.set(on, [...(byPage.get(on) ?? []), rect]);
  }
  return byPage;
}

/** The boxes of pages' text, as one anchor: the first page's boxes bare, the later pages' with their page. */
export function anchorAcross(
  quote: string,
  pages: Array<{ page: number; rects: PageRect[] }>,
): PdfAnchor | null {
  const placed = pages.filter((entry) => entry.rects.length > 0);
  const first = placed[0];
  if (!first) return null;
  return {
    page: first.page,
    quote,
    rects: placed.flatMap(({ page, rects }) =>
      page === first.page ? rects : rects.map((rect) => ({ ...rect, page })),
    ),
  };
}
