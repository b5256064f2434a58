/**
 * Resources saved before citation keys were kept get theirs at start-up, a workspace at a time and in
 * the order they were added (the older of two works with one key keeps it bare, the newer gets `a`):
 * the key an imported entry came with when it is usable and free, else Better BibTeX's. Each workspace
 * is locked as adding a resource locks it, so processes starting together take turns and a resource
 * added meanwhile is seen; a key already given is never changed.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/client.js';
import { workspaceResources, workspaces } from '../../platform/db/schema.js';
import { firstFreeKey } from '../../records/index.js';
import { recordOfRow } from '../resources/resource-record.js';
import { wantedKeyOf } from './keys.js';
import { keysTaken, setKeys } from './store.js';

/** Gives every resource without a key its key; how many it gave. */
export async function upgradeCitationKeys(db: Db, log?: FastifyBaseLogger): Promise<number> {
  let given = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const [next] = await tx
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(
          sql`exists (select 1 from ${workspaceResources} r
                where r.workspace_id = ${workspaces.id} and r.citation_key is null)`,
        )
        .orderBy(asc(workspaces.id))
        .limit(1)
        .for('update');
      if (!next) return null;
      // At most a workspace's limit of rows (src/workspaces/schemas.ts, LIMITS).
      const rows = await tx
        .select({
          id: workspaceResources.id,
          title: workspaceResources.title,
          url: workspaceResources.url,
          type: workspaceResources.type,
          authors: workspaceResources.authors,
          data: workspaceResources.data,
          record: workspaceResources.record,
        })
        .from(workspaceResources)
        .where(
          and(eq(workspaceResources.workspaceId, next.id), isNull(workspaceResources.citationKey)),
        )
        .orderBy(asc(workspaceResources.createdAt), asc(workspaceResources.id));
      const taken = await keysTaken(tx, next.id);
      const changes = rows.map((row) => {
        const record = recordOfRow({ ...row, record: row.record });
        const { wanted } = wantedKeyOf({ record, title: row.title });
        const citationKey = firstFreeKey(wanted.key, taken);
        taken.add(citationKey.toLowerCase());
        return { id: row.id, citationKey };
      });
      await setKeys(tx, changes);
      return changes.length;
    });
    if (done === null) break;
    given += done;
  }
  if (given > 0) log?.info({ given }, 'Resources given citation keys');
  return given;
}
