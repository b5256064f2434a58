/**
 * Find in the document with pdf.js's own find controller (`PDFFindController` of
 * pdfjs-dist/web/pdf_viewer.mjs): it reads every page's text, normalises it as pdf.js's viewer does
 * (ligatures, diacritics, words hyphenated at a line's end), finds the matches and steps through them,
 * next or previous, wrapping round. Our pages tell it the page in view and go to the page it asks for.
 * The matches are drawn with the CSS Custom Highlight API over the text layer's own text nodes
 * (`::highlight(pdf-find)`, the current one `::highlight(pdf-find-current)`): the DOM is not changed, so
 * a selection made for an annotation is not disturbed. The viewer's module (about 50 KB gzipped) loads
 * with the first search.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';

type ViewerModule = typeof import('pdfjs-dist/web/pdf_viewer.mjs');
type FindController = InstanceType<ViewerModule['PDFFindController']>;
type Bus = InstanceType<ViewerModule['EventBus']>;

let viewerModule: Promise<ViewerModule> | null = null;
/** pdf_viewer.mjs reads pdf.js from `globalThis.pdfjsLib`: the same module the pages are drawn with. */
function loadViewerModule(): Promise<ViewerModule> {
  viewerModule ??= import('pdfjs-dist').then(async (library) => {
    (globalThis as { pdfjsLib?: unknown }).pdfjsLib = library;
    return import('pdfjs-dist/web/pdf_viewer.mjs');
  });
  return viewerModule;
}

/** A drawn page's text layer: its text elements and the strings they hold, one each (pdf.js's TextLayer). */
export interface PageText {
  textDivs: HTMLElement[];
  textContentItemsStr: string[];
}

export interface FindStatus {
  query: string;
  /** Pending while pages are still read; the match shown is `current` of `total`. */
  state: 'pending' | 'found' | 'not-found' | 'wrapped';
  current: number;
  total: number;
}

export interface PageNavigation {
  /** The page in view, from 1. */
  current: () => number;
  goTo: (page: number) => void;
}

const ALL = 'pdf-find';
const CURRENT = 'pdf-find-current';
/** pdf.js's FindState numbers. */
const STATES = ['found', 'not-found', 'wrapped', 'pending'] as const;

/** Match offsets in a page's text as places in its text elements (pdf.js's TextHighlighter._convertMatches). */
function placesOf(
  strings: string[],
  starts: number[],
  lengths: number[],
): Array<{ begin: [number, number]; end: [number, number] }> {
  const places: Array<{ begin: [number, number]; end: [number, number] }> = [];
  const last = strings.length - 1;
  let item = 0;
  let itemStart = 0;
  starts.forEach((start, index) => {
    let at = start;
    while (item !== last && at >= itemStart + (strings[item]?.length ?? 0)) {
      itemStart += strings[item]?.length ?? 0;
      item++;
    }
    const begin: [number, number] = [item, at - itemStart];
    at += lengths[index] ?? 0;
    while (item !== last && at > itemStart + (strings[item]?.length ?? 0)) {
      itemStart += strings[item]?.length ?? 0;
      item++;
    }
    places.push({ begin, end: [item, at - itemStart] });
  });
  return places;
}

function textNodeOf(element: HTMLElement | undefined): Text | null {
  const node = element?.firstChild;
  return node instanceof Text ? node : null;
}

export class DocumentFind {
  private readonly pages = new Map<number, PageText>();
  private controller: FindController | null = null;
  private bus: Bus | null = null;
  private closed = false;

  constructor(
    private readonly document: PDFDocumentProxy,
    private readonly navigation: PageNavigation,
    private readonly onStatus: (status: FindStatus) => void,
  ) {}

