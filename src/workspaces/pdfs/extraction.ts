/**
 * Stored PDFs turned into text per page, off the request path, as jobs of the `pdfs.extract` queue
 * (platform/jobs.ts, pg-boss): an upload's job is written in the transaction that records its row
 * (`pending`), so a file is never recorded without its extraction, and any working process takes it.
 * Two extractions run per process, at most one of them a given uploader's (the queue's `perGroup`):
 * one user's many PDFs, or one that takes its whole time limit, cannot hold everyone else's. Each
 * has a time limit that grows with the file (bounded), and its engine runs with
 * CPU and memory limits (pdftotext under `ulimit`, pdf.js in a worker with a bounded heap). The text
 * comes from the summaries' engines (pdftotext, else pdf.js) and is stored, or the row is marked
 * `failed` with a reason a user can act on. A transient failure (the database or the store down, the
 * process stopping) is retried with the queue's backoff; a file whose reader dies every time goes to
 * the dead-letter queue after its attempts, and is marked failed.
 *
 * A resource made from a PDF also gets its record here (metadata.ts): the identifier lookup is an
 * outbound call of up to 15 s and the text is needed first, so the upload does not wait for either.
 */
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { ResourceResolver } from '../../context.js';
import type { BlobStore } from '../../platform/blob-store.js';
import type { Db, Tx } from '../../platform/db/client.js';
import type { JobQueue } from '../../platform/jobs.js';
import { stripHtml } from '../../platform/sanitize.js';
import { extractPdfText, PdfTextError, readPdfInfo } from '../../summaries/index.js';
import { recordOf } from '../commands.js';
import { creatorsFromNames } from '../resources/resource-record.js';
import { LIMITS } from '../schemas.js';
import { workKeyOf } from '../resources/work-key.js';
import {
  findIdentifier,
  firstPageTitle,
  IDENTIFIER_PAGES,
  isPlausibleTitle,
  splitAuthors,
} from './metadata.js';
import { PDF_QUEUES } from './queues.js';
import { findPdf, markFailed, storePages, type PdfRow } from './store.js';
import { fillResourceRecord } from './records.js';

/** Text kept per page and per PDF: a dense two-column page holds about 8,000 characters. */
const MAX_PAGE_CHARS = 20_000;
const MAX_PDF_CHARS = 1_500_000;
/**
 * One extraction's time limit grows with the file: a base for any file, and more per MB, up to a bound
 * (a long book through pdf.js takes tens of seconds on a slow machine; a 100 KB file needs a few).
 */
const EXTRACT_BASE_MS = 10_000;
const EXTRACT_MS_PER_MB = 3_000;
const EXTRACT_MAX_MS = 120_000;
const LOOKUP_TIMEOUT_MS = 15_000;

/** The time limit of extracting a file of `byteSize` bytes. */
export function extractionTimeLimitMs(byteSize: number): number {
  return Math.min(
    EXTRACT_MAX_MS,
    EXTRACT_BASE_MS + Math.ceil((byteSize / (1024 * 1024)) * EXTRACT_MS_PER_MB),
  );
}

/** What a user is told for each failure of the engines. */
const FAILURE_REASONS: Record<PdfTextError['code'], string> = {
  no_text:
    'The PDF has no text layer (it is probably a scan): run it through OCR and upload it again',
  encrypted: 'The PDF is encrypted (password-protected): upload a copy without a password',
  invalid:
    'The PDF is damaged or incomplete and could not be read: upload it again or another copy',
  not_pdf: 'The file is not a PDF',
  timeout:
    'Reading the PDF took more time or memory than a file of its size may (it may be damaged, or built to expand when read): try a repaired copy',
  aborted: 'Extraction was stopped before it finished',
};

export interface PdfExtractionOptions {
  db: Db;
  blobs: BlobStore;
  queue: JobQueue;
  log: FastifyBaseLogger;
  resolveResource: ResourceResolver;
}

export interface PdfExtraction {
  /** Starts this process's extraction workers (call before the queue starts). */
  register(): void;
  /** Enqueues a recorded file's extraction in `tx` (await `ready()` before opening it). */
  enqueue(tx: Tx, row: PdfRow): Promise<void>;
  /** Resolves once the queue can take a job inside a transaction. */
  ready(): Promise<void>;
  /** Stops this process's extraction: the work in flight is aborted and its jobs retried later, by any process. */
  stop(): Promise<void>;
  /** Resolves when this resource's PDF is no longer pending (ready or failed), whoever extracted it. */
  settled(resourceId: string): Promise<PdfRow | null>;
}

/** How often `settled` looks at the row while waiting for another process's work. */
const SETTLED_POLL_MS = 1_000;

/** Splits the engines' text ("\f" between or after pages) into bounded pages. */
export function splitPages(text: string, pageCount: number): string[] {
  const pages = text.split('\f');
  // pdftotext ends every page with "\f": the empty piece after the last one is not a page.
  if (pages.length > pageCount && pages.at(-1)?.trim() === '') pages.pop();
  return pages.map((page) =>
    (page.length > MAX_PAGE_CHARS ? page.slice(0, MAX_PAGE_CHARS) : page).replaceAll('\u0000', ''),
  );
}

