/**
 * Durable background jobs on the service's own database, the same on PGlite and PostgreSQL (the
 * `jobs` table). Why not pg-boss or graphile-worker: both need a pool of server connections (and
 * graphile-worker LISTEN/NOTIFY on its own connection), which the embedded PGlite, one in-process
 * connection, does not offer; one small runner on the one schema gives both stores the same guarantees:
 * - a job row is written in the caller's transaction if it passes one (enqueued with what caused it);
 * - a singleton key is unique across every row kept (7 days after a job ends): a second `send` with
 *   the same key enqueues nothing, so N processes enqueue a periodic or keyed job once;
 * - a job is claimed with `FOR UPDATE SKIP LOCKED` under a lease that the running process renews; a
 *   process that dies leaves the lease to run out and another process (or the restarted one) takes
 *   the job again: at-least-once, so handlers are written to be repeatable;
 * - a failure is retried with exponential backoff up to the job's attempts, then the job is `failed`
 *   and the queue's `onFailed` is told;
 * - `every(queue, seconds)`: each process offers one job per slot of `seconds` under the singleton key
 *   `<queue>:<slot>`; whichever process claims it runs it (one leader per slot, no election).
 * It knows no capability: queues are names, payloads JSON.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from './db/client.js';
import { jobs } from './db/schema.js';

export interface ClaimedJob {
  id: string;
  queue: string;
  payload: Record<string, unknown>;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number;
}

export interface WorkOptions {
  /** Called once a job has used up its attempts (or its process died on the last one). */
  onFailed?: (job: ClaimedJob, error: unknown) => Promise<void>;
}

export interface SendOptions {
  singletonKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

export interface JobQueue {
  /** Enqueues a job (inside `db` when it is a transaction); null when one with the same singleton key exists. */
  send(queue: string, payload: Record<string, unknown>, options?: SendOptions, db?: Db | Tx): Promise<string | null>;
  work(queue: string, handler: (job: ClaimedJob) => Promise<void>, options?: WorkOptions): void;
  /** Runs `handler` once per slot of `seconds` across every process sharing the database. */
  every(queue: string, seconds: number, handler: (job: ClaimedJob) => Promise<void>): void;
  /** Looks for work now (after a commit that enqueued some). */
  wake(): void;
  /** Jobs waiting or running, by queue. */
  depth(): Promise<Record<string, number>>;
  start(): void;
  /** Stops claiming and waits for the jobs in hand. */
  stop(): Promise<void>;
}

export interface JobQueueOptions {
  db: Db;
  leaseSeconds: number;
  /** How often an idle worker looks for work another process enqueued. */
  pollMs: number;
  /** Jobs run at once by this process. */
  concurrency?: number;
  /** The first retry's delay; each next one doubles, up to 10 minutes. */
  backoffBaseSeconds?: number;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
}

const KEEP_FINISHED_SQL = '7 days';
const MAX_BACKOFF_SECONDS = 600;
const MAX_ERROR_LENGTH = 1000;

export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { db, leaseSeconds, log } = options;
  const me = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const handlers = new Map<string, { handler: (job: ClaimedJob) => Promise<void>; options: WorkOptions }>();
  const periodic: Array<{ queue: string; seconds: number }> = [];
  const timers: NodeJS.Timeout[] = [];
  let running = false;
  let loops: Promise<void>[] = [];
  const lease = sql`now() + ${`${leaseSeconds} seconds`}::interval`;

