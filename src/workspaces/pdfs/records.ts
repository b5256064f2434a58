/** Fills the record of a resource made from a PDF with what was found in the PDF (extraction.ts). */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { resourcePdfs, workspaceResources } from '../../platform/db/schema.js';
import { recordChange } from '../events/record.js';
import type { PdfRow } from './store.js';
import { authorsOf, type BibRecord, type RecordType } from '../../records/index.js';

export interface FoundRecord {
  title?: string;
  /** Merged into the resource's record (the found fields win); `authors` follows its creators. */
  record?: BibRecord;
  url?: string | null;
  type?: RecordType | null;
  /** Merged into the resource's `data` (the found fields win). */
  data: Record<string, unknown>;
  /** The work's identity (a DOI, an arXiv id): set unless the workspace already holds that work. */
  workKey?: string | null;
}

/**
 * Writes the found fields, only while the resource's PDF is still the file they were read from and
 * the resource was made from it. A work the workspace already holds keeps the PDF's own key (the
 * unique work key would refuse it): the record is filled all the same.
 */
export async function fillResourceRecord(db: Db, pdf: PdfRow, found: FoundRecord): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ workspaceId: workspaceResources.workspaceId })
      .from(workspaceResources)
      .innerJoin(resourcePdfs, eq(resourcePdfs.resourceId, workspaceResources.id))
      .where(
        and(
          eq(workspaceResources.id, pdf.resourceId),
          eq(resourcePdfs.blobKey, pdf.blobKey),
          eq(resourcePdfs.fillMetadata, true),
        ),
      )
      .for('update');
    if (!current) return;
    let workKey = found.workKey ?? undefined;
    if (workKey) {
      const [taken] = await tx
        .select({ id: workspaceResources.id })
        .from(workspaceResources)
        .where(
          and(
            eq(workspaceResources.workspaceId, current.workspaceId),
            eq(workspaceResources.workKey, workKey),
            ne(workspaceResources.id, pdf.resourceId),
          ),
        );
      if (taken) workKey = undefined;
    }
    await tx
      .update(workspaceResources)
      .set({
        ...(found.title ? { title: found.title } : {}),
        ...(found.record
          ? {
              record: sql`coalesce(${workspaceResources.record}, '{}'::jsonb) || ${JSON.stringify(found.record)}::jsonb`,
              ...(found.record.creators?.length ? { authors: authorsOf(found.record) } : {}),
            }
          : {}),
        ...(found.url ? { url: found.url } : {}),
        ...(found.type ? { type: found.type } : {}),
        ...(workKey ? { workKey } : {}),
        data: sql`${workspaceResources.data} || ${JSON.stringify(found.data)}::jsonb`,
        version: sql`${workspaceResources.version} + 1`,
      })
      .where(eq(workspaceResources.id, pdf.resourceId));
    await recordChange(tx, {
      type: 'resource.updated',
      workspaceId: current.workspaceId,
      actorId: null,
      resourceId: pdf.resourceId,
      details: { title: found.title, fields: ['record'] },
    });
  });
}
