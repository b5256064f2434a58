/**
 * Queries of a workspace's resources (the workspace's own are in ../store.ts).
 * Rows out; shaping is the presenters' job.
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  lte,
  sql,
  type SQL,
} from 'drizzle-orm';

import { isAnyOf, preparedStatement, type Db, type Tx } from '../../platform/db/client.js';
import { workspaceResources, workspaces } from '../../platform/db/schema.js';
import { notFound } from '../../platform/errors.js';
import type { ExpectedVersions } from '../../platform/versions.js';
import type { BibRecord } from '../../records/index.js';
import { roleIn, versionIs, type Page } from '../store.js';
import { recordChange } from '../events/record.js';
import { insertWithFreeKey } from '../citation-keys/store.js';
import { wantedKeyOf } from '../citation-keys/keys.js';

import { NOT_FOUND_LABEL, type Actor, type ResourceSubject } from '../policy.js';

/**
 * A resource's columns without `search`: the text-search document is for library
 * search's SQL to read, never for a row to carry (it is as large as the text it indexes).
 */
const { search: _resourceSearch, ...resourceColumns } = getTableColumns(workspaceResources);
/** `record` typed as src/records has it (the schema, a platform module, knows it as JSON). */
export type ResourceRow = Omit<typeof workspaceResources.$inferSelect, 'search' | 'record'> & {
  record: BibRecord | null;
};
export type NewResourceRow = Omit<typeof workspaceResources.$inferInsert, 'record'> & {
  record: BibRecord;
};

/*
 * The statements behind every workspace page's resources, prepared once per database handle.
 */

const resourcesStatement = preparedStatement((db) =>
  db
    .select(resourceColumns)
    .from(workspaceResources)
    .where(eq(workspaceResources.workspaceId, sql.placeholder('workspaceId')))
    .orderBy(desc(workspaceResources.createdAt), desc(workspaceResources.id))
    .prepare('rw_workspace_resources'),
);

const countResourcesStatement = preparedStatement((db) =>
  db
    .select({ total: count() })
    .from(workspaceResources)
    .where(eq(workspaceResources.workspaceId, sql.placeholder('workspaceId')))
    .prepare('rw_workspace_resource_count'),
);

// ---- resources ----

export async function countResources(db: Db | Tx, workspaceId: string): Promise<number> {
  const [counted] = await countResourcesStatement(db).execute({ workspaceId });
  return counted?.total ?? 0;
}

