/**
 * The change log: every change to a workspace's contents is one row of `workspace_events`, written by
 * `recordChange` inside the change's own transaction, which also says `pg_notify('workspace_events',
 * '<workspaceId>:<eventId>')`. PostgreSQL delivers a notification only when its transaction commits,
 * so a change rolled back is neither logged nor announced, and every process's event streams
 * (stream-hub.ts) hear every committed one.
 *
 * The changes of one workspace are logged one at a time (a transaction-scoped advisory lock on the
 * workspace, taken just before the row gets its id and held until commit), so their ids grow in the
 * order they commit: a stream that has sent id N and reads "ids after N" can never skip a change
 * that committed late with a smaller id.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.js';

export const EVENTS_CHANNEL = 'workspace_events';
/** Arbitrary constant: the advisory-lock namespace of the change log (the workspace's hash is the other half). */
const LOG_LOCK_CLASS = 724_301_025;

export const CHANGE_TYPES = [
  'workspace.updated',
  'workspace.deleted',
  'resource.added',
  'resource.updated',
  'resource.removed',
  'annotation.added',
  'annotation.updated',
  'annotation.removed',
  'pdf.updated',
  'member.added',
  'member.updated',
  'member.removed',
  'share.updated',
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export interface Change {
  type: ChangeType;
  /** The workspace changed; null: the workspace of `resourceId` (a PDF's extraction knows only its resource). */
  workspaceId: string | null;
  /** Who changed it; null for the service's own work (a PDF's text extracted). */
  actorId: string | null;
  resourceId?: string;
  annotationId?: string;
  /** The member a member change is about. */
  userId?: string;
  /** A few words of what changed, as it was then (small: a title, a role, a count). */
  details?: Record<string, unknown>;
}

/** Logs `change` in the transaction `tx` and announces it on commit; the event's id. */
export async function recordChange(tx: Tx, change: Change): Promise<number> {
  const workspaceId = change.workspaceId
    ? sql`${change.workspaceId}::uuid`
    : sql`(select workspace_id from workspace_resources where id = ${change.resourceId ?? null}::uuid)`;
  const locked = await tx.execute(
    sql`select w.id as workspace_id, pg_advisory_xact_lock(${LOG_LOCK_CLASS}, hashtext(w.id::text))
        from (select ${workspaceId} as id) w
        where w.id is not null`,
  );
  const target = rowsOf<{ workspace_id: string | null }>(locked)[0]?.workspace_id;
  // A resource removed meanwhile: its removal is logged on its own.
  if (!target) return 0;
  const inserted = await tx.execute(sql`
    insert into workspace_events (workspace_id, actor_id, type, resource_id, annotation_id, user_id, details)
    values (${target}::uuid, ${change.actorId}::uuid, ${change.type}, ${change.resourceId ?? null}::uuid, ${change.annotationId ?? null}::uuid,
            ${change.userId ?? null}::uuid, ${JSON.stringify(change.details ?? {})}::jsonb)
    returning id, pg_notify(${EVENTS_CHANNEL}, workspace_id::text || ':' || id::text)`);
  return Number(rowsOf<{ id: string | number }>(inserted)[0]?.id ?? 0);
}

/** `db.execute` answers `{ rows }` on node-postgres and PGlite alike. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * An account about to be deleted (in `tx`, before its row goes): each workspace it owns is deleted
 * with it, and it leaves each it is a member of. Logged so that the other members' streams hear it
 * (and end, for a deleted workspace); an owned workspace's earlier log goes with it.
 */
export async function recordAccountDeletion(tx: Tx, userId: string): Promise<void> {
  const places = rowsOf<{ workspace_id: string; owned: boolean }>(
    await tx.execute(sql`
      select id as workspace_id, true as owned from workspaces where owner_id = ${userId}::uuid
      union all select workspace_id, false from workspace_members where user_id = ${userId}::uuid
      order by workspace_id`),
  );
  // The account and its name go with this transaction: the log keeps the name the members knew.
  const [leaving] = rowsOf<{ name: string }>(
    await tx.execute(sql`select name from users where id = ${userId}::uuid`),
  );
  for (const place of places) {
    if (place.owned) {
      await forgetEventsBefore(
        tx,
        place.workspace_id,
        await recordChange(tx, {
          type: 'workspace.deleted',
          workspaceId: place.workspace_id,
          actorId: userId,
          details: { accountDeleted: true },
        }),
      );
    } else {
      await recordChange(tx, {
        type: 'member.removed',
        workspaceId: place.workspace_id,
        actorId: userId,
        userId,
        details: { left: true, accountDeleted: true, name: leaving?.name ?? '' },
      });
    }
  }
}

/** A deleted workspace's log, but for the event that says so (its streams still read it). */
export async function forgetEventsBefore(
  tx: Tx,
  workspaceId: string,
  keptId: number,
): Promise<void> {
  await tx.execute(
    sql`delete from workspace_events where workspace_id = ${workspaceId}::uuid and id < ${keptId}`,
  );
}
