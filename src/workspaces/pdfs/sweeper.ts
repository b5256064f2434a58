/**
 * PDF files no row refers to are deleted. Deletions remove a PDF's file after their transaction
 * commits, and an upload stores its file before its row: a process killed between the two leaves a
 * file behind that nothing would ever read or delete (as does a half-written `.tmp` file on disk).
 * The sweep is a periodic job of the `pdfs.sweep` queue (platform/jobs.ts): once per SWEEP_EVERY_SECONDS
 * across every process, the first a minute after a process starts; files younger than GRACE_MS are
 * left alone, since an upload's row is written right after its file. The same job gives a job to rows
 * pending for longer than that with none (those an earlier version left).
 */
import type { FastifyBaseLogger } from 'fastify';
import { inArray } from 'drizzle-orm';
import type { JobQueue } from '../../platform/jobs.js';
import type { PdfExtraction } from './extraction.js';
import { PDF_QUEUES } from './queues.js';
import { pendingSince } from './store.js';
import type { BlobStore, StoredObject } from '../../platform/blob-store.js';
import type { Db } from '../../platform/db/client.js';
import { resourcePdfs } from '../../platform/db/schema.js';

const PREFIX = 'pdfs/';
const GRACE_MS = 60 * 60_000;
const FIRST_SWEEP_SECONDS = 60;
const SWEEP_EVERY_SECONDS = 6 * 60 * 60;
/** Rows given a job again in one sweep at most. */
const REQUEUE_PER_SWEEP = 1000;
/** Keys looked up in one query. */
const BATCH = 500;

export interface SweepOptions {
  db: Db;
  blobs: BlobStore;
  /** Files written before this are old enough to judge (default: an hour ago). */
  writtenBefore?: Date;
}

/** Deletes the PDF files older than the grace period that no row refers to; returns how many. */
export async function sweepOrphanPdfFiles({
  db,
  blobs,
  writtenBefore = new Date(Date.now() - GRACE_MS),
}: SweepOptions): Promise<number> {
  let deleted = 0;
  const judge = async (batch: StoredObject[]) => {
    const keys = batch.map((object) => object.key);
    const kept = new Set(
      (
        await db
          .select({ key: resourcePdfs.blobKey })
          .from(resourcePdfs)
          .where(inArray(resourcePdfs.blobKey, keys))
      ).map((row) => row.key),
    );
    for (const key of keys) {
      if (kept.has(key)) continue;
      await blobs.delete(key);
      deleted++;
    }
  };
  let batch: StoredObject[] = [];
  for await (const object of blobs.list(PREFIX)) {
    if (object.modifiedAt >= writtenBefore) continue;
    batch.push(object);
    if (batch.length === BATCH) {
      await judge(batch);
      batch = [];
    }
  }
  if (batch.length) await judge(batch);
  return deleted;
}

/**
 * Gives an extraction job to the rows pending since before the grace period: a row is recorded with
 * its job, so these are rows an earlier version left (its own lease gone with it). A row whose job
 * is still waiting gets a second one, which finds the row done and does nothing.
 */
async function requeueStalePending(
  db: Db,
  extraction: Pick<PdfExtraction, 'enqueue'>,
  pendingBefore = new Date(Date.now() - GRACE_MS),
): Promise<number> {
  const rows = await pendingSince(db, pendingBefore, REQUEUE_PER_SWEEP);
  for (const row of rows) await db.transaction(async (tx) => extraction.enqueue(tx, row));
  return rows.length;
}

/** Registers the periodic sweep on the job queue. */
export function registerPdfSweep(options: {
  db: Db;
  blobs: BlobStore;
  queue: JobQueue;
  extraction: Pick<PdfExtraction, 'enqueue'>;
  log: FastifyBaseLogger;
}): void {
  const { log } = options;
  options.queue.every(
    PDF_QUEUES.sweep,
    SWEEP_EVERY_SECONDS,
    async () => {
      const deleted = await sweepOrphanPdfFiles(options);
      if (deleted) log.info({ deleted }, 'Deleted PDF files no resource refers to');
      const requeued = await requeueStalePending(options.db, options.extraction);
      if (requeued) log.info({ requeued }, 'Gave pending PDFs without a job one');
    },
    FIRST_SWEEP_SECONDS,
  );
}