/** Newest first; all of them when no page is given (detail view, share page, export). */
export async function listResources(
  db: Db,
  workspaceId: string,
  page?: Page,
): Promise<ResourceRow[]> {
  if (!page) return resourcesStatement(db).execute({ workspaceId });
  return db
    .select(resourceColumns)
    .from(workspaceResources)
    .where(eq(workspaceResources.workspaceId, workspaceId))
    .orderBy(desc(workspaceResources.createdAt), desc(workspaceResources.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** How the library view orders a workspace's resources (the keys are the table's sort columns, each indexed). */
export type ResourceSort = 'title' | 'author' | 'year' | 'venue' | 'added';

export interface ResourceFilter {
  /** Part of the title or of an author's name, in any case and with or without accents. */
  q?: string;
  tag?: string;
  type?: string;
  yearFrom?: number;
  yearTo?: number;
}

export interface ResourceQuery extends Page, ResourceFilter {
  sort: ResourceSort;
  order: 'asc' | 'desc';
}

const SORT_KEYS: Record<ResourceSort, SQL> = {
  title: sql`lower(${workspaceResources.title})`,
  author: sql`${workspaceResources.authorSort}`,
  year: sql`${workspaceResources.year}`,
  venue: sql`lower(${workspaceResources.venue})`,
  added: sql`${workspaceResources.createdAt}`,
};

const NULLABLE_SORTS: ReadonlySet<ResourceSort> = new Set(['author', 'year', 'venue']);

/** `%`, `_` and the escape character itself, taken literally by LIKE. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The text without its accents ("Ćwiklinski" → "Cwiklinski"), by the unaccent extension (migration
 * 0025), its dictionary named so that no search_path decides it.
 */
const unaccented = (text: SQL) => sql`unaccent('unaccent'::regdictionary, ${text})`;

function resourceConditions(workspaceId: string, filter: ResourceFilter): SQL | undefined {
  const pattern = filter.q ? unaccented(sql`${likePattern(filter.q)}`) : null;
  return and(
    eq(workspaceResources.workspaceId, workspaceId),
    // Within one workspace (at most its resource limit of rows, read through the workspace index): a scan, no text index needed.
    pattern
      ? sql`(${unaccented(sql`${workspaceResources.title}`)} ilike ${pattern} or ${unaccented(sql`${workspaceResources.authors}::text`)} ilike ${pattern})`
      : undefined,
    filter.tag
      ? sql`${workspaceResources.tags} @> ${JSON.stringify([filter.tag])}::jsonb`
      : undefined,
    filter.type ? eq(workspaceResources.type, filter.type) : undefined,
    filter.yearFrom !== undefined ? gte(workspaceResources.year, filter.yearFrom) : undefined,
    filter.yearTo !== undefined ? lte(workspaceResources.year, filter.yearTo) : undefined,
  );
}

/**
 * One page of a workspace's resources, filtered and sorted, and how many match. Those without the sort
 * key (no year, venue or author) come last either way; ties go by id, so pages never overlap.
 */
export async function queryResources(
  db: Db,
  workspaceId: string,
  query: ResourceQuery,
): Promise<{ rows: ResourceRow[]; total: number }> {
  const where = resourceConditions(workspaceId, query);
  const direction = query.order === 'asc' ? sql`asc` : sql`desc`;
  const rows = await db
    .select(resourceColumns)
    .from(workspaceResources)
    .where(where)
    // `nulls last` only where a key may be missing: on title and added it would keep the index from giving the order.
    .orderBy(
      sql`${SORT_KEYS[query.sort]} ${direction}${NULLABLE_SORTS.has(query.sort) ? sql` nulls last` : sql``}`,
      sql`${workspaceResources.id} ${direction}`,
    )
    .limit(query.limit)
    .offset(query.offset);
  const [counted] = await db.select({ total: count() }).from(workspaceResources).where(where);
  return { rows, total: counted?.total ?? 0 };
}

/** The resources among `ids` that are in the workspace, locked for the rest of the transaction (ids are validated UUIDs). */
export async function lockResourcesOf(
  tx: Tx,
  workspaceId: string,
  ids: string[],
): Promise<ResourceRow[]> {
  return tx
    .select(resourceColumns)
    .from(workspaceResources)
    .where(
      and(eq(workspaceResources.workspaceId, workspaceId), isAnyOf(workspaceResources.id, ids)),
    )
    .orderBy(asc(workspaceResources.id))
    .for('update');
}

/** Sets each resource's tags in one statement (a JSON array of `{ id, tags }`). */
export async function setTags(
  tx: Tx,
  changes: Array<{ id: string; tags: string[] }>,
): Promise<void> {
  if (changes.length === 0) return;
  await tx.execute(sql`
    update ${workspaceResources} set tags = changed.tags, version = ${workspaceResources.version} + 1
    from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as changed(id uuid, tags jsonb)
    where ${workspaceResources.id} = changed.id`);
}

/** Of these work keys, those the workspace already holds. */
export async function workKeysIn(
  tx: Tx,
  workspaceId: string,
  keys: string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await tx
    .select({ workKey: workspaceResources.workKey })
    .from(workspaceResources)
    .where(
      and(
        eq(workspaceResources.workspaceId, workspaceId),
        inArray(workspaceResources.workKey, keys),
      ),
    );
  return new Set(rows.flatMap((row) => (row.workKey === null ? [] : [row.workKey])));
}

export async function moveResourceRows(tx: Tx, ids: string[], targetId: string): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(workspaceResources)
    .set({ workspaceId: targetId, version: sql`${workspaceResources.version} + 1` })
    .where(isAnyOf(workspaceResources.id, ids));
}

export async function deleteResourceRows(
  tx: Tx,
  workspaceId: string,
  ids: string[],
): Promise<string[]> {
  const deleted = await tx
    .delete(workspaceResources)
    .where(
      and(eq(workspaceResources.workspaceId, workspaceId), isAnyOf(workspaceResources.id, ids)),
    )
    .returning({ id: workspaceResources.id });
  return deleted.map((row) => row.id);
}

/** A resource added, or why not: no such workspace, no room in it, the same work already there, or the key it was given taken. */
export type AddedResource =
  | { row: ResourceRow }
  | { refused: 'no_workspace' | 'full' | 'duplicate' }
  | { refused: 'key_taken'; holder: string };

/**
 * Inserts the row if its workspace holds fewer than `capacity` resources and not the same work (same
 * work key), and marks the workspace changed; all or nothing. The workspace's row is locked first, so
 * concurrent adds to one workspace take turns, and each count (a statement of its own, with a fresh
 * snapshot under READ COMMITTED) sees the rows the others added.
 */
export async function insertResourceIfRoom(
  db: Db,
  values: NewResourceRow,
  capacity: number,
): Promise<AddedResource> {
  return db.transaction(async (tx): Promise<AddedResource> => {
    const [locked] = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.id, values.workspaceId))
      .for('update');
    if (!locked) return { refused: 'no_workspace' };
    if ((await countResources(tx, values.workspaceId)) >= capacity) return { refused: 'full' };
    // A key given with it is kept (a 409 when taken); else Better BibTeX's, suffixed when taken (citation-keys/).
    const { wanted, record } = wantedKeyOf(values);
    const inserted = await insertWithFreeKey(
      tx,
      values.workspaceId,
      wanted.key,
      wanted.given,
      async (citationKey) => {
        const [row] = await tx
          .insert(workspaceResources)
          .values({ ...values, record, citationKey })
          .onConflictDoNothing()
          .returning(resourceColumns);
        return row ?? null;
      },
      async () =>
        values.workKey != null &&
        (await workKeysIn(tx, values.workspaceId, [values.workKey])).size > 0,
    );
    if (!('row' in inserted)) return inserted;
    const { row } = inserted;
    // The database's clock, as for created_at: changed when the resource was added.
    await tx
      .update(workspaces)
      .set({ updatedAt: sql`now()` })
      .where(eq(workspaces.id, values.workspaceId));
    await recordChange(tx, {
      type: 'resource.added',
      workspaceId: row.workspaceId,
      actorId: row.addedBy,
      resourceId: row.id,
      details: { title: row.title },
    });
    return { row };
  });
}

