/**
 * A workspace's change log (its activity, and what an event stream can replay) is pruned by a
 * periodic job of the `events.prune` queue (platform/jobs.ts), once per PRUNE_EVERY_SECONDS across
 * every process: changes older than ACTIVITY_RETENTION_DAYS go, and those beyond a workspace's
 * newest ACTIVITY_CAP_PER_WORKSPACE. A periodic job rather than work on every write keeps the writes
 * of a change one insert.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/client.js';
import type { JobQueue } from '../../platform/jobs.js';
import { EVENT_QUEUES } from './queues.js';
import { pruneEvents } from './store.js';

/** A workspace's log keeps at most this many changes (its newest). */
export const ACTIVITY_CAP_PER_WORKSPACE = 10_000;
const PRUNE_EVERY_SECONDS = 10 * 60;
const DAY_MS = 86_400_000;

/** Registers the periodic pruning on the job queue. */
export function registerEventPruning(options: {
  db: Db;
  queue: JobQueue;
  retentionDays: number;
  log: FastifyBaseLogger;
}): void {
  const { db, retentionDays, log } = options;
  options.queue.every(EVENT_QUEUES.prune, PRUNE_EVERY_SECONDS, async () => {
    const pruned = await pruneEvents(
      db,
      new Date(Date.now() - retentionDays * DAY_MS),
      ACTIVITY_CAP_PER_WORKSPACE,
    );
    if (pruned) log.info({ pruned }, 'Pruned the workspace change log');
  });
}