  /** Idle workers waiting for a wake-up or their poll timer. */
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const resolve of waiting) resolve();
    waiting.clear();
  };
  const idle = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, options.pollMs);
      waiting.add(done);
    });

  async function claim(): Promise<ClaimedJob | null> {
    const queues = [...handlers.keys()];
    if (queues.length === 0) return null;
    const result = await db.execute(sql`
      update ${jobs}
         set state = 'active', attempts = attempts + 1, locked_until = ${lease}, locked_by = ${me}
       where id = (
         select id from ${jobs}
          where queue in (${sql.join(queues.map((queue) => sql`${queue}`), sql`, `)})
            and ((state = 'ready' and run_at <= now()) or (state = 'active' and locked_until < now()))
          order by run_at, created_at
          limit 1
          for update skip locked)
       returning id, queue, payload, attempts, max_attempts`);
    const row = (result as { rows: Array<{ id: string; queue: string; payload: Record<string, unknown>; attempts: number; max_attempts: number }> }).rows[0];
    return row ? { id: row.id, queue: row.queue, payload: row.payload, attempt: row.attempts, maxAttempts: row.max_attempts } : null;
  }

  const mine = (id: string) => and(eq(jobs.id, id), eq(jobs.lockedBy, me));

  async function finish(job: ClaimedJob): Promise<void> {
    await db.update(jobs).set({ state: 'done', finishedAt: new Date(), lockedUntil: null }).where(mine(job.id));
  }

  async function fail(job: ClaimedJob, error: unknown): Promise<void> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);
    if (job.attempt < job.maxAttempts) {
      const delay = Math.min(MAX_BACKOFF_SECONDS, (options.backoffBaseSeconds ?? 2) * 2 ** (job.attempt - 1));
      await db
        .update(jobs)
        .set({ state: 'ready', runAt: sql`now() + ${`${delay} seconds`}::interval`, lockedUntil: null, lockedBy: null, lastError: message })
        .where(mine(job.id));
      log.warn({ job: job.id, queue: job.queue, attempt: job.attempt, retryInSeconds: delay, reason: message }, 'job failed; retrying');
      return;
    }
    await db.update(jobs).set({ state: 'failed', finishedAt: new Date(), lockedUntil: null, lastError: message }).where(mine(job.id));
    log.error({ job: job.id, queue: job.queue, attempts: job.attempt, reason: message }, 'job failed for good');
    await handlers.get(job.queue)?.options.onFailed?.(job, error);
  }

  async function runOne(job: ClaimedJob): Promise<void> {
    const entry = handlers.get(job.queue);
    if (!entry) return;
    // Taken again after its process died on the last attempt: given up without running it once more.
    if (job.attempt > job.maxAttempts) return fail({ ...job, attempt: job.maxAttempts }, new Error('its process stopped while running it'));
    const heartbeat = setInterval(() => {
      void db.update(jobs).set({ lockedUntil: lease }).where(mine(job.id)).catch(() => undefined);
    }, (leaseSeconds * 1000) / 3);
    try {
      await entry.handler(job);
      await finish(job);
    } catch (error) {
      await fail(job, error);
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function loop(): Promise<void> {
    while (running) {
      let job: ClaimedJob | null = null;
      try {
        job = await claim();
        if (job) await runOne(job);
      } catch (error) {
        log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'job queue: could not claim or settle a job');
      }
      if (!job && running) await idle();
    }
  }

  async function send(queue: string, payload: Record<string, unknown>, sendOptions: SendOptions = {}, executor: Db | Tx = db): Promise<string | null> {
    const [row] = await executor
      .insert(jobs)
      .values({
        queue,
        payload,
        singletonKey: sendOptions.singletonKey ?? null,
        maxAttempts: sendOptions.maxAttempts ?? 5,
        ...(sendOptions.runAt ? { runAt: sendOptions.runAt } : {}),
      })
      .onConflictDoNothing({ target: jobs.singletonKey })
      .returning({ id: jobs.id });
    if (row && executor === db) wake();
    return row?.id ?? null;
  }

  /** Offers this slot's job of each periodic queue, and forgets jobs finished a week ago. */
  async function offerPeriodic(queue: string, seconds: number): Promise<void> {
    const slot = Math.floor(Date.now() / (seconds * 1000));
    try {
      await send(queue, { slot }, { singletonKey: `${queue}:${slot}`, maxAttempts: 1 });
      await db.delete(jobs).where(and(sql`${jobs.state} in ('done', 'failed')`, lt(jobs.finishedAt, sql`now() - ${KEEP_FINISHED_SQL}::interval`)));
    } catch (error) {
      log.warn({ queue, reason: error instanceof Error ? error.message : String(error) }, 'job queue: could not offer a periodic job');
    }
  }

  return {
    send,
    work(queue, handler, workOptions = {}) {
      handlers.set(queue, { handler, options: workOptions });
    },
    every(queue, seconds, handler) {
      handlers.set(queue, { handler, options: {} });
      periodic.push({ queue, seconds });
    },
    wake,
    async depth() {
      const result = await db.execute(sql`select queue, count(*)::int as count from ${jobs} where state in ('ready', 'active') group by queue`);
      return Object.fromEntries((result as { rows: Array<{ queue: string; count: number }> }).rows.map((row) => [row.queue, row.count]));
    },
    start() {
      if (running) return;
      running = true;
      for (const { queue, seconds } of periodic) {
        void offerPeriodic(queue, seconds);
        const timer = setInterval(() => void offerPeriodic(queue, seconds), seconds * 1000);
        timer.unref();
        timers.push(timer);
      }
      loops = Array.from({ length: options.concurrency ?? 2 }, () => loop());
    },
    async stop() {
      running = false;
      for (const timer of timers.splice(0)) clearInterval(timer);
      wake();
      await Promise.all(loops);
      loops = [];
    },
  };
}
