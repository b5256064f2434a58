/**
 * One summary request from start to finish: quick (title + abstract), deep (the paper's PDF: find its
 * address, fetch, extract, clean, summarise) or auto (deep, falling back to quick), through the caches.
 * Failures are never cached; `mode: 'deep'` never silently falls back.
 */
import { ApiError, type ErrorCode } from '../platform/errors.js';
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
  /** What else the record knows of its PDF (a search result's pdfUrl, arXiv id, DOI): pdf/address.ts picks the best. */
  pdfUrl?: string;
  arxivId?: string;
  doi?: string;
  /** Variant B: the text itself. */
  content?: string;
  mode: RequestedMode;
  /**
   * A resource the user keeps (named by workspaceId + resourceId and read by the route): its stored
   * PDF text, when extracted, is the deep summary's input instead of a fetched PDF.
   */
  stored?: { pdf?: { sha256: string; text: string } };
}

export interface SummaryOutcome {
  summary: Summary;
  modeRequested: RequestedMode;
  modeUsed: SummaryMode;
  fromCache: false | CacheSource;
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

/**
 * What the client is told when the PDF path fails: an API error with its status, the PDF failure's own
 * code (`no_pdf`, `timeout`, …) kept as its reason.
 */
const FETCH_FAILURES: Record<PdfFetchError['code'], { code: ErrorCode; message: string }> = {
  no_pdf: { code: 'UNPROCESSABLE', message: 'No PDF could be found for this record' },
  not_pdf: { code: 'UNPROCESSABLE', message: 'The address did not return a PDF' },
  too_large: { code: 'PAYLOAD_TOO_LARGE', message: 'The PDF is larger than 25 MB' },
  timeout: { code: 'GATEWAY_TIMEOUT', message: 'The PDF took too long to download (25 s)' },
  blocked_address: { code: 'VALIDATION_ERROR', message: 'The PDF address is not allowed' },
  http_error: { code: 'BAD_GATEWAY', message: 'The PDF could not be downloaded' },
  network: { code: 'BAD_GATEWAY', message: 'The PDF could not be downloaded' },
  bad_url: { code: 'VALIDATION_ERROR', message: 'The PDF address is not a valid http(s) URL' },
  aborted: { code: 'CLIENT_CLOSED_REQUEST', message: 'The request was cancelled' },
};

const TEXT_FAILURES: Record<PdfTextError['code'], { code: ErrorCode; message: string }> = {
  no_text: {
    code: 'UNPROCESSABLE',
    message: 'The PDF has no text to summarise (it is probably a scanned image)',
  },
  not_pdf: { code: 'UNPROCESSABLE', message: 'The file is not a PDF' },
  encrypted: { code: 'UNPROCESSABLE', message: 'The PDF is encrypted' },
  invalid: { code: 'UNPROCESSABLE', message: 'The PDF could not be read' },
  timeout: { code: 'GATEWAY_TIMEOUT', message: 'Reading the PDF took too long' },
  aborted: { code: 'CLIENT_CLOSED_REQUEST', message: 'The request was cancelled' },
};

/** A failure of the PDF path as the API error the client hears; null for any other error. */
function pdfFailure(error: unknown): ApiError | null {
  if (error instanceof PdfFetchError) {
    const known = FETCH_FAILURES[error.code];
    const detail = error.code === 'http_error' && error.status ? ` (HTTP ${error.status})` : '';
    return new ApiError(known.code, `${known.message}${detail}`, { reason: error.code });
  }
  if (error instanceof PdfTextError) {
    const known = TEXT_FAILURES[error.code];
    return new ApiError(known.code, known.message, { reason: error.code });
  }
  return null;
}

const pdfRecordOf = (request: SummaryRequest) => ({
  id: request.id,
  source: request.source,
  url: request.url,
  pdfUrl: request.pdfUrl,
  arxivId: request.arxivId,
  doi: request.doi,
});

const summaryInputError = (message: string) => new ApiError('VALIDATION_ERROR', message);

function quickText(request: SummaryRequest): string {
  return [request.abstract, request.content].filter(Boolean).join('\n\n').slice(0, MAX_TEXT_CHARS);
}

export function createSummarizer(deps: SummarizerDeps) {
  async function pdfText(request: SummaryRequest, options: RunOptions): Promise<string> {
    const signal = options.cancellation?.signal();
    options.onProgress?.('fetching');
    const url = await resolvePdfUrl(pdfRecordOf(request), {
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

  async function computeDeep(
    request: SummaryRequest,
    key: string,
    options: RunOptions,
  ): Promise<Summary> {
    return deps.cache.once(key, async () => {
      const text = await pdfText(request, options);
      options.onProgress?.('summarizing');
      const summary = summarize({ title: request.title, text, mode: 'deep' });
      await deps.cache.set(key, summary);
      return summary;
    });
  }

  /** A deep summary of a stored PDF's text: no address to find, nothing to fetch; cached by the file's hash. */
  async function runStored(
    request: SummaryRequest,
    pdf: { sha256: string; text: string },
    options: RunOptions,
  ): Promise<SummaryOutcome> {
    // Keyed in the stored PDFs' own space, derived here: no client-sent id can name it.
    const key = summaryCacheKey({
      mode: 'deep',
      title: request.title,
      storedPdfSha256: pdf.sha256,
    });
    const hit = await deps.cache.get<Summary>(key);
    if (hit)
      return {
        summary: hit.value,
        modeRequested: request.mode,
        modeUsed: 'deep',
        fromCache: hit.from,
      };
    const summary = await deps.cache.once(key, async () => {
      options.onProgress?.('extracting');
      const text = await cleanPdfTextOffThread(pdf.text.slice(0, MAX_TEXT_CHARS), {
        signal: options.cancellation?.signal(),
      });
      options.onProgress?.('summarizing');
      const computed = summarize({ title: request.title, text, mode: 'deep' });
      await deps.cache.set(key, computed);
      return computed;
    });
    return { summary, modeRequested: request.mode, modeUsed: 'deep', fromCache: false };
  }

  async function computeQuick(request: SummaryRequest, key: string): Promise<Summary> {
    const text = quickText(request);
    if (!text && !request.title) {
      throw summaryInputError('A quick summary needs a title or an abstract');
    }
    const summary = summarize({
      title: request.title,
      text: text || request.title || '',
      mode: 'quick',
    });
    await deps.cache.set(key, summary);
    return summary;
  }

  /** Runs a request through the caches; anything the client should hear about is thrown as an ApiError. */
  async function run(request: SummaryRequest, options: RunOptions = {}): Promise<SummaryOutcome> {
    try {
      if (request.content !== undefined) return await runContent(request);
      if (request.stored && request.mode !== 'quick') {
        if (request.stored.pdf) return await runStored(request, request.stored.pdf, options);
        if (request.mode === 'deep') {
          throw new ApiError(
            'UNPROCESSABLE',
            'This resource has no PDF text yet: attach a PDF, or wait until its extraction is ready',
            { reason: 'no_stored_pdf' },
          );
        }
        const quick = await run({ ...request, mode: 'quick' });
        return { ...quick, modeRequested: 'auto' };
      }
      if (request.mode === 'quick') {
        const key = summaryCacheKey({
          mode: 'quick',
          title: request.title,
          text: quickText(request),
        });
        const hit = await deps.cache.get<Summary>(key);
        if (hit)
          return {
            summary: hit.value,
            modeRequested: 'quick',
            modeUsed: 'quick',
            fromCache: hit.from,
          };
        return {
          summary: await computeQuick(request, key),
          modeRequested: 'quick',
          modeUsed: 'quick',
          fromCache: false,
        };
      }
      if (!request.id && !request.url) {
        if (request.mode === 'deep') throw summaryInputError('A deep summary needs an id or a url');
        return await run({ ...request, mode: 'quick' }).then((outcome) => ({
          ...outcome,
          modeRequested: 'auto' as const,
        }));
      }
      const key = summaryCacheKey({
        mode: 'deep',
        title: request.title,
        pdf: pdfRecordOf(request),
      });
      const hit = await deps.cache.get<Summary>(key);
      if (hit)
        return {
          summary: hit.value,
          modeRequested: request.mode,
          modeUsed: 'deep',
          fromCache: hit.from,
        };
      try {
        const summary = await computeDeep(request, key, options).catch((error: unknown) => {
          // A shared computation started by a caller who then left was aborted; this caller is still here.
          if (
            pdfFailure(error)?.code === 'CLIENT_CLOSED_REQUEST' &&
            !options.cancellation?.signal().aborted
          )
            return computeDeep(request, key, options);
          throw error;
        });
        return { summary, modeRequested: request.mode, modeUsed: 'deep', fromCache: false };
      } catch (error) {
        const failure = pdfFailure(error);
        if (
          request.mode === 'deep' ||
          !failure ||
          failure.code === 'CLIENT_CLOSED_REQUEST' ||
          !(request.title || request.abstract)
        )
          throw error;
        const quick = await run({ ...request, mode: 'quick' });
        return { ...quick, modeRequested: 'auto' };
      }
    } catch (error) {
      throw pdfFailure(error) ?? error;
    }
  }

  async function runContent(request: SummaryRequest): Promise<SummaryOutcome> {
    const text = (request.content ?? '').slice(0, MAX_TEXT_CHARS);
    if (!text.trim()) throw summaryInputError('content must not be empty');
    const mode: SummaryMode = text.split(/\s+/).length > FULL_TEXT_WORDS ? 'deep' : 'quick';
    const key = summaryCacheKey({ mode, title: request.title, text });
    const hit = await deps.cache.get<Summary>(key);
    if (hit)
      return { summary: hit.value, modeRequested: mode, modeUsed: mode, fromCache: hit.from };
    const summary = summarize({ title: request.title, text, mode });
    await deps.cache.set(key, summary);
    return { summary, modeRequested: mode, modeUsed: mode, fromCache: false };
  }

  return { run };
}

export type Summarizer = ReturnType<typeof createSummarizer>;