  private async ready(): Promise<{ controller: FindController; bus: Bus }> {
    if (this.controller && this.bus) return { controller: this.controller, bus: this.bus };
    const { EventBus, PDFFindController } = await loadViewerModule();
    const bus = new EventBus();
    const { document, navigation } = this;
    // The find controller asks its link service for the page in view and the page count, and sets the page to go to a match.
    const linkService = {
      get pagesCount() {
        return document.numPages;
      },
      get page() {
        return navigation.current();
      },
      set page(page: number) {
        navigation.goTo(page);
      },
    };
    const controller = new PDFFindController({
      // The controller uses only these three members of a link service (pdf_find_controller.js).
      linkService: linkService as unknown as ConstructorParameters<
        ViewerModule['PDFFindController']
      >[0]['linkService'],
      eventBus: bus,
      updateMatchesCountOnProgress: true,
    });
    controller.setDocument(document);
    let query = '';
    const report = ({
      state,
      matchesCount,
      rawQuery,
    }: {
      state?: number;
      matchesCount?: { current: number; total: number };
      rawQuery?: string;
    }) => {
      if (typeof rawQuery === 'string') query = rawQuery;
      if (this.closed) return;
      this.onStatus({
        query,
        state: STATES[state ?? 3] ?? 'pending',
        current: matchesCount?.current ?? 0,
        total: matchesCount?.total ?? 0,
      });
    };
    bus._on('updatefindcontrolstate', report);
    bus._on(
      'updatefindmatchescount',
      (event: { matchesCount: { current: number; total: number } }) =>
        this.onStatus({
          query,
          state: event.matchesCount.total > 0 ? 'found' : 'pending',
          current: event.matchesCount.current,
          total: event.matchesCount.total,
        }),
    );
    bus._on('updatetextlayermatches', () => this.paint());
    this.controller = controller;
    this.bus = bus;
    return { controller, bus };
  }

  /** Finds `query` (a new search), or the next or previous match of the same one (`again`). */
  async find(query: string, { again = false, previous = false } = {}): Promise<void> {
    const { bus } = await this.ready();
    this.closed = false;
    bus.dispatch('find', {
      source: this,
      type: again ? 'again' : '',
      query,
      caseSensitive: false,
      entireWord: false,
      highlightAll: true,
      findPrevious: previous,
      matchDiacritics: false,
    });
  }

  /** Ends the search: its marks go. */
  close(): void {
    this.closed = true;
    this.bus?.dispatch('findbarclose', { source: this });
    this.clear();
  }

  /** A page's text layer, once drawn (null when it is gone): its matches are marked. */
  setPageText(page: number, text: PageText | null): void {
    if (text) this.pages.set(page - 1, text);
    else this.pages.delete(page - 1);
    if (this.controller?.highlightMatches) this.paint();
  }

  private clear(): void {
    if (typeof CSS === 'undefined' || !('highlights' in CSS)) return;
    CSS.highlights.delete(ALL);
    CSS.highlights.delete(CURRENT);
  }

  /** Marks every match on the drawn pages, the current one apart, and scrolls to it when the controller asks. */
  private paint(): void {
    const controller = this.controller;
    if (!controller || this.closed || typeof CSS === 'undefined' || !('highlights' in CSS)) return;
    const all: Range[] = [];
    const current: Range[] = [];
    const selected = controller.selected ?? { pageIdx: -1, matchIdx: -1 };
    let scrollTo: { element: HTMLElement; pageIndex: number; matchIndex: number } | null = null;
    for (const [pageIndex, text] of this.pages) {
      const starts = (controller.pageMatches?.[pageIndex] ?? []) as number[];
      const lengths = (controller.pageMatchesLength?.[pageIndex] ?? []) as number[];
      placesOf(text.textContentItemsStr, starts, lengths).forEach(({ begin, end }, matchIndex) => {
        const startNode = textNodeOf(text.textDivs[begin[0]]);
        const endNode = textNodeOf(text.textDivs[end[0]]);
        if (!startNode || !endNode) return;
        const range = new Range();
        range.setStart(startNode, Math.min(begin[1], startNode.length));
        range.setEnd(endNode, Math.min(end[1], endNode.length));
        const isCurrent = pageIndex === selected.pageIdx && matchIndex === selected.matchIdx;
        (isCurrent ? current : all).push(range);
        if (isCurrent && text.textDivs[begin[0]])
          scrollTo = { element: text.textDivs[begin[0]]!, pageIndex, matchIndex };
      });
    }
    CSS.highlights.set(ALL, new Highlight(...all));
    CSS.highlights.set(CURRENT, new Highlight(...current));
    if (scrollTo) controller.scrollMatchIntoView(scrollTo);
  }
}
