/**
 * The worker that turns stored PDFs into text per page, off the request path: an upload answers once
 * the file is stored and its row is `pending`; this worker, in every process, claims pending rows one
 * or two at a time (a lease in the database, so processes sharing a PostgreSQL each take a row once,
 * and a row whose process died is taken again when its lease runs out), extracts the text with the
 * summaries' engines (pdftotext, else pdf.js in a worker thread) and stores it, or marks the row
 * `failed` with a reason a user can act on.
 *
 * A resource made from a PDF also gets its record here (metadata.ts): the identifier lookup is an
 * outbound call of up to 15 s and the text is needed first, so the upload does not wait for either.
 */
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { ResourceResolver } from '../../context.js';
import type { BlobStore } from '../../platform/blob-store.js';
import type { Db } from '../../platform/db/client.js';
import { stripHtml } from '../../platform/sanitize.js';
import { extractPdfText, PdfTextError, readPdfInfo } from '../../summaries/index.js';
import { recordOf } from '../commands.js';
import { LIMITS } from '../schemas.js';
import { workKeyOf } from '../work-key.js';
import {
  findIdentifier,
  firstPageTitle,
  IDENTIFIER_PAGES,
  isPlausibleTitle,
  splitAuthors,
} from './metadata.js';
import {
  claimPendingPdf,
  findPdf,
  markFailed,
  releaseAllClaims,
  releaseClaim,
  renewClaim,
  storePages,
  type PdfRow,
} from './store.js';
import { fillResourceRecord } from './records.js';

/** Text kept per page and per PDF: a dense two-column page holds about 8,000 characters. */
const MAX_PAGE_CHARS = 20_000;
const MAX_PDF_CHARS = 1_500_000;
/** One extraction's deadline: a long book through pdf.js takes tens of seconds on a slow machine. */
const EXTRACT_TIMEOUT_MS = 90_000;
const LOOKUP_TIMEOUT_MS = 15_000;
/** A claim lasts this long and is renewed at a third of it while the work goes on. */
const LEASE_MS = 60_000;
/** How often an idle worker looks for rows other processes stored, or whose lease ran out. */
const POLL_MS = 5_000;
/** After a transient failure (the database or the store down), the row waits this long. */
const RETRY_MS = 30_000;
/** Starts beyond this many (each one a crash or a lost lease) fail the file instead of trying again. */
const MAX_ATTEMPTS = 3;

/** What a user is told for each failure of the engines. */
const FAILURE_REASONS: Record<PdfTextError['code'], string> = {
  no_text:
    'The PDF has no text layer (it is probably a scan): run it through OCR and upload it again',
  encrypted: 'The PDF is encrypted (password-protected): upload a copy without a password',
  invalid:
    'The PDF is damaged or incomplete and could not be read: upload it again or another copy',
  not_pdf: 'The file is not a PDF',
  timeout:
    'Reading the PDF took too long (it may be very large or damaged): try a smaller or repaired copy',
  aborted: 'Extraction was stopped before it finished',
};

export interface PdfExtractionOptions {
  db: Db;
  blobs: BlobStore;
  log: FastifyBaseLogger;
  resolveResource: ResourceResolver;
  /** The embedded database is one process's alone: leases found at start-up are a dead process's. */
  embedded: boolean;
  /** PDFs extracted at once (default 1): each holds its file in memory and a CPU busy. */
  concurrency?: number;
}

