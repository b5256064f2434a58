/** The SQL of an import: what a workspace already holds, and one batch written under the workspace's lock. */
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client.js';
import { workspaceResources, workspaces } from '../../platform/db/schema.js';
import { recordChange } from '../events/record.js';
import type { WorkTraits } from '../duplicates/likeness.js';
import type { NewResourceRow } from '../resources/store.js';

/** A resource already in the workspace, as duplicates are judged: its work key and its traits (duplicates/likeness.ts). */
export interface KnownResource extends WorkTraits {
  id: string;
  workKey: string | null;
  /** Its citation key (null only before the start-up upgrade gave it one). */
  citationKey: string | null;
}

/** Every resource of the workspace, with only what duplicates are judged by. */
export async function knownResources(db: Db | Tx, workspaceId: string): Promise<KnownResource[]> {
  return db
    .select({
      id: workspaceResources.id,
      title: workspaceResources.title,
      workKey: workspaceResources.workKey,
      citationKey: workspaceResources.citationKey,
      year: workspaceResources.year,
      firstFamily: workspaceResources.authorSort,
      doi: sql<string | null>`${workspaceResources.record}->>'doi'`,
      arxivId: sql<string | null>`${workspaceResources.record}->>'arxivId'`,
      pmid: sql<string | null>`${workspaceResources.record}->>'pmid'`,
    })
    .from(workspaceResources)
    .where(eq(workspaceResources.workspaceId, workspaceId));
}

/**
 * One batch, all or nothing: the workspace's row is locked first, as adding a resource locks it
 * (store.insertResourceIfRoom), so imports and adds to one workspace take turns and each sees what the
 * others wrote; `plan` then decides, from what the workspace holds now, which rows go in. Null when the
 * workspace is gone.
 */
export async function writeImportBatch<T>(
  db: Db,
  workspaceId: string,
  plan: (known: KnownResource[]) => { rows: NewResourceRow[]; result: T },
): Promise<T | null> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId))
      .for('update');
    if (!locked) return null;
    const { rows, result } = plan(await knownResources(tx, workspaceId));
    if (rows.length === 0) return result;
    await tx.insert(workspaceResources).values(rows);
    // The database's clock, as for created_at: changed when the resources were added.
    await tx
      .update(workspaces)
      .set({ updatedAt: sql`now()` })
      .where(eq(workspaces.id, workspaceId));
    // One change per batch (up to 500 resources): a client reloads the list rather than take 500 events.
    await recordChange(tx, {
      type: 'resource.added',
      workspaceId,
      actorId: rows[0]!.addedBy ?? null,
      details: { count: rows.length, via: 'import' },
    });
    return result;
  });
}
