/**
 * One summary request from start to finish: quick (title + abstract), deep (the paper's PDF: find its
 * address, fetch, extract, clean, summarise) or auto (deep, falling back to quick), through the caches.
 * Failures are never cached; `mode: 'deep'` never silently falls back.
 */
import type { Outbound } from '../platform/outbound.js';
import { summaryCacheKey, type CacheSource, type SummaryCache } from './cache.js';
import { PdfFetchError, PdfTextError } from './pdf/errors.js';
import { cleanPdfTextOffThread } from './pdf/clean-off-thread.js';
import { extractPdfText } from './pdf/extract.js';
import { fetchPdf } from './pdf/fetch-pdf.js';
import { resolvePdfUrl, type PdfSourceUrls } from './pdf/address.js';
import { summarize, type SummaryMode } from './summarize.js';
import type { Summary } from './variants.js';

export type RequestedMode = SummaryMode | 'auto';
export type Stage = 'fetching' | 'extracting' | 'summarizing';

export interface SummaryRequest {
  id?: string;
  source?: string;
  title?: string;
  abstract?: string;
  url?: string;
  /** Variant B: the text itself. */
  content?: string;
  mode: RequestedMode;
}

export interface SummaryOutcome {
  summary: Summary;
  modeRequested: RequestedMode;
  modeUsed: SummaryMode;
  fromCache: false | CacheSource;
}

/** A failure the client should be told about, with the HTTP status a JSON reply would carry. */
export class SummaryFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SummaryFailure';
  }
}

export interface SummarizerDeps {
  outbound: Outbound;
  cache: SummaryCache;
  pdfUrls: PdfSourceUrls;
}

/**
 * The caller's cancellation (a client that went away). Its signal is asked for only when cancellable
 * work starts (fetching and reading a PDF), so that a cache hit or a quick summary sets nothing up.
 */
export interface Cancellation {
  signal(): AbortSignal;
}

export interface RunOptions {
  cancellation?: Cancellation;
  onProgress?: (stage: Stage) => void;
}

/** Past this many words, `content` is summarised as a full text (deep), below as an abstract (quick). */
const FULL_TEXT_WORDS = 400;
const MAX_TEXT_CHARS = 200_000;

const FETCH_FAILURES: Record<PdfFetchError['code'], { status: number; message: string }> = {
  no_pdf: { status: 422, message: 'No PDF could be found for this record' },
  not_pdf: { status: 422, message: 'The address did not return a PDF' },
  too_large: { status: 413, message: 'The PDF is larger than 25 MB' },
  timeout: { status: 504, message: 'The PDF took too long to download (25 s)' },
  blocked_address: { status: 400, message: 'The PDF address is not allowed' },
  http_error: { status: 502, message: 'The PDF could not be downloaded' },
  network: { status: 502, message: 'The PDF could not be downloaded' },
  bad_url: { status: 400, message: 'The PDF address is not a valid http(s) URL' },
  aborted: { status: 499, message: 'The request was cancelled' },
};

const TEXT_FAILURES: Record<PdfTextError['code'], { status: number; message: string }> = {
  no_text: { status: 422, message: 'The PDF has no text to summarise (it is probably a scanned image)' },
  not_pdf: { status: 422, message: 'The file is not a PDF' },
  encrypted: { status: 422, message: 'The PDF is encrypted' },
  invalid: { status: 422, message: 'The PDF could not be read' },
  timeout: { status: 504, message: 'Reading the PDF took too long' },
  aborted: { status: 499, message: 'The request was cancelled' },
};

function toFailure(error: unknown): SummaryFailure | null {
  if (error instanceof SummaryFailure) return error;
  if (error instanceof PdfFetchError) {
    const known = FETCH_FAILURES[error.code];
    const detail = error.code === 'http_error' && error.status ? ` (HTTP ${error.status})` : '';
    return new SummaryFailure(known.status, error.code, `${known.message}${detail}`);
  }
  if (error instanceof PdfTextError) {
    const known = TEXT_FAILURES[error.code];
    return new SummaryFailure(known.status, error.code, known.message);
  }
  return null;
}

function quickText(request: SummaryRequest): string {
  return [request.abstract, request.content].filter(Boolean).join('\n\n').slice(0, MAX_TEXT_CHARS);
}

