/** Reading and pruning the change log (record.ts writes it). */
import { and, desc, eq, gt, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { users, workspaceEvents } from '../../platform/db/schema.js';
import { rowsOf, type ChangeType } from './record.js';

export interface EventRow {
  id: number;
  workspaceId: string;
  type: ChangeType;
  actorId: string | null;
  actorName: string | null;
  resourceId: string | null;
  annotationId: string | null;
  userId: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
}

const eventColumns = {
  id: workspaceEvents.id,
  workspaceId: workspaceEvents.workspaceId,
  type: sql<ChangeType>`${workspaceEvents.type}`,
  actorId: workspaceEvents.actorId,
  actorName: users.name,
  resourceId: workspaceEvents.resourceId,
  annotationId: workspaceEvents.annotationId,
  userId: workspaceEvents.userId,
  details: workspaceEvents.details,
  createdAt: workspaceEvents.createdAt,
};

/** The workspace's events with an id above `afterId`, oldest first, at most `limit`. */
export async function eventsAfter(
  db: Db,
  workspaceId: string,
  afterId: number,
  limit: number,
): Promise<EventRow[]> {
  return db
    .select(eventColumns)
    .from(workspaceEvents)
    .leftJoin(users, eq(users.id, workspaceEvents.actorId))
    .where(and(eq(workspaceEvents.workspaceId, workspaceId), gt(workspaceEvents.id, afterId)))
    .orderBy(workspaceEvents.id)
    .limit(limit);
}

/** The newest id of the workspace's log, 0 when it is empty. */
export async function latestEventId(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ id: workspaceEvents.id })
    .from(workspaceEvents)
    .where(eq(workspaceEvents.workspaceId, workspaceId))
    .orderBy(desc(workspaceEvents.id))
    .limit(1);
  return row?.id ?? 0;
}

/**
 * Whether the log still holds the workspace's event `id`. The log is pruned oldest first, so when it
 * does, it holds every later event too; when it does not, what came after may be gone.
 */
export async function holdsEvent(db: Db, workspaceId: string, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: workspaceEvents.id })
    .from(workspaceEvents)
    .where(and(eq(workspaceEvents.workspaceId, workspaceId), eq(workspaceEvents.id, id)));
  return row !== undefined;
}

/** One page of the workspace's activity, newest first, below the id `before` when given; one row more than `limit` says there is a next page. */
export async function activityPage(
  db: Db,
  workspaceId: string,
  before: number | null,
  limit: number,
): Promise<EventRow[]> {
  return db
    .select(eventColumns)
    .from(workspaceEvents)
    .leftJoin(users, eq(users.id, workspaceEvents.actorId))
    .where(
      and(
        eq(workspaceEvents.workspaceId, workspaceId),
        before === null ? undefined : lt(workspaceEvents.id, before),
      ),
    )
    .orderBy(desc(workspaceEvents.id))
    .limit(limit + 1);
}

/** How many changes the workspace's log holds (at most its cap, so counting is cheap). */
export async function countEvents(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(workspaceEvents)
    .where(eq(workspaceEvents.workspaceId, workspaceId));
  return row?.total ?? 0;
}

/** Rows deleted per statement when pruning: a long backlog is worked off without one huge delete. */
const PRUNE_BATCH = 5000;

/**
 * Deletes events older than `olderThan`, and in each workspace those beyond its newest `cap`; how
 * many went. Several processes may run it at once: each delete is idempotent.
 */
export async function pruneEvents(db: Db, olderThan: Date, cap: number): Promise<number> {
  let pruned = 0;
  for (;;) {
    const expired = rowsOf<{ id: string }>(
      await db.execute(
        sql`delete from workspace_events where id in (
            select id from workspace_events
            where created_at < ${olderThan.toISOString()}::timestamptz limit ${PRUNE_BATCH}
                     ) returning id`,
      ),
    );
    pruned += expired.length;
    if (expired.length < PRUNE_BATCH) break;
  }
  const crowded = rowsOf<{ workspace_id: string }>(
    await db.execute(
      sql`select workspace_id from workspace_events group by workspace_id having count(*) > ${cap}`,
    ),
  );
  for (const { workspace_id: workspaceId } of crowded) {
    const [edge] = await db
      .select({ id: workspaceEvents.id })
      .from(workspaceEvents)
      .where(eq(workspaceEvents.workspaceId, workspaceId))
      .orderBy(desc(workspaceEvents.id))
      .offset(cap)
      .limit(1);
    if (!edge) continue;
    const deleted = await db
      .delete(workspaceEvents)
      .where(and(eq(workspaceEvents.workspaceId, workspaceId), lte(workspaceEvents.id, edge.id)))
      .returning({ id: workspaceEvents.id });
    pruned += deleted.length;
  }
  return pruned;
}
