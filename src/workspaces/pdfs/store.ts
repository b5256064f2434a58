/**
 * Queries of resources' PDFs and their extracted pages. A row is `pending` (its extraction job,
 * written with it, waiting or running), then `ready` with its pages or `failed` with a reason. Every
 * write of a result names the blob it was computed from, so a job that finishes after the PDF was
 * replaced or removed writes nothing.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import { isAnyOf, type Db, type Tx } from '../../platform/db/client.js';
import { resourcePdfPages, resourcePdfs, workspaceResources } from '../../platform/db/schema.js';
import { recordChange } from '../events/record.js';

export type PdfRow = typeof resourcePdfs.$inferSelect;

/** Pages are written this many to a statement: one round trip per batch, well under the parameter limit. */
const PAGE_BATCH = 100;

export async function findPdf(db: Db | Tx, resourceId: string): Promise<PdfRow | null> {
  const [row] = await db.select().from(resourcePdfs).where(eq(resourcePdfs.resourceId, resourceId));
  return row ?? null;
}

/** The PDFs of several resources at once, by resource id. */
export async function pdfsByResource(db: Db, resourceIds: string[]): Promise<Map<string, PdfRow>> {
  const found = new Map<string, PdfRow>();
  if (resourceIds.length === 0) return found;
  const rows = await db
    .select()
    .from(resourcePdfs)
    .where(isAnyOf(resourcePdfs.resourceId, resourceIds));
  for (const row of rows) found.set(row.resourceId, row);
  return found;
}

export interface StoredPdf {
  resourceId: string;
  blobKey: string;
  filename: string;
  byteSize: number;
  sha256: string;
  uploadedBy: string;
  fillMetadata?: boolean;
}

/** Enqueues the extraction of a newly recorded file, in the transaction that records it. */
export type EnqueueExtraction = (tx: Tx, row: PdfRow) => Promise<void>;

/**
 * Records a newly stored file as the resource's PDF, pending extraction, in place of any earlier one
 * (whose pages go); returns the earlier file's blob key for the caller to delete, and null when the
 * resource is gone (removed while the file was uploading).
 */
export async function replacePdf(
  db: Db,
  stored: StoredPdf,
  enqueueExtraction: EnqueueExtraction,
): Promise<{ row: PdfRow; previousKey: string | null } | null> {
  return db.transaction(async (tx) => {
    const [resource] = await tx
      .select({ id: workspaceResources.id })
      .from(workspaceResources)
      .where(eq(workspaceResources.id, stored.resourceId))
      .for('update');
    if (!resource) return null;
    const previous = await findPdf(tx, stored.resourceId);
    const values = {
      blobKey: stored.blobKey,
      filename: stored.filename,
      byteSize: stored.byteSize,
      sha256: stored.sha256,
      uploadedBy: stored.uploadedBy,
      extraction: 'pending',
      extractionError: null,
      pageCount: null,
      fillMetadata: stored.fillMetadata ?? false,
      updatedAt: sql`now()`,
    };
    await tx.delete(resourcePdfPages).where(eq(resourcePdfPages.resourceId, stored.resourceId));
    const [row] = await tx
      .insert(resourcePdfs)
      .values({ resourceId: stored.resourceId, ...values })
      .onConflictDoUpdate({ target: resourcePdfs.resourceId, set: values })
      .returning();
    if (!row) throw new Error('PDF upsert returned no row');
    await enqueueExtraction(tx, row);
    await recordChange(tx, {
      type: 'pdf.updated',
      workspaceId: null,
      actorId: stored.uploadedBy,
      resourceId: stored.resourceId,
      details: { state: 'attached', filename: stored.filename },
    });
    return {
      row,
      previousKey: previous && previous.blobKey !== stored.blobKey ? previous.blobKey : null,
    };
  });
}

/** Removes a resource's PDF and its pages; the removed file's blob key, or null when there was none. */
export async function deletePdfRow(
  db: Db,
  resourceId: string,
  actorId: string,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(resourcePdfs)
      .where(eq(resourcePdfs.resourceId, resourceId))
      .returning({ blobKey: resourcePdfs.blobKey });
    if (row)
      await recordChange(tx, {
        type: 'pdf.updated',
        workspaceId: null,
        actorId,
        resourceId,
        details: { state: 'removed' },
      });
    return row?.blobKey ?? null;
  });
}

/** PDFs pending since before `before` (their job lost, e.g. rows a version before pg-boss left), oldest first. */
export async function pendingSince(db: Db, before: Date, limit: number): Promise<PdfRow[]> {
  return db
    .select()
    .from(resourcePdfs)
    .where(and(eq(resourcePdfs.extraction, 'pending'), lt(resourcePdfs.updatedAt, before)))
    .orderBy(resourcePdfs.createdAt)
    .limit(limit);
}

/**
 * Stores the pages of the file `blobKey` and marks it ready, all or nothing; false (and nothing
 * written) when the resource's PDF is no longer that file.
 */
export async function storePages(
  db: Db,
  resourceId: string,
  blobKey: string,
  pages: string[],
  pageCount: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(resourcePdfs)
      .set({
        extraction: 'ready',
        extractionError: null,
        pageCount,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(resourcePdfs.resourceId, resourceId),
          eq(resourcePdfs.blobKey, blobKey),
          eq(resourcePdfs.extraction, 'pending'),
        ),
      )
      .returning({ id: resourcePdfs.resourceId });
    if (!row) return false;
    await tx.delete(resourcePdfPages).where(eq(resourcePdfPages.resourceId, resourceId));
    for (let first = 0; first < pages.length; first += PAGE_BATCH) {
      const batch = pages
        .slice(first, first + PAGE_BATCH)
        .map((text, index) => ({ resourceId, page: first + index + 1, text }));
      await tx.insert(resourcePdfPages).values(batch);
    }
    await recordChange(tx, {
      type: 'pdf.updated',
      workspaceId: null,
      actorId: null,
      resourceId,
      details: { state: 'ready', pageCount },
    });
    return true;
  });
}

/** Marks the file `blobKey` failed with a reason a user can act on. */
export async function markFailed(
  db: Db,
  resourceId: string,
  blobKey: string,
  reason: string,
  pageCount: number | null = null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(resourcePdfs)
      .set({
        extraction: 'failed',
        extractionError: reason,
        pageCount,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(resourcePdfs.resourceId, resourceId),
          eq(resourcePdfs.blobKey, blobKey),
          eq(resourcePdfs.extraction, 'pending'),
        ),
      )
      .returning({ id: resourcePdfs.resourceId });
    if (rows.length > 0)
      await recordChange(tx, {
        type: 'pdf.updated',
        workspaceId: null,
        actorId: null,
        resourceId,
        details: { state: 'failed' },
      });
    return rows.length > 0;
  });
}

/** The text of a ready PDF, pages in order, with the file's hash (for caching what is computed from it). */
export async function readyPdfText(
  db: Db,
  resourceId: string,
): Promise<{ sha256: string; pages: string[] } | null> {
  const pdf = await findPdf(db, resourceId);
  if (!pdf || pdf.extraction !== 'ready') return null;
  const rows = await db
    .select({ text: resourcePdfPages.text })
    .from(resourcePdfPages)
    .where(eq(resourcePdfPages.resourceId, resourceId))
    .orderBy(resourcePdfPages.page);
  return { sha256: pdf.sha256, pages: rows.map((row) => row.text) };
}