/** A resource as it is now, or null. */
export async function findResource(db: Db | Tx, id: string): Promise<ResourceRow | null> {
  const [row] = await db
    .select(resourceColumns)
    .from(workspaceResources)
    .where(eq(workspaceResources.id, id));
  return row ?? null;
}

/** A resource with the owner of its workspace (for the ownership check). */
async function findResourceWithOwner(
  db: Db | Tx,
  id: string,
): Promise<{ resource: ResourceRow; ownerId: string } | null> {
  const [row] = await db
    .select({ resource: resourceColumns, ownerId: workspaces.ownerId })
    .from(workspaceResources)
    .innerJoin(workspaces, eq(workspaces.id, workspaceResources.workspaceId))
    .where(eq(workspaceResources.id, id));
  return row ?? null;
}

export async function loadResource(
  db: Db | Tx,
  id: string,
  actor: Actor,
): Promise<ResourceSubject> {
  const found = await findResourceWithOwner(db, id);
  if (!found) throw notFound(NOT_FOUND_LABEL.resource);
  return {
    kind: 'resource',
    ...found,
    role: await roleIn(db, found.resource.workspaceId, found.ownerId, actor),
  };
}

/** The columns a change of a resource may set. */
export type ResourceChanges = Partial<
  Pick<
    NewResourceRow,
    | 'notes'
    | 'tags'
    | 'title'
    | 'url'
    | 'type'
    | 'authors'
    | 'data'
    | 'record'
    | 'workKey'
    | 'citationKey'
  >
>;

/** A resource as it is now, locked for the rest of the transaction; null when it is gone. */
export async function lockResourceRow(tx: Tx, id: string): Promise<ResourceRow | null> {
  const [row] = await tx
    .select(resourceColumns)
    .from(workspaceResources)
    .where(eq(workspaceResources.id, id))
    .for('update');
  return row ?? null;
}

/** Of the workspace's resources other than `id`, the one that is the work `workKey` names, if any. */
export async function holderOfWorkKey(
  tx: Tx,
  workspaceId: string,
  workKey: string,
  id: string,
): Promise<string | null> {
  const [row] = await tx
    .select({ id: workspaceResources.id })
    .from(workspaceResources)
    .where(
      and(
        eq(workspaceResources.workspaceId, workspaceId),
        eq(workspaceResources.workKey, workKey),
        sql`${workspaceResources.id} <> ${id}`,
      ),
    );
  return row?.id ?? null;
}

/** Sets the changed columns (a new version); `writer` is who, recorded when the notes change. */
export async function updateResourceRow(
  tx: Tx,
  id: string,
  changes: ResourceChanges,
  writer: string | null,
): Promise<ResourceRow | null> {
  const notesWritten =
    changes.notes === undefined ? {} : { notesUpdatedBy: writer, notesUpdatedAt: new Date() };
  const [row] = await tx
    .update(workspaceResources)
    .set({ ...changes, ...notesWritten, version: sql`${workspaceResources.version} + 1` })
    .where(eq(workspaceResources.id, id))
    .returning(resourceColumns);
  return row ?? null;
}

/** Deletes a resource at a version `expected` names (any without If-Match); whether a row was deleted. */
export async function deleteResourceRow(
  tx: Tx,
  id: string,
  expected: ExpectedVersions = null,
): Promise<boolean> {
  const deleted = await tx
    .delete(workspaceResources)
    .where(and(eq(workspaceResources.id, id), versionIs(workspaceResources.version, expected)))
    .returning({ id: workspaceResources.id });
  return deleted.length > 0;
}

export async function lockResource(tx: Tx, id: string): Promise<boolean> {
  const rows = await tx
    .select({ id: workspaceResources.id })
    .from(workspaceResources)
    .where(eq(workspaceResources.id, id))
    .for('update');
  return rows.length > 0;
}

/** The named resources of the workspace (those still in it), in no particular order. */
export async function resourcesOf(
  db: Db | Tx,
  workspaceId: string,
  ids: string[],
): Promise<ResourceRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(resourceColumns)
    .from(workspaceResources)
    .where(
      and(eq(workspaceResources.workspaceId, workspaceId), isAnyOf(workspaceResources.id, ids)),
    );
}
