/**
 * The SQL of citation keys: which keys a workspace holds, and a resource inserted with the first free
 * key. The unique index on (workspace, lower(key)) is what keeps two resources from sharing one; what
 * is read first only picks the key most likely free, and an insert that still meets the index tries
 * the next one.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.js';
import { workspaceResources } from '../../platform/db/schema.js';
import { firstFreeKey } from '../../records/index.js';

/** `%`, `_` and the escape character itself, taken literally by LIKE. */
function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The workspace's keys (lower-cased) that begin with `prefix` in any case: all of them without one. */
export async function keysTaken(tx: Tx, workspaceId: string, prefix = ''): Promise<Set<string>> {
  const rows = await tx
    .select({ key: sql<string>`lower(${workspaceResources.citationKey})` })
    .from(workspaceResources)
    .where(
      and(
        eq(workspaceResources.workspaceId, workspaceId),
        prefix
          ? sql`lower(${workspaceResources.citationKey}) like ${likePrefix(prefix.toLowerCase())}`
          : sql`${workspaceResources.citationKey} is not null`,
      ),
    );
  return new Set(rows.map((row) => row.key));
}

/** The resource of the workspace other than `exceptId` whose key is `key` in any case. */
export async function holderOfKey(
  tx: Tx,
  workspaceId: string,
  key: string,
  exceptId?: string,
): Promise<{ id: string; citationKey: string } | null> {
  const [row] = await tx
    .select({ id: workspaceResources.id, citationKey: workspaceResources.citationKey })
    .from(workspaceResources)
    .where(
      and(
        eq(workspaceResources.workspaceId, workspaceId),
        sql`lower(${workspaceResources.citationKey}) = lower(${key})`,
        exceptId ? sql`${workspaceResources.id} <> ${exceptId}` : undefined,
      ),
    );
  return row ? { id: row.id, citationKey: row.citationKey ?? key } : null;
}

/** How many times an insert tries another key after meeting the index (each try reads the keys again). */
const KEY_ATTEMPTS = 8;

/**
 * Inserts the row `insert` makes with a key: `wanted` itself when `exact` (a key a person gave: taken is
 * `key_taken`), else the first free one of `wanted`, `wanted`a, `wanted`b… `insert` must not fail on a
 * conflict (ON CONFLICT DO NOTHING) and answers null when it met one; `isDuplicate` then tells a work
 * already in the workspace (`duplicate`) from a key another insert took meanwhile (the next key is tried).
 */
export async function insertWithFreeKey<Row>(
  tx: Tx,
  workspaceId: string,
  wanted: string,
  exact: boolean,
  insert: (citationKey: string) => Promise<Row | null>,
  isDuplicate: () => Promise<boolean>,
): Promise<{ row: Row } | { refused: 'duplicate' } | { refused: 'key_taken'; holder: string }> {
  for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
    const taken = await keysTaken(tx, workspaceId, wanted);
    if (exact && taken.has(wanted.toLowerCase())) {
      const holder = await holderOfKey(tx, workspaceId, wanted);
      if (holder) return { refused: 'key_taken', holder: holder.id };
    }
    const row = await insert(exact ? wanted : firstFreeKey(wanted, taken));
    if (row) return { row };
    if (await isDuplicate()) return { refused: 'duplicate' };
  }
  throw new Error(`No free citation key for ${wanted} after ${KEY_ATTEMPTS} attempts`);
}

/** Sets each resource's key in one statement. */
export async function setKeys(
  tx: Tx,
  changes: Array<{ id: string; citationKey: string }>,
): Promise<void> {
  if (changes.length === 0) return;
  await tx.execute(sql`
    update ${workspaceResources} set citation_key = changed.key
    from jsonb_to_recordset(${JSON.stringify(changes.map((c) => ({ id: c.id, key: c.citationKey })))}::jsonb)
      as changed(id uuid, key text)
    where ${workspaceResources.id} = changed.id`);
}

/**
 * Moves the resources to the target workspace with their keys changed as `renames` says, in one
 * statement: the target's index sees each row arrive with its final key.
 */
export async function moveRowsWithKeys(
  tx: Tx,
  ids: string[],
  targetId: string,
  renames: Array<{ resourceId: string; to: string }>,
): Promise<void> {
  if (ids.length === 0) return;
  const changes = ids.map((id) => ({
    id,
    key: renames.find((rename) => rename.resourceId === id)?.to ?? null,
  }));
  await tx.execute(sql`
    update ${workspaceResources}
       set workspace_id = ${targetId}, version = ${workspaceResources.version} + 1,
           citation_key = coalesce(changed.key, ${workspaceResources.citationKey})
      from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as changed(id uuid, key text)
     where ${workspaceResources.id} = changed.id`);
}
