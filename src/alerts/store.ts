/** The alerts' tables: alerts, their runs, the works each has reported, and unsubscribe tombstones. */
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../platform/db/client.js';
import {
  alertRuns,
  alerts,
  alertUnsubscribes,
  type AlertFrequency,
} from '../platform/db/schema.js';

export type AlertRow = typeof alerts.$inferSelect;
export type RunRow = typeof alertRuns.$inferSelect;
type Executor = Db | Tx;

/** The interval between two scheduled runs. */
const PERIOD_MS: Record<AlertFrequency, number> = { daily: 86_400_000, weekly: 7 * 86_400_000 };

/** When a new, changed or resumed alert runs next: one period from now. */
export const nextRunAfter = (frequency: AlertFrequency, from: Date) =>
  new Date(from.getTime() + PERIOD_MS[frequency]);

export async function findAlertOf(
  db: Executor,
  userId: string,
  id: string,
): Promise<AlertRow | null> {
  const [row] = await db
    .select()
    .from(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)));
  return row ?? null;
}

export async function findAlert(db: Executor, id: string): Promise<AlertRow | null> {
  const [row] = await db.select().from(alerts).where(eq(alerts.id, id));
  return row ?? null;
}

export async function listAlertsOf(db: Executor, userId: string): Promise<AlertRow[]> {
  return db
    .select()
    .from(alerts)
    .where(eq(alerts.userId, userId))
    .orderBy(desc(alerts.createdAt), desc(alerts.id));
}

/** Each alert's newest run, by alert id. */
export async function lastRunsOf(db: Executor, alertIds: string[]): Promise<Map<string, RunRow>> {
  if (alertIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([alertRuns.alertId])
    .from(alertRuns)
    .where(inArray(alertRuns.alertId, alertIds))
    .orderBy(alertRuns.alertId, desc(alertRuns.createdAt), desc(alertRuns.id));
  return new Map(rows.map((row) => [row.alertId, row]));
}

/** Locks the user's row for the rest of the transaction: alerts are counted and created one at a time per user. */
export async function lockUser(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`select id from users where id = ${userId} for update`);
}

export async function countAlertsOf(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(alerts)
    .where(eq(alerts.userId, userId));
  return row?.count ?? 0;
}

export async function insertAlert(
  db: Executor,
  values: typeof alerts.$inferInsert,
): Promise<AlertRow> {
  const [row] = await db.insert(alerts).values(values).returning();
  return row!;
}

export async function updateAlertRow(
  db: Executor,
  id: string,
  values: Partial<typeof alerts.$inferInsert>,
): Promise<AlertRow | null> {
  const [row] = await db
    .update(alerts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(alerts.id, id))
    .returning();
  return row ?? null;
}

export async function deleteAlertRow(db: Executor, id: string): Promise<boolean> {
  const deleted = await db.delete(alerts).where(eq(alerts.id, id)).returning({ id: alerts.id });
  return deleted.length > 0;
}

export async function findRun(db: Executor, id: string): Promise<RunRow | null> {
  const [row] = await db.select().from(alertRuns).where(eq(alertRuns.id, id));
  return row ?? null;
}

export async function insertRun(
  db: Executor,
  values: typeof alertRuns.$inferInsert,
): Promise<RunRow | null> {
  const [row] = await db.insert(alertRuns).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/** Where a page of runs starts: after the run with this time and id (newest first). */
interface RunCursor {
  createdAt: Date;
  id: string;
}

export const encodeRunCursor = (run: RunRow) =>
  Buffer.from(`${run.createdAt.toISOString()}|${run.id}`).toString('base64url');

export function decodeRunCursor(cursor: string): RunCursor | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = at ? new Date(at) : null;
  if (!createdAt || Number.isNaN(createdAt.getTime()) || !id || !/^[0-9a-f-]{36}$/i.test(id))
    return null;
  return { createdAt, id };
}

/** How many runs the alert has kept. */
export async function countRuns(db: Executor, alertId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(alertRuns)
    .where(eq(alertRuns.alertId, alertId));
  return row?.total ?? 0;
}

/** A page of an alert's runs, newest first, and one more to tell whether there is a next page. */
export async function listRuns(
  db: Executor,
  alertId: string,
  after: RunCursor | null,
  limit: number,
): Promise<RunRow[]> {
  const older = after
    ? or(
        lt(alertRuns.createdAt, after.createdAt),
        and(eq(alertRuns.createdAt, after.createdAt), lt(alertRuns.id, after.id)),
      )
    : undefined;
  return db
    .select()
    .from(alertRuns)
    .where(and(eq(alertRuns.alertId, alertId), older))
    .orderBy(desc(alertRuns.createdAt), desc(alertRuns.id))
    .limit(limit + 1);
}

export async function findAlertByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<AlertRow | null> {
  const [row] = await db.select().from(alerts).where(eq(alerts.unsubscribeTokenHash, tokenHash));
  return row ?? null;
}

export async function findTombstone(db: Executor, tokenHash: string) {
  const [row] = await db
    .select()
    .from(alertUnsubscribes)
    .where(eq(alertUnsubscribes.tokenHash, tokenHash));
  return row ?? null;
}

export async function insertTombstone(
  db: Executor,
  values: typeof alertUnsubscribes.$inferInsert,
): Promise<void> {
  await db.insert(alertUnsubscribes).values(values).onConflictDoNothing();
}

/** How long a finished run stays listed, and how long a used unsubscribe link keeps answering (then a 404). */
export const HISTORY_KEPT_DAYS = 365;

/** Forgets finished runs and unsubscribe tombstones older than HISTORY_KEPT_DAYS; returns how many of each. */
export async function pruneAlertHistory(
  db: Executor,
  now: Date = new Date(),
): Promise<{ runs: number; tombstones: number }> {
  const before = new Date(now.getTime() - HISTORY_KEPT_DAYS * 86_400_000);
  const runs = await db
    .delete(alertRuns)
    .where(
      and(
        lt(alertRuns.createdAt, before),
        inArray(alertRuns.status, ['done', 'partial', 'failed']),
      ),
    )
    .returning({ id: alertRuns.id });
  const tombstones = await db
    .delete(alertUnsubscribes)
    .where(lt(alertUnsubscribes.unsubscribedAt, before))
    .returning({ tokenHash: alertUnsubscribes.tokenHash });
  return { runs: runs.length, tombstones: tombstones.length };
}
