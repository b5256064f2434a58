/**
 * The resource's PDF and its annotations: pages drawn as they scroll near, `?page=N` opening at page N;
 * a toolbar to zoom (fit width, fit page, steps; Ctrl+wheel and a pinch too), to see and type the page,
 * and to find in the document (pdf.js's find controller); the document's outline. Text selected on a page,
 * or across a page break, can be annotated in a colour (the quote, its pages and boxes go in
 * `highlights.pdf`); the annotations are listed beside the document (below it on narrow screens), and
 * choosing one scrolls to its place and marks it.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { EmptyState, ErrorState, LoadingState } from '../../../components/States';
import type { AnnotationColor } from '../../../lib/annotations';
import {
  ANCHOR_LIMITS,
  anchorAcross,
  anchorOf,
  quoteOf,
  rectsByPage,
  rectsOnPage,
  type PdfAnchor,
} from '../anchors';
import { DocumentFind, type FindStatus } from '../find';
import { clampScale, pageWidthFor, stepFrom, type Zoom } from '../zoom';
import { AnnotationList } from './AnnotationList';
import { Outline } from './Outline';
import { PdfPage, type PageMark } from './PdfPage';
import { SelectionTools } from './SelectionTools';
import { Toolbar } from './Toolbar';
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

/** The boxes of the range's text inside one text layer (not the canvases or marks a range across pages holds). */
function textRectsWithin(range: Range, layer: Element): DOMRect[] {
  const rects: DOMRect[] = [];
  const walker = document.createTreeWalker(layer, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!range.intersectsNode(node)) continue;
    const part = document.createRange();
    part.selectNodeContents(node);
    if (range.compareBoundaryPoints(Range.START_TO_START, part) > 0)
      part.setStart(range.startContainer, range.startOffset);
    if (range.compareBoundaryPoints(Range.END_TO_END, part) < 0)
      part.setEnd(range.endContainer, range.endOffset);
    rects.push(...Array.from(part.getClientRects()));
  }
  return rects;
}

/**
 * The selection as an anchor when it lies in the pages' text (on one page, or from one page into the
 * next ones); null when it does not; a string says why it cannot be kept.
 */
function anchorOfSelection(
  selection: Selection | null,
  root: HTMLElement,
): PdfAnchor | string | null {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  const first = pageOf(range.startContainer, root);
  const last = pageOf(range.endContainer, root);
  if (!first || !last) return null;
  const from = Number(first.dataset.pageNumber);
  const to = Number(last.dataset.pageNumber);
  if (!(to >= from)) return null;
  const quote = quoteOf(range.toString());
  if (!quote) return null;
  if (quote.length > ANCHOR_LIMITS.quote)
    return `Select at most ${ANCHOR_LIMITS.quote.toLocaleString('en-US')} characters to annotate.`;
  const pages: Array<{ page: number; rects: ReturnType<typeof rectsOnPage> }> = [];
  for (let number = from; number <= to; number++) {
    const page = root.querySelector<HTMLElement>(`.pdf-page[data-page-number="${number}"]`);
    const layer = page?.querySelector('.textLayer');
    if (!page || !layer) continue;
    pages.push({
      page: number,
      rects: rectsOnPage(textRectsWithin(range, layer), page.getBoundingClientRect()),
    });
  }
  const anchor = anchorAcross(quote, pages);
  if (!anchor) return null;
  if (anchor.rects.length > ANCHOR_LIMITS.rects)
    return `Select at most ${ANCHOR_LIMITS.rects} lines to annotate.`;
  return anchor;
}