export function createSummarizer(deps: SummarizerDeps) {
  async function pdfText(request: SummaryRequest, options: RunOptions): Promise<string> {
    const signal = options.cancellation?.signal();
    options.onProgress?.('fetching');
    const url = await resolvePdfUrl({ id: request.id, source: request.source, url: request.url }, {
      outbound: deps.outbound,
      urls: deps.pdfUrls,
      signal,
    });
    const pdf = await fetchPdf(url, { outbound: deps.outbound, signal });
    options.onProgress?.('extracting');
    const extracted = await extractPdfText(pdf, { signal });
    // Off the event loop, under its own time budget: the text is whatever the PDF's author wrote.
    return cleanPdfTextOffThread(extracted.text, { signal });
  }

  async function computeDeep(request: SummaryRequest, key: string, options: RunOptions): Promise<Summary> {
    return deps.cache.once(key, async () => {
      const text = await pdfText(request, options);
      options.onProgress?.('summarizing');
      const summary = summarize({ title: request.title, text, mode: 'deep' });
      await deps.cache.set(key, summary);
      return summary;
    });
  }

  async function computeQuick(request: SummaryRequest, key: string): Promise<Summary> {
    const text = quickText(request);
    if (!text && !request.title) {
      throw new SummaryFailure(400, 'VALIDATION_ERROR', 'A quick summary needs a title or an abstract');
    }
    const summary = summarize({ title: request.title, text: text || request.title || '', mode: 'quick' });
    await deps.cache.set(key, summary);
    return summary;
  }

  /** Runs a request through the caches; throws SummaryFailure for anything the client should hear about. */
  async function run(request: SummaryRequest, options: RunOptions = {}): Promise<SummaryOutcome> {
    try {
      if (request.content !== undefined) return await runContent(request);
      if (request.mode === 'quick') {
        const key = summaryCacheKey({ mode: 'quick', title: request.title, text: quickText(request) });
        const hit = await deps.cache.get<Summary>(key);
        if (hit) return { summary: hit.value, modeRequested: 'quick', modeUsed: 'quick', fromCache: hit.from };
        return { summary: await computeQuick(request, key), modeRequested: 'quick', modeUsed: 'quick', fromCache: false };
      }
      if (!request.id && !request.url) {
        if (request.mode === 'deep') throw new SummaryFailure(400, 'VALIDATION_ERROR', 'A deep summary needs an id or a url');
        return await run({ ...request, mode: 'quick' }).then((outcome) => ({ ...outcome, modeRequested: 'auto' as const }));
      }
      const key = summaryCacheKey({ mode: 'deep', title: request.title, pdf: { id: request.id, source: request.source, url: request.url } });
      const hit = await deps.cache.get<Summary>(key);
      if (hit) return { summary: hit.value, modeRequested: request.mode, modeUsed: 'deep', fromCache: hit.from };
      try {
        const summary = await computeDeep(request, key, options).catch((error: unknown) => {
          // A shared computation started by a caller who then left was aborted; this caller is still here.
          if (toFailure(error)?.code === 'aborted' && !options.cancellation?.signal().aborted) return computeDeep(request, key, options);
          throw error;
        });
        return { summary, modeRequested: request.mode, modeUsed: 'deep', fromCache: false };
      } catch (error) {
        const failure = toFailure(error);
        if (request.mode === 'deep' || !failure || failure.code === 'aborted' || !(request.title || request.abstract)) throw error;
        const quick = await run({ ...request, mode: 'quick' });
        return { ...quick, modeRequested: 'auto' };
      }
    } catch (error) {
      throw toFailure(error) ?? error;
    }
  }

  async function runContent(request: SummaryRequest): Promise<SummaryOutcome> {
    const text = (request.content ?? '').slice(0, MAX_TEXT_CHARS);
    if (!text.trim()) throw new SummaryFailure(400, 'VALIDATION_ERROR', 'content must not be empty');
    const mode: SummaryMode = text.split(/\s+/).length > FULL_TEXT_WORDS ? 'deep' : 'quick';
    const key = summaryCacheKey({ mode, title: request.title, text });
    const hit = await deps.cache.get<Summary>(key);
    if (hit) return { summary: hit.value, modeRequested: mode, modeUsed: mode, fromCache: hit.from };
    const summary = summarize({ title: request.title, text, mode });
    await deps.cache.set(key, summary);
    return { summary, modeRequested: mode, modeUsed: mode, fromCache: false };
  }

  return { run };
}

export type Summarizer = ReturnType<typeof createSummarizer>;