export function createPdfExtraction(options: PdfExtractionOptions): PdfExtraction {
  const { db, blobs, log, queue } = options;
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const inFlight = new Map<string, AbortController>();
  let stopped = false;

  async function recordFromPdf(
    row: PdfRow,
    pdf: Buffer,
    pages: string[],
    signal: AbortSignal,
  ): Promise<void> {
    const opening = pages.slice(0, IDENTIFIER_PAGES).join('\n');
    const identifier = findIdentifier(opening);
    if (identifier) {
      try {
        const found = await options.resolveResource(
          identifier.id,
          AbortSignal.any([signal, AbortSignal.timeout(LOOKUP_TIMEOUT_MS)]),
        );
        if (found) {
          const record = recordOf(found, identifier.id);
          const workKey = workKeyOf({
            doi: found.doi,
            arxivId: found.arxivId,
            pmid: found.pmid,
            url: record.url,
            resourceId: found.id || identifier.id,
          });
          await fillResourceRecord(db, row, {
            ...record,
            workKey,
            data: { ...record.data, metadataFrom: 'lookup', identifier: identifier.id },
          });
          return;
        }
      } catch (error) {
        // The lookup is a convenience: its outage must not fail the PDF; the record falls back below.
        log.warn({ err: error, identifier: identifier.id }, 'PDF identifier lookup failed');
      }
    }
    const info = await readPdfInfo(pdf, { signal }).catch(() => ({
      title: undefined,
      author: undefined,
    }));
    const title = isPlausibleTitle(info.title) ? info.title : firstPageTitle(pages[0] ?? '');
    if (!title && !info.author) return;
    const creators = creatorsFromNames(
      splitAuthors(info.author)
        .map((name) => stripHtml(name).slice(0, LIMITS.author))
        .filter(Boolean)
        .slice(0, LIMITS.authors),
    );
    await fillResourceRecord(db, row, {
      ...(title ? { title: stripHtml(title).replace(/\s+/g, ' ').slice(0, LIMITS.title) } : {}),
      ...(creators.length ? { record: { creators } } : {}),
      data: {
        metadataFrom: isPlausibleTitle(info.title) ? 'pdf-info' : 'first-page',
        ...(identifier ? { identifier: identifier.id } : {}),
      },
    });
  }

  /** One job: extracts the file the job names, unless the row has moved on (replaced, removed, done). */
  async function extractOne(row: PdfRow, signal: AbortSignal): Promise<void> {
    const pdf = await blobs.get(row.blobKey);
    if (!pdf) {
      await markFailed(
        db,
        row.resourceId,
        row.blobKey,
        'The stored file is missing: upload the PDF again',
      );
      return;
    }
    let pages: string[];
    let pageCount: number;
    try {
      const extracted = await extractPdfText(pdf, {
        maxChars: MAX_PDF_CHARS,
        timeoutMs: extractionTimeLimitMs(pdf.length),
        signal,
      });
      pages = splitPages(extracted.text, extracted.pages);
      pageCount = Math.max(extracted.pages, pages.length);
    } catch (error) {
      // Aborted (the process stopping, or the job taken back): thrown, so that the job is retried.
      if (!(error instanceof PdfTextError) || error.code === 'aborted') throw error;
      await markFailed(db, row.resourceId, row.blobKey, FAILURE_REASONS[error.code]);
      return;
    }
    if (row.fillMetadata) await recordFromPdf(row, pdf, pages, signal);
    await storePages(db, row.resourceId, row.blobKey, pages, pageCount);
  }

  async function runJob(resourceId: string, blobKey: string, jobSignal: AbortSignal) {
    if (stopped) throw new Error('PDF extraction is stopping');
    const row = await findPdf(db, resourceId);
    if (!row || row.blobKey !== blobKey || row.extraction !== 'pending') return;
    const controller = new AbortController();
    inFlight.set(`${resourceId}:${blobKey}`, controller);
    try {
      await extractOne(row, AbortSignal.any([controller.signal, jobSignal]));
    } catch (error) {
      if (!controller.signal.aborted)
        log.error({ err: error, resourceId }, 'PDF extraction failed; it will be tried again');
      throw error;
    } finally {
      inFlight.delete(`${resourceId}:${blobKey}`);
      events.emit('settled', resourceId);
    }
  }

  return {
    register() {
      queue.work(
        PDF_QUEUES.extract,
        async (job) =>
          runJob(String(job.payload.resourceId), String(job.payload.blobKey), job.signal),
        {
          // Its attempts used up (its reader died, or its process stopped, every time): failed for good.
          onFailed: async (job) => {
            const resourceId = String(job.payload.resourceId);
            await markFailed(
              db,
              resourceId,
              String(job.payload.blobKey),
              `Reading the PDF stopped the reader ${job.maxAttempts} times: upload it again or another copy`,
            );
            events.emit('settled', resourceId);
          },
        },
      );
    },
    ready: () => queue.ready(),
    enqueue: (tx, row) =>
      queue.send(
        PDF_QUEUES.extract,
        { resourceId: row.resourceId, blobKey: row.blobKey },
        // The uploader's group: at most one of their files is read at a time (queues.ts).
        row.uploadedBy ? { group: row.uploadedBy } : {},
        tx,
      ),
    async stop() {
      stopped = true;
      for (const controller of inFlight.values()) controller.abort();
      await queue.stopWorking(PDF_QUEUES.extract);
    },
    async settled(resourceId) {
      return new Promise<PdfRow | null>((resolve, reject) => {
        const check = () => {
          findPdf(db, resourceId).then((row) => {
            if (row?.extraction === 'pending') return;
            events.off('settled', onSettled);
            clearInterval(timer);
            resolve(row);
          }, reject);
        };
        const onSettled = (id: string) => {
          if (id === resourceId) check();
        };
        // Listening first, then looking: a result stored in between is not missed. Another process's
        // result sends no event here: looked for every second too.
        events.on('settled', onSettled);
        const timer = setInterval(check, SETTLED_POLL_MS);
        check();
      });
    },
  };
}
