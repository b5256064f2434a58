/**
 * PDF files no row refers to are deleted. Deletions remove a PDF's file after their transaction
 * commits, and an upload stores its file before its row: a process killed between the two leaves a
 * file behind that nothing would ever read or delete (as does a half-written `.tmp` file on disk).
 * Every process sweeps `pdfs/` a minute after it starts and then every SWEEP_EVERY_MS; files younger
 * than GRACE_MS are left alone, since an upload's row is written right after its file. Sweeps in two
 * processes at once are harmless: deleting twice is fine.
 */
import type { FastifyBaseLogger } from 'fastify';
import { inArray } from 'drizzle-orm';
import type { BlobStore, StoredObject } from '../../platform/blob-store.js';
import type { Db } from '../../platform/db/client.js';
import { resourcePdfs } from '../../platform/db/schema.js';

const PREFIX = 'pdfs/';
const GRACE_MS = 60 * 60_000;
const FIRST_SWEEP_MS = 60_000;
const SWEEP_EVERY_MS = 6 * 60 * 60_000;
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

export interface PdfSweeper {
  start(): void;
  stop(): void;
}

export function createPdfSweeper(options: {
  db: Db;
  blobs: BlobStore;
  log: FastifyBaseLogger;
}): PdfSweeper {
  let timer: NodeJS.Timeout | undefined;
  const sweep = (next: number) => {
    timer = setTimeout(() => {
      sweepOrphanPdfFiles(options)
        .then(
          (deleted) => {
            if (deleted) options.log.info({ deleted }, 'Deleted PDF files no resource refers to');
          },
          (error: unknown) =>
            options.log.warn({ err: error }, 'Could not sweep PDF files no resource refers to'),
        )
        .finally(() => {
          if (timer) sweep(SWEEP_EVERY_MS);
        });
    }, next);
    timer.unref();
  };
  return {
    start: () => sweep(FIRST_SWEEP_MS),
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