/** The last page an anchor has boxes on (where its tools are shown). */
const lastPageOf = (anchor: PdfAnchor) =>
  Math.max(anchor.page, ...anchor.rects.map((rect) => rect.page ?? anchor.page));

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
  const toolbarRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  /** The pages' column: its width, and the window's height below the toolbar. */
  const [column, setColumn] = useState({ width: 0, height: 0 });
  const [zoom, setZoom] = useState<Zoom>({ kind: 'fit-width' });
  const [currentPage, setCurrentPage] = useState(1);
  const [selected, setSelected] = useState<PdfAnchor | null>(null);
  const [tooMuch, setTooMuch] = useState<string | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [color, setColor] = useState<AnnotationColor>('yellow');
  const [findStatus, setFindStatus] = useState<FindStatus | null>(null);
  const openedAt = useRef(false);
  /** Where the reader was (a page and how far down it) when the zoom changed: kept in view after. */
  const keepPlace = useRef<{ page: number; offset: number } | null>(null);
  const currentPageRef = useRef(1);
  const pageCount = pdf.document?.numPages ?? 0;

  const width = Math.floor(
    pageWidthFor(zoom, {
      column: column.width,
      viewHeight: column.height,
      naturalWidth: pdf.naturalWidth,
      aspect: pdf.aspect,
    }),
  );
  const scale = width / pdf.naturalWidth;
  const scaleRef = useRef(scale);
  scaleRef.current = scale;

  useEffect(() => {
    if (pdf.title) onTitle(pdf.title);
  }, [pdf.title, onTitle]);

  const pageElement = useCallback(
    (page: number) =>
      pagesRef.current?.querySelector<HTMLElement>(`.pdf-page[data-page-number="${page}"]`) ?? null,
    [],
  );
  /** The line a page must cross to be the page in view: a third of the way down below the toolbar. */
  const readingLine = useCallback(() => {
    const top = Math.max(0, toolbarRef.current?.getBoundingClientRect().bottom ?? 0);
    return top + (window.innerHeight - top) / 3;
  }, []);
  const goTo = useCallback(
    (page: number) => {
      pageElement(page)?.scrollIntoView({ block: 'start' });
      currentPageRef.current = page;
      setCurrentPage(page);
    },
    [pageElement],
  );

  // Fit width follows the column; fit page the window too; drawn again when they change.
  useEffect(() => {
    const element = pagesRef.current;
    if (!element) return;
    const measure = () => {
      const toolbar = toolbarRef.current?.offsetHeight ?? 0;
      setColumn({
        width: Math.floor(element.clientWidth),
        height: Math.max(200, window.innerHeight - toolbar - 32),
      });
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [pageCount]);

  // The page in view: the last one whose top has passed the reading line.
  useEffect(() => {
    if (pageCount === 0) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const line = readingLine();
      let found = 1;
      for (const element of pagesRef.current?.children ?? []) {
        if (element.getBoundingClientRect().top > line) break;
        found = Number((element as HTMLElement).dataset.pageNumber) || found;
      }
      currentPageRef.current = found;
      setCurrentPage(found);
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(measure);
    };
    window.addEventListener('scroll', schedule, { passive: true });
    schedule();
    return () => {
      window.removeEventListener('scroll', schedule);
      cancelAnimationFrame(frame);
    };
  }, [pageCount, readingLine]);

  const changeZoom = useCallback(
    (next: Zoom) => {
      const page = pageElement(currentPageRef.current);
      if (page) {
        const box = page.getBoundingClientRect();
        keepPlace.current = {
          page: currentPageRef.current,
          offset: box.height > 0 ? (readingLine() - box.top) / box.height : 0,
        };
      }
      setZoom(next);
    },
    [pageElement, readingLine],
  );

  // After a zoom, the place read stays on the reading line.
  useLayoutEffect(() => {
    const place = keepPlace.current;
    keepPlace.current = null;
    const page = place && pageElement(place.page);
    if (!place || !page) return;
    const box = page.getBoundingClientRect();
    window.scrollBy({ top: box.top + place.offset * box.height - readingLine() });
  }, [width, pageElement, readingLine]);

  // Ctrl+wheel (a trackpad's pinch too) zooms the pages; two fingers pinching on a touch screen as well.
  useEffect(() => {
    const element = pagesRef.current;
    if (!element) return;
    const wheel = (event: WheelEvent) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      changeZoom({
        kind: 'scale',
        scale: clampScale(scaleRef.current * Math.exp(-event.deltaY / 400)),
      });
    };
    const touches = new Map<number, { x: number; y: number }>();
    let pinch: { distance: number; ratio: number } | null = null;
    const distance = () => {
      const [a, b] = [...touches.values()];
      return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
    };
    const down = (event: PointerEvent) => {
      if (event.pointerType !== 'touch') return;
      touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (touches.size === 2) pinch = { distance: distance(), ratio: 1 };
    };
    const move = (event: PointerEvent) => {
      if (!touches.has(event.pointerId)) return;
      touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (!pinch || pinch.distance === 0) return;
      pinch.ratio = distance() / pinch.distance;
      element.style.transform = `scale(${pinch.ratio})`;
    };
    const up = (event: PointerEvent) => {
      if (!touches.delete(event.pointerId) || !pinch) return;
      const { ratio } = pinch;
      pinch = null;
      element.style.transform = '';
      if (Math.abs(ratio - 1) > 0.02)
        changeZoom({ kind: 'scale', scale: clampScale(scaleRef.current * ratio) });
    };
    element.addEventListener('wheel', wheel, { passive: false });
    element.addEventListener('pointerdown', down);
    element.addEventListener('pointermove', move);
    element.addEventListener('pointerup', up);
    element.addEventListener('pointercancel', up);
    return () => {
      element.removeEventListener('wheel', wheel);
      element.removeEventListener('pointerdown', down);
      element.removeEventListener('pointermove', move);
      element.removeEventListener('pointerup', up);
      element.removeEventListener('pointercancel', up);
    };
  }, [pageCount, changeZoom]);

  // Opens at ?page=N once the pages have their places.
  useEffect(() => {
    if (openedAt.current || width === 0 || pageCount === 0) return;
    openedAt.current = true;
    const page = Math.min(Math.max(1, initialPage), pageCount);
    if (page > 1) goTo(page);
  }, [width, pageCount, initialPage, goTo]);

  // Find, with pdf.js's find controller, for this document.
  const finder = useMemo(
    () =>
      pdf.document
        ? new DocumentFind(
            pdf.document,
            { current: () => currentPageRef.current, goTo: (page) => goTo(page) },
            setFindStatus,
          )
        : null,
    [pdf.document, goTo],
  );
  useEffect(() => () => finder?.close(), [finder]);
  const onText = useCallback(
    (page: number, text: Parameters<DocumentFind['setPageText']>[1]) =>
      finder?.setPageText(page, text),
    [finder],
  );

  // The last selection in the pages' text; a click elsewhere on the pages drops it.
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
      for (const [page, rects] of rectsByPage(anchor))
        byPage.set(page, [
          ...(byPage.get(page) ?? []),
          { annotationId: annotation.id, color: annotation.color, rects },
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
    const created = await annotate.mutateAsync({ body, color, pdf: anchor });
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
  const toolsOn = selected ? lastPageOf(selected) : null;
  return (
    <div className="pdf-viewer">
      <div className="pdf-document">
        <div ref={toolbarRef} className="pdf-toolbar-wrap">
          <Toolbar
            zoom={zoom}
            scale={scale}
            onZoom={changeZoom}
            onZoomStep={(direction) =>
              changeZoom({ kind: 'scale', scale: stepFrom(scale, direction) })
            }
            page={currentPage}
            pageCount={pageCount}
            onGoTo={goTo}
            findStatus={findStatus}
            onFind={(query, options) => void finder?.find(query, options)}
            onFindClose={() => {
              finder?.close();
              setFindStatus(null);
            }}
          />
        </div>
        <p className="muted" id="pdf-help">
          {pageCount} {pageCount === 1 ? 'page' : 'pages'}. Select text on a page (or across pages),
          then press Annotate (Tab after selecting reaches it).
        </p>
        <Outline document={document_} onGoTo={goTo} />
        {tooMuch && (
          <p className="field-error" role="status">
            {tooMuch}
          </p>
        )}
        <div
          ref={pagesRef}
          className="pdf-pages"
          role="region"
          aria-label="Pages"
          // Zoomed past the column's width, the pages scroll sideways: a keyboard can scroll them once focused.
          tabIndex={0}
        >
          {Array.from({ length: pageCount }, (_, index) => index + 1).map((number) => (
            <PdfPage
              key={number}
              document={document_}
              number={number}
              width={width}
              aspect={pdf.aspect}
              marks={marksByPage.get(number) ?? []}
              activeId={activeId}
              onText={onText}
            >
              {selected && toolsOn === number && (
                <SelectionTools
                  key={`${selected.quote}:${selected.rects.length}`}
                  anchor={{
                    ...selected,
                    rects: selected.rects.filter((rect) => (rect.page ?? selected.page) === number),
                  }}
                  color={color}
                  onColor={setColor}
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
