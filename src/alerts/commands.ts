/** What the alert routes do: create, change, delete, run by hand, unsubscribe. */
import type { z } from 'zod';
import { hashToken, randomToken, seal } from '../platform/crypto.js';
import type { Db } from '../platform/db/client.js';
import { conflict } from '../platform/errors.js';
import type { JobQueue } from '../platform/jobs.js';
import { ALERT_QUEUES } from './queues.js';
import type { AlertCreateBody, AlertUpdateBody } from './schemas.js';
import {
  countAlertsOf,
  deleteAlertRow,
  findAlertByTokenHash,
  findTombstone,
  insertAlert,
  insertRun,
  insertTombstone,
  lockUser,
  nextRunAfter,
  updateAlertRow,
  type AlertRow,
  type RunRow,
} from './store.js';

/** The purpose the unsubscribe token is sealed under (crypto.ts). */
export const UNSUBSCRIBE_SEAL = 'alert-unsubscribe';

export interface AlertDeps {
  db: Db;
  /** The service secret the unsubscribe token is sealed with. */
  secret: string;
  perUser: number;
}

export async function createAlert(
  deps: AlertDeps,
  userId: string,
  body: z.infer<typeof AlertCreateBody>,
): Promise<AlertRow> {
  const token = randomToken(32);
  return deps.db.transaction(async (tx) => {
    await lockUser(tx, userId);
    if ((await countAlertsOf(tx, userId)) >= deps.perUser) {
      throw conflict(`You can keep at most ${deps.perUser} alerts; delete one first`, {
        field: 'alerts',
        reason: 'alerts_full',
      });
    }
    return insertAlert(tx, {
      userId,
      query: body.query,
      providers: body.providers ?? null,
      filters: body.filters ?? null,
      frequency: body.frequency,
      nextRunAt: nextRunAfter(body.frequency, new Date()),
      unsubscribeTokenHash: hashToken(token),
      unsubscribeTokenSealed: seal(token, deps.secret, UNSUBSCRIBE_SEAL),
    });
  });
}

/** A changed frequency or a resumed alert runs one period from now; a paused one has no next run. */
export async function updateAlert(
  db: Db,
  alert: AlertRow,
  body: z.infer<typeof AlertUpdateBody>,
): Promise<AlertRow> {
  const frequency = body.frequency ?? alert.frequency;
  const paused = body.paused ?? alert.paused;
  const rescheduled = frequency !== alert.frequency || paused !== alert.paused;
  const updated = await updateAlertRow(db, alert.id, {
    ...(body.query !== undefined ? { query: body.query } : {}),
    ...(body.providers !== undefined ? { providers: body.providers } : {}),
    ...(body.filters !== undefined ? { filters: body.filters } : {}),
    frequency,
    paused,
    ...(rescheduled ? { nextRunAt: paused ? null : nextRunAfter(frequency, new Date()) } : {}),
  });
  return updated ?? alert;
}

export const deleteAlert = (db: Db, alert: AlertRow) => deleteAlertRow(db, alert.id);

/** A run now, queued with its job in one transaction (the same queue as the schedule's). */
export async function requestRun(db: Db, queue: JobQueue, alert: AlertRow): Promise<RunRow> {
  await queue.ready();
  return db.transaction(async (tx) => {
    const created = (await insertRun(tx, { alertId: alert.id, reason: 'manual' }))!;
    await queue.send(ALERT_QUEUES.run, { runId: created.id }, {}, tx);
    return created;
  });
}

export interface UnsubscribeState {
  query: string;
  frequency: AlertRow['frequency'];
  unsubscribed: boolean;
}

/** What an unsubscribe link is about, changing nothing (mail scanners open links); null: no such token. */
export async function unsubscribeState(db: Db, token: string): Promise<UnsubscribeState | null> {
  const tokenHash = hashToken(token);
  const alert = await findAlertByTokenHash(db, tokenHash);
  if (alert) return { query: alert.query, frequency: alert.frequency, unsubscribed: false };
  const tombstone = await findTombstone(db, tokenHash);
  return tombstone
    ? { query: tombstone.query, frequency: tombstone.frequency, unsubscribed: true }
    : null;
}

/**
 * Deletes the alert, as Google Scholar does, leaving a tombstone (the token's hash, the words) so that the
 * link keeps answering `unsubscribed: true`; a second POST changes nothing. Null: no such token.
 */
export async function unsubscribe(db: Db, token: string): Promise<{ query: string } | null> {
  const tokenHash = hashToken(token);
  return db.transaction(async (tx) => {
    const alert = await findAlertByTokenHash(tx, tokenHash);
    if (!alert) {
      const tombstone = await findTombstone(tx, tokenHash);
      return tombstone ? { query: tombstone.query } : null;
    }
    await insertTombstone(tx, { tokenHash, query: alert.query, frequency: alert.frequency });
    await deleteAlertRow(tx, alert.id);
    return { query: alert.query };
  });
}
