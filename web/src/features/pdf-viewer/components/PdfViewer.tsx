/**
 * The resource's PDF and its annotations: pages drawn as they scroll near, `?page=N` opening at page N;
 * text selected on a page can be annotated (the quote, page and boxes go in `highlights.pdf`); the
 * annotations are listed beside the document (below it on narrow screens), and choosing one scrolls to
 * its place and marks it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { EmptyState, ErrorState, LoadingState } from '../../../components/States';
import { ANCHOR_LIMITS, anchorOf, quoteOf, rectsOnPage, type PdfAnchor } from '../anchors';
import { AnnotationList } from './AnnotationList';
import { PdfPage, type PageMark } from './PdfPage';
import { SelectionTools } from './SelectionTools';
import {
  useAnnotateSelection,
  useDeletePdfAnnotation,
  usePdfAnnotations,
  type Annotation,
} from '../hooks/use-pdf-annotations';
import { usePdfDocument } from '../hooks/use-pdf-document';
import '../pdf-viewer.css';

/** The PDF's address in the API. */
function pdfUrl(workspaceId: string, resourceId: string): string {
  return `/api/workspaces/${encodeURIComponent(workspaceId)}/resources/${encodeURIComponent(resourceId)}/pdf`;
}

/** The page element (`.pdf-page`) whose text (pdf.js's text layer) holds the node, inside `root`. */
function pageOf(node: Node | null, root: HTMLElement): HTMLElement | null {
  const element = node instanceof Element ? node : (node?.parentElement ?? null);
  const page = element?.closest('.textLayer')?.closest<HTMLElement>('.pdf-page') ?? null;
  return page && root.contains(page) ? page : null;
}

