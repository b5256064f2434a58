/**
 * Queries of workspaces (a workspace's resources: resources/store.ts; annotations/store.ts and share-links/store.ts hold theirs).
 * Rows out; shaping is the presenters' job.
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { isAnyOf, preparedStatement, type Db, type Tx } from '../platform/db/client.js';
import {
  resourcePdfs,
  shareLinks,
  workspaceMembers,
  workspaceResources,
  workspaces,
} from '../platform/db/schema.js';
import { notFound } from '../platform/errors.js';
import type { ExpectedVersions } from '../platform/versions.js';

import { liveShareLink } from './share-links/store.js';
import { NOT_FOUND_LABEL, type Actor, type Role, type WorkspaceSubject } from './policy.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;
/** The condition a change made with `If-Match` puts on the row's version (none without it); an empty list matches nothing. */
export function versionIs(column: AnyPgColumn, expected: ExpectedVersions): SQL | undefined {
  return expected === null ? undefined : sql`${column} = any(${`{${expected.join(',')}}`}::int[])`;
}

/** The row changed, or, when `If-Match` no longer matched, the row as it is now (null when it is gone: a 404). */
export type Versioned<T, Current = T> = { row: T } | { stale: Current };

export interface WorkspaceWithCounts extends WorkspaceRow {
  resourceCount: number;
  shareCount: number;
}

export interface Page {
  limit: number;
  offset: number;
}

function withCounts(db: Db | Tx, now: Date | Placeholder) {
  return {
    ...getTableColumns(workspaces),
    resourceCount: db.$count(workspaceResources, eq(workspaceResources.workspaceId, workspaces.id)),
    shareCount: db.$count(
      shareLinks,
      and(eq(shareLinks.workspaceId, workspaces.id), liveShareLink(now)),
    ),
  };
}

/*
 * The statements behind every workspace page and every added resource, prepared once per database
 * handle with placeholders for their values (preparedStatement: Drizzle would otherwise rebuild each
 * one's SQL on every call).
 */

/** Owned by the user, or shared with them (a member row). */
const ownOrShared = () =>
  sql`(${workspaces.ownerId} = ${sql.placeholder('userId')} or exists (
      select 1 from workspace_members m
      where m.workspace_id = ${workspaces.id} and m.user_id = ${sql.placeholder('userId')}
         ))`;

const listStatement = preparedStatement((db) =>
  db
    .select({
      ...withCounts(db, sql.placeholder('now')),
      role: sql<Role>`case when ${workspaces.ownerId} = ${sql.placeholder('userId')} then 'owner' else (
          select m.role from workspace_members m
          where m.workspace_id = ${workspaces.id} and m.user_id = ${sql.placeholder('userId')}
                 ) end`,
    })
    .from(workspaces)
    .where(ownOrShared())
    .orderBy(desc(workspaces.createdAt), desc(workspaces.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('rw_workspaces_list'),
);

const totalStatement = preparedStatement((db) =>
  db
    .select({ total: count() })
    .from(workspaces)
    .where(ownOrShared())
    .prepare('rw_workspaces_total'),
);

const findStatement = preparedStatement((db) =>
  db
    .select(withCounts(db, sql.placeholder('now')))
    .from(workspaces)
    .where(eq(workspaces.id, sql.placeholder('id')))
    .prepare('rw_workspace_find'),
);

const touchWorkspaceStatement = preparedStatement((db) =>
  db
    .update(workspaces)
    // Wrapped: `set` takes no bare placeholder (so the value is sent as given, an ISO string).
    .set({ updatedAt: sql`${sql.placeholder('now')}` })
    .where(eq(workspaces.id, sql.placeholder('id')))
    .prepare('rw_workspace_touch'),
);

/** The user's own and shared workspaces, each with the user's role in it. */
export async function listWorkspaces(
  db: Db,
  userId: string,
  page: Page,
): Promise<{ rows: (WorkspaceWithCounts & { role: Role })[]; total: number }> {
  const rows = await listStatement(db).execute({
    now: new Date().toISOString(),
    userId,
    limit: page.limit,
    offset: page.offset,
  });
  const [counted] = await totalStatement(db).execute({ userId });
  return { rows, total: counted?.total ?? 0 };
}

export async function findWorkspace(db: Db | Tx, id: string): Promise<WorkspaceWithCounts | null> {
  const [row] = await findStatement(db).execute({ now: new Date().toISOString(), id });
  return row ?? null;
}

const memberRoleStatement = preparedStatement((db) =>
  db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.workspaceId, sql.placeholder('workspaceId')),
        eq(workspaceMembers.userId, sql.placeholder('userId')),
      ),
    )
    .prepare('rw_workspace_member_role'),
);