export interface PdfExtraction {
  start(): Promise<void>;
  /** Looks for work now (after an upload in this process). */
  wake(): void;
  /** Stops claiming, aborts the work in flight (its rows are taken again later) and waits for it to end. */
  stop(): Promise<void>;
  /** Resolves when this resource's PDF is no longer pending (ready or failed), whoever extracted it. */
  settled(resourceId: string): Promise<PdfRow | null>;
}

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
  const { db, blobs, log } = options;
  const concurrency = Math.max(1, Math.min(2, options.concurrency ?? 1));
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let running = false;
  let looking = false;
  let again = false;
  let poll: NodeJS.Timeout | undefined;

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
    const authors = splitAuthors(info.author)
      .map((name) => stripHtml(name).slice(0, LIMITS.author))
      .filter(Boolean)
      .slice(0, LIMITS.authors);
    await fillResourceRecord(db, row, {
      ...(title ? { title: stripHtml(title).replace(/\s+/g, ' ').slice(0, LIMITS.title) } : {}),
      ...(authors.length ? { authors } : {}),
      data: {
        metadataFrom: isPlausibleTitle(info.title) ? 'pdf-info' : 'first-page',
        ...(identifier ? { identifier: identifier.id } : {}),
      },
    });
  }

  async function extractOne(row: PdfRow, signal: AbortSignal): Promise<void> {
    if (row.attempts > MAX_ATTEMPTS) {
      await markFailed(
        db,
        row.resourceId,
        row.blobKey,
        `Reading the PDF stopped the reader ${MAX_ATTEMPTS} times: upload it again or another copy`,
      );
      return;
    }
    const renew = setInterval(() => {
      renewClaim(db, row.resourceId, row.blobKey, LEASE_MS).catch((error: unknown) =>
        log.warn({ err: error }, 'PDF claim renewal failed'),
      );
    }, LEASE_MS / 3);
    try {
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
          timeoutMs: EXTRACT_TIMEOUT_MS,
          signal,
        });
        pages = splitPages(extracted.text, extracted.pages);
        pageCount = Math.max(extracted.pages, pages.length);
      } catch (error) {
        if (!(error instanceof PdfTextError) || error.code === 'aborted') throw error;
        await markFailed(db, row.resourceId, row.blobKey, FAILURE_REASONS[error.code]);
        return;
      }
      if (row.fillMetadata) await recordFromPdf(row, pdf, pages, signal);
      await storePages(db, row.resourceId, row.blobKey, pages, pageCount);
    } finally {
      clearInterval(renew);
    }
  }

  async function runClaimed(row: PdfRow): Promise<void> {
    const controller = new AbortController();
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    inFlight.set(row.resourceId, { controller, done });
    try {
      await extractOne(row, controller.signal);
    } catch (error) {
      if (!controller.signal.aborted)
        log.error(
          { err: error, resourceId: row.resourceId },
          'PDF extraction failed; it will be tried again',
        );
      await releaseClaim(
        db,
        row.resourceId,
        row.blobKey,
        controller.signal.aborted ? 0 : RETRY_MS,
      ).catch(() => undefined);
    } finally {
      inFlight.delete(row.resourceId);
      finish();
      events.emit('settled', row.resourceId);
      if (running) lookForWork();
    }
  }

  /** Claims rows while there is room; one look at a time, another right after when woken meanwhile. */
  function lookForWork(): void {
    if (!running) return;
    if (looking) {
      again = true;
      return;
    }
    looking = true;
    void (async () => {
      try {
        do {
          again = false;
          while (running && inFlight.size < concurrency) {
            const row = await claimPendingPdf(db, LEASE_MS);
            if (!row) break;
            void runClaimed(row);
          }
        } while (again && running);
      } catch (error) {
        log.warn({ err: error }, 'Could not look for pending PDFs');
      } finally {
        looking = false;
      }
    })();
  }

  return {
    async start() {
      if (running) return;
      if (options.embedded) await releaseAllClaims(db);
      running = true;
      poll = setInterval(lookForWork, POLL_MS);
      poll.unref();
      lookForWork();
    },
    wake: lookForWork,
    async stop() {
      running = false;
      if (poll) clearInterval(poll);
      const work = [...inFlight.values()];
      for (const { controller } of work) controller.abort();
      await Promise.all(work.map(({ done }) => done));
    },
    async settled(resourceId) {
      return new Promise<PdfRow | null>((resolve, reject) => {
        const check = () => {
          findPdf(db, resourceId).then((row) => {
            if (row?.extraction === 'pending') return;
            events.off('settled', onSettled);
            resolve(row);
          }, reject);
        };
        const onSettled = (id: string) => {
          if (id === resourceId) check();
        };
        // Listening first, then looking: a result stored in between is not missed.
        events.on('settled', onSettled);
        check();
      });
    },
  };
}