/** The selection as an anchor when it lies in the text of one page; null when it does not; a string says why it cannot be kept. */
function anchorOfSelection(
  selection: Selection | null,
  root: HTMLElement,
): PdfAnchor | string | null {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  const page = pageOf(range.startContainer, root);
  if (!page || pageOf(range.endContainer, root) !== page) return null;
  const quote = quoteOf(range.toString());
  if (!quote) return null;
  if (quote.length > ANCHOR_LIMITS.quote)
    return `Select at most ${ANCHOR_LIMITS.quote.toLocaleString('en-US')} characters to annotate.`;
  const rects = rectsOnPage(Array.from(range.getClientRects()), page.getBoundingClientRect());
  if (rects.length === 0) return null;
  if (rects.length > ANCHOR_LIMITS.rects)
    return `Select at most ${ANCHOR_LIMITS.rects} lines to annotate.`;
  return { page: Number(page.dataset.pageNumber), quote, rects };
}

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export function PdfViewer({
  workspaceId,
  resourceId,
  initialPage,
  onTitle,
}: {
  workspaceId: string;
  resourceId: string;
  initialPage: number;
  onTitle: (title: string) => void;
}) {
  const pdf = usePdfDocument(pdfUrl(workspaceId, resourceId));
  const annotations = usePdfAnnotations(resourceId);
  const annotate = useAnnotateSelection(workspaceId, resourceId);
  const remove = useDeletePdfAnnotation(workspaceId, resourceId);
  const pagesRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [width, setWidth] = useState(0);
  const [selected, setSelected] = useState<PdfAnchor | null>(null);
  const [tooMuch, setTooMuch] = useState<string | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const openedAt = useRef(false);
  const pageCount = pdf.document?.numPages ?? 0;

  useEffect(() => {
    if (pdf.title) onTitle(pdf.title);
  }, [pdf.title, onTitle]);

  // Pages are as wide as their column; drawn again when it changes (a phone turned, a window resized).
  useEffect(() => {
    const element = pagesRef.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) =>
      setWidth(Math.floor(entry?.contentRect.width ?? 0)),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [pageCount]);

  // Opens at ?page=N once the pages have their places.
  useEffect(() => {
    if (openedAt.current || width === 0 || pageCount === 0) return;
    openedAt.current = true;
    const page = Math.min(Math.max(1, initialPage), pageCount);
    if (page > 1)
      pagesRef.current
        ?.querySelector(`[data-page-number="${page}"]`)
        ?.scrollIntoView({ block: 'start' });
  }, [width, pageCount, initialPage]);

  // The last selection in a page's text; a click elsewhere on the pages drops it.
  useEffect(() => {
    const follow = () => {
      const root = pagesRef.current;
      if (!root) return;
      const selection = document.getSelection();
      const found = anchorOfSelection(selection, root);
      if (typeof found === 'string') {
        setTooMuch(found);
        setSelected(null);
      } else if (found) {
        setTooMuch(null);
        setSelected(found);
      } else if (selection?.isCollapsed && pageOf(selection.anchorNode, root)) {
        setTooMuch(null);
        setSelected(null);
      }
    };
    document.addEventListener('selectionchange', follow);
    return () => document.removeEventListener('selectionchange', follow);
  }, []);

  const marksByPage = useMemo(() => {
    const byPage = new Map<number, PageMark[]>();
    for (const annotation of annotations.data ?? []) {
      const anchor = anchorOf(annotation.highlights);
      if (!anchor) continue;
      byPage.set(anchor.page, [
        ...(byPage.get(anchor.page) ?? []),
        { annotationId: annotation.id, rects: anchor.rects },
      ]);
    }
    return byPage;
  }, [annotations.data]);

  const choose = (annotation: Annotation) => {
    setActiveId(annotation.id);
    const mark = pagesRef.current?.querySelector(
      `[data-annotation-id="${CSS.escape(annotation.id)}"]`,
    );
    mark?.scrollIntoView({ block: 'center', behavior: reducedMotion() ? 'auto' : 'smooth' });
  };

  const save = async (anchor: PdfAnchor, body: string) => {
    const created = await annotate.mutateAsync({ body, pdf: anchor });
    setSelected(null);
    setActiveId(created.id);
    document.getSelection()?.removeAllRanges();
    headingRef.current?.focus();
  };

  const deleteAnnotation = (annotation: Annotation) => {
    remove.mutate(annotation, {
      onSuccess: () => {
        if (activeId === annotation.id) setActiveId(null);
        headingRef.current?.focus();
      },
    });
  };

  if (pdf.failure === 'missing')
    return (
      <EmptyState title="This resource has no PDF">
        Upload one from the workspace's library, then read it here.
      </EmptyState>
    );
  if (pdf.failure)
    return (
      <ErrorState
        title="The PDF cannot be shown"
        error={
          new Error(
            'The file could not be read as a PDF, or the service could not be reached. Reload the page to try again.',
          )
        }
      />
    );
  if (!pdf.document) return <LoadingState label="Opening the PDF…" />;

  const document_ = pdf.document;
  return (
    <div className="pdf-viewer">
      <div className="pdf-document">
        <p className="muted" id="pdf-help">
          {pageCount} {pageCount === 1 ? 'page' : 'pages'}. Select text on a page, then press
          Annotate (Tab after selecting reaches it).
        </p>
        {tooMuch && (
          <p className="field-error" role="status">
            {tooMuch}
          </p>
        )}
        <div ref={pagesRef} className="pdf-pages">
          {Array.from({ length: pageCount }, (_, index) => index + 1).map((number) => (
            <PdfPage
              key={number}
              document={document_}
              number={number}
              width={width}
              aspect={pdf.aspect}
              marks={marksByPage.get(number) ?? []}
              activeId={activeId}
            >
              {selected?.page === number && (
                <SelectionTools
                  key={`${selected.quote}:${selected.rects.length}`}
                  anchor={selected}
                  onSave={(body) => save(selected, body)}
                  onCancel={() => {
                    setSelected(null);
                    document.getSelection()?.removeAllRanges();
                  }}
                />
              )}
            </PdfPage>
          ))}
        </div>
      </div>
      {annotations.isError ? (
        <ErrorState
          title="The annotations cannot be shown"
          error={annotations.error}
          onRetry={() => void annotations.refetch()}
        />
      ) : annotations.isPending ? (
        <LoadingState label="Loading the annotations…" />
      ) : (
        <AnnotationList
          annotations={annotations.data}
          activeId={activeId}
          deleting={remove.isPending ? (remove.variables?.id ?? null) : null}
          deleteError={remove.error}
          onChoose={choose}
          onDelete={deleteAnnotation}
          headingRef={headingRef}
        />
      )}
    </div>
  );
}
