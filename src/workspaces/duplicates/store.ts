/**
 * The SQL of the duplicates finder and of a merge: a workspace's resources as their traits (narrow
 * columns), and the moves a merge makes of annotations and a PDF from one resource to another.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { isAnyOf, type Db, type Tx } from '../../platform/db/client.js';
import {
  annotations,
  resourcePdfPages,
  resourcePdfs,
  workspaceEvents,
  workspaceResources,
} from '../../platform/db/schema.js';
import type { PdfRow } from '../pdfs/store.js';
import type { Candidate } from './groups.js';

const traitColumns = {
  id: workspaceResources.id,
  title: workspaceResources.title,
  year: workspaceResources.year,
  // The column keeps it lower-cased; folding does the rest.
  firstFamily: workspaceResources.authorSort,
  doi: sql<string | null>`${workspaceResources.record}->>'doi'`,
  arxivId: sql<string | null>`${workspaceResources.record}->>'arxivId'`,
  pmid: sql<string | null>`${workspaceResources.record}->>'pmid'`,
};

/** Every resource of the workspace as what duplicates are judged by, oldest first. */
export async function resourceTraits(db: Db | Tx, workspaceId: string): Promise<Candidate[]> {
  return db
    .select(traitColumns)
    .from(workspaceResources)
    .where(eq(workspaceResources.workspaceId, workspaceId))
    .orderBy(asc(workspaceResources.createdAt), asc(workspaceResources.id));
}

/** The PDF rows of these resources, locked (an upload to one of them waits for the merge). */
export async function lockPdfRows(tx: Tx, resourceIds: string[]): Promise<PdfRow[]> {
  return tx
    .select()
    .from(resourcePdfs)
    .where(isAnyOf(resourcePdfs.resourceId, resourceIds))
    .orderBy(asc(resourcePdfs.resourceId))
    .for('update');
}

export async function countAnnotationsOf(tx: Tx, resourceIds: string[]): Promise<number> {
  return tx.$count(annotations, isAnyOf(annotations.resourceId, resourceIds));
}

/** Moves the annotations of `from` to the resource `to` (each a new version: its resource changed). */
export async function moveAnnotations(tx: Tx, from: string[], to: string): Promise<number> {
  const moved = await tx
    .update(annotations)
    .set({ resourceId: to, version: sql`${annotations.version} + 1` })
    .where(isAnyOf(annotations.resourceId, from))
    .returning({ id: annotations.id });
  return moved.length;
}

/**
 * Makes `pdf` the PDF of the resource `to` (which has none): a row of its own with the same file, the
 * pages moved to it (the pages' trigger writes its search document), the old row deleted. It no
 * longer fills the record: the kept resource's record is the one merged. The new row.
 */
export async function movePdf(tx: Tx, pdf: PdfRow, to: string): Promise<PdfRow> {
  const { resourceId: from, ...file } = pdf;
  const [row] = await tx
    .insert(resourcePdfs)
    .values({ ...file, resourceId: to, fillMetadata: false, updatedAt: sql`now()` })
    .returning();
  if (!row) throw new Error('PDF insert returned no row');
  await tx
    .update(resourcePdfPages)
    .set({ resourceId: to })
    .where(eq(resourcePdfPages.resourceId, from));
  await tx.delete(resourcePdfs).where(eq(resourcePdfs.resourceId, from));
  return row;
}

/**
 * Of these ids, those the workspace's change log says were removed from it (a merge, a removal, a
 * move): a resource the client saw that is gone now, rather than one never in the workspace.
 */
export async function removedFromWorkspace(
  tx: Tx,
  workspaceId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const list = `{${ids.join(',')}}`;
  const rows = await tx
    .select({
      resourceId: workspaceEvents.resourceId,
      named: sql<string[] | null>`${workspaceEvents.details}->'resourceIds'`,
    })
    .from(workspaceEvents)
    .where(
      and(
        eq(workspaceEvents.workspaceId, workspaceId),
        eq(workspaceEvents.type, 'resource.removed'),
        sql`(${workspaceEvents.resourceId} = any(${list}::uuid[]) or ${workspaceEvents.details}->'resourceIds' ?| ${list}::text[])`,
      ),
    );
  const asked = new Set(ids);
  return new Set(
    rows
      .flatMap((row) => [row.resourceId, ...(Array.isArray(row.named) ? row.named : [])])
      .filter((id): id is string => typeof id === 'string' && asked.has(id)),
  );
}