/** The role of `actor` in a workspace owned by `ownerId`; null when they are not a member. */
export async function roleIn(
  db: Db | Tx,
  workspaceId: string,
  ownerId: string,
  actor: Actor,
): Promise<Role | null> {
  if (ownerId === actor.id) return 'owner';
  const [row] = await memberRoleStatement(db).execute({ workspaceId, userId: actor.id });
  return row?.role ?? null;
}

/** The load step before `authorize`: the workspace as a policy subject with the asker's role, or the 404 a refusal gives too. */
export async function loadWorkspace(
  db: Db | Tx,
  id: string,
  actor: Actor,
): Promise<WorkspaceSubject> {
  const workspace = await findWorkspace(db, id);
  if (!workspace) throw notFound(NOT_FOUND_LABEL.workspace);
  return {
    kind: 'workspace',
    workspace,
    ownerId: workspace.ownerId,
    role: await roleIn(db, workspace.id, workspace.ownerId, actor),
  };
}

export async function insertWorkspace(
  db: Db,
  values: { ownerId: string; name: string; description: string; isPublic: boolean },
): Promise<WorkspaceWithCounts> {
  const [row] = await db.insert(workspaces).values(values).returning();
  if (!row) throw new Error('Workspace insert returned no row');
  return { ...row, resourceCount: 0, shareCount: 0 };
}

/** Changes a workspace's settings if its version is one `expected` names (any without If-Match); null when it is gone. */
export async function updateWorkspaceRow(
  db: Db | Tx,
  id: string,
  changes: { name?: string; description?: string; isPublic?: boolean },
  expected: ExpectedVersions = null,
): Promise<Versioned<WorkspaceWithCounts> | null> {
  const [row] = await db
    .update(workspaces)
    .set({ ...changes, version: sql`${workspaces.version} + 1`, updatedAt: new Date() })
    .where(and(eq(workspaces.id, id), versionIs(workspaces.version, expected)))
    .returning();
  // The counts read after; the workspace's own fields as this change left them.
  const current = await findWorkspace(db, id);
  if (row) return { row: { ...(current ?? { resourceCount: 0, shareCount: 0 }), ...row } };
  return current ? { stale: current } : null;
}

/**
 * Resources, annotations and share links go with it (foreign keys cascade in the same statement);
 * only at a version `expected` names, when it names any. Whether a row was deleted.
 */
export async function deleteWorkspaceRow(
  db: Db | Tx,
  id: string,
  expected: ExpectedVersions = null,
): Promise<boolean> {
  const deleted = await db
    .delete(workspaces)
    .where(and(eq(workspaces.id, id), versionIs(workspaces.version, expected)))
    .returning({ id: workspaces.id });
  return deleted.length > 0;
}

/**
 * The blob keys of the PDFs kept with a workspace's resources (all, or those named), locked: the rows
 * cascade when the resources are deleted, the files do not, so a deletion reads them first in its
 * transaction and forgets the files once it has committed. The lock makes an upload racing the
 * deletion wait for it (and then find its resource gone) instead of slipping a new key past it.
 */
export async function lockPdfKeys(
  tx: Tx,
  workspaceId: string,
  resourceIds?: string[],
): Promise<string[]> {
  const rows = await tx
    .select({ blobKey: resourcePdfs.blobKey })
    .from(resourcePdfs)
    .innerJoin(workspaceResources, eq(workspaceResources.id, resourcePdfs.resourceId))
    .where(
      and(
        eq(workspaceResources.workspaceId, workspaceId),
        resourceIds ? isAnyOf(workspaceResources.id, resourceIds) : undefined,
      ),
    )
    .for('update', { of: resourcePdfs });
  return rows.map((row) => row.blobKey);
}

export async function touchWorkspace(tx: Tx, id: string): Promise<void> {
  await touchWorkspaceStatement(tx).execute({ now: new Date().toISOString(), id });
}

/** Locks the workspaces' rows, in id order (two moves between the same two workspaces cannot deadlock); the ids found. */
export async function lockWorkspaces(tx: Tx, ids: string[]): Promise<string[]> {
  const rows = await tx
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(isAnyOf(workspaces.id, ids))
    .orderBy(asc(workspaces.id))
    .for('update');
  return rows.map((row) => row.id);
}
