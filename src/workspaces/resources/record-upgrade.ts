/**
 * Rows saved before resources kept structured records get theirs at start-up: names split from
 * their plain strings (particles, suffixes and organisations as src/records/names.ts reads them),
 * the bibliographic fields of `data` lifted into the record, the type in today's words. Batches of
 * rows are locked with SKIP LOCKED, so processes starting together share the work; a row written
 * meanwhile (a record of its own) is never touched. `data` is left as it was.
 */
import { isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/client.js';
import { workspaceResources } from '../../platform/db/schema.js';
import { legacyRecordOf, recordColumns, storedTypeOf } from './resource-record.js';

const BATCH = 500;

/** Upgrades every row without a record; how many it upgraded. */
export async function upgradeRecords(db: Db, log?: FastifyBaseLogger): Promise<number> {
  let upgraded = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const rows = await tx
        .select({
          id: workspaceResources.id,
          url: workspaceResources.url,
          type: workspaceResources.type,
          authors: workspaceResources.authors,
          data: workspaceResources.data,
        })
        .from(workspaceResources)
        .where(isNull(workspaceResources.record))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (rows.length === 0) return 0;
      const changes = rows.map((row) => {
        const record = legacyRecordOf(row);
        const columns = recordColumns(record, storedTypeOf(row.type, record, row.url), row.url);
        // The plain names stay as they were written; `authors` follows `creators` from the next edit on.
        return { id: row.id, type: columns.type, record };
      });
      await tx.execute(sql`
        update ${workspaceResources} set record = changed.record, type = changed.type
        from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb)
          as changed(id uuid, type text, record jsonb)
        where ${workspaceResources.id} = changed.id and ${workspaceResources.record} is null`);
      return rows.length;
    });
    upgraded += done;
    if (done < BATCH) break;
  }
  if (upgraded > 0) log?.info({ upgraded }, 'Resources given structured records');
  return upgraded;
}
