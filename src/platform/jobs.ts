/**
 * Durable background jobs on pg-boss (https://pgboss.io), in the service's own database: on a
 * PostgreSQL server through pg-boss's own small pool, on the embedded PGlite through pg-boss's PGlite
 * adapter (one library, one behaviour, on both stores). pg-boss keeps its tables in the `pgboss` schema
 * and migrates them itself when it starts. What it guarantees, and what this service relies on:
 * - a job is written in the caller's transaction when it passes one (enqueued with what caused it, or
 *   not at all), through pg-boss's Drizzle adapter;
 * - a job is fetched by one worker (`FOR UPDATE SKIP LOCKED`), whichever process it runs in;
 * - a worker sends heartbeats while a job runs; a job whose heartbeat stops (its process died) is
 *   failed by pg-boss's monitor and retried: at-least-once, so handlers are written to be repeatable;
 * - a failure is retried with exponential backoff up to the job's attempts; a job out of attempts goes
 *   to its queue's dead-letter queue, whose worker tells the queue's `onFailed`;
 * - `every(queue, seconds)`: each working process offers one job per slot of `seconds`, throttled by
 *   pg-boss (`singletonSeconds`: one job per queue and slot, however many processes offer it), and
 *   whichever process fetches it runs it.
 * A process that does not work the queues (ALERTS_ENABLED=false) only sends: pg-boss starts there at
 * the first send, or at `ready()`, which a caller that sends inside a transaction awaits before opening
 * it (starting needs the database, which the embedded store's one connection gives the transaction).
 * It knows no capability: queues are names, payloads JSON.
 */
import { sql } from 'drizzle-orm';
import {
  fromDrizzle,
  fromPglite,
  PgBoss,
  type ConstructorOptions,
  type DrizzleTransactionLike,
  type JobWithMetadata,
} from 'pg-boss';
import type { Database, Tx } from './db/client.js';

export interface ClaimedJob {
  id: string;
  queue: string;
  payload: Record<string, unknown>;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number;
}

export interface QueueDefinition {
  name: string;
  /** Attempts a job has (the first and its retries); a send may give its own. */
  maxAttempts: number;
  /** Whether a job out of attempts goes to the dead-letter queue `<name>.failed`, for `onFailed`. */
  deadLetter?: boolean;
}

export interface WorkOptions {
  /** Called once a job has used up its attempts (its handler failed, or its process died on the last one). */
  onFailed?: (job: ClaimedJob) => Promise<void>;
}

export interface SendOptions {
  runAt?: Date;
  maxAttempts?: number;
}

export interface JobQueueOptions {
  /** Where the jobs are kept: the database the service opened. */
  store: Database['connection'];
  queues: readonly QueueDefinition[];
  /** Whether this process works the queues (and runs pg-boss's monitor), or only sends. */
  working: boolean;
  /** A running job whose process has not sent a heartbeat for this long is taken to be dead, and retried. */
  heartbeatSeconds: number;
  /** How often an idle worker looks for work. */
  pollSeconds: number;
  /** The first retry's delay; each next one doubles (with jitter), up to 10 minutes. */
  backoffBaseSeconds?: number;
  log: {
    warn(details: object, message: string): void;
    error(details: object, message: string): void;
  };
}

export interface JobQueue {
  /** Enqueues a job, inside `tx` when given (call `ready()` before opening it). */
  send(
    queue: string,
    payload: Record<string, unknown>,
    options?: SendOptions,
    tx?: Tx,
  ): Promise<void>;
  /** Resolves once pg-boss has started (its schema installed, the queues created). */
  ready(): Promise<void>;
  work(queue: string, handler: (job: ClaimedJob) => Promise<void>, options?: WorkOptions): void;
  /** Runs `handler` once per slot of `seconds` across every working process sharing the database. */
  every(queue: string, seconds: number, handler: (job: ClaimedJob) => Promise<void>): void;
  /** Jobs waiting or running, by queue, as pg-boss's monitor last counted them. */
  depth(): Promise<Record<string, number>>;
  /** Starts pg-boss and, in a working process, the workers registered with `work` and `every`. */
  start(): Promise<void>;
  /** Stops fetching and waits (a bounded time) for the jobs in hand. */
  stop(): Promise<void>;
}

const PGBOSS_SCHEMA = 'pgboss';
const MAX_BACKOFF_SECONDS = 600;
/** A job still running after this long is given up (its heartbeat notices dead processes much sooner). */
const EXPIRE_SECONDS = 15 * 60;
const STOP_TIMEOUT_MS = 10_000;
/** pg-boss's pool on a PostgreSQL server: its workers' fetches, heartbeats and monitor. */
const POOL_SIZE = 4;
const deadLetterOf = (queue: string) => `${queue}.failed`;

export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { store, log } = options;
  const definitions = new Map(options.queues.map((queue) => [queue.name, queue]));
  const workers: Array<() => Promise<unknown>> = [];
  const periodic: Array<{ queue: string; seconds: number }> = [];
  const timers: NodeJS.Timeout[] = [];
  let workersStarted = false;
  let boss: PgBoss | null = null;
  let starting: Promise<PgBoss> | null = null;

  const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

  function construct(supervise: boolean): PgBoss {
    const common: ConstructorOptions = {
      schema: PGBOSS_SCHEMA,
      supervise,
      // Our periodic jobs are throttled sends (`every`), not pg-boss cron schedules: those are checked
      // every 30 s at best, coarser than ALERTS_TICK_SECONDS may ask.
      schedule: false,
      superviseIntervalSeconds: Math.max(1, Math.min(60, Math.floor(options.heartbeatSeconds / 2))),
      monitorIntervalSeconds: Math.max(1, Math.min(60, Math.floor(options.heartbeatSeconds / 2))),
      registerInstance: false,
    };
    const created =
      store.kind === 'pglite'
        ? new PgBoss({ ...common, backend: 'pglite', db: fromPglite(store.client) })
        : new PgBoss({
            ...common,
            connectionString: store.url,
            max: POOL_SIZE,
            application_name: 'research-workspace-jobs',
          });
    // Without a listener an 'error' event would end the process; a lost connection is retried by pg-boss.
    created.on('error', (error) =>
      log.warn({ reason: reason(error) }, 'job queue: pg-boss reported an error'),
    );
    return created;
  }

  async function start(supervise: boolean): Promise<PgBoss> {
    const created = construct(supervise);
    await created.start();
    for (const queue of definitions.values()) {
      const retries = {
        retryLimit: queue.maxAttempts - 1,
        retryDelay: options.backoffBaseSeconds ?? 2,
        retryBackoff: true,
        retryDelayMax: MAX_BACKOFF_SECONDS,
      };
      if (queue.deadLetter) await created.createQueue(deadLetterOf(queue.name), { retryLimit: 0 });
      const settings = {
        ...retries,
        heartbeatSeconds: options.heartbeatSeconds,
        expireInSeconds: EXPIRE_SECONDS,
      };
      await created.createQueue(queue.name, {
        ...settings,
        ...(queue.deadLetter ? { deadLetter: deadLetterOf(queue.name) } : {}),
      });
      // A queue made by an earlier start keeps its settings unless told: this process's config applies.
      await created.updateQueue(queue.name, {
        ...settings,
        deadLetter: queue.deadLetter ? deadLetterOf(queue.name) : null,
      });
    }
    return created;
  }

  /** pg-boss, started once. */
  function started(): Promise<PgBoss> {
    starting ??= start(options.working).then(
      (created) => (boss = created),
      (error: unknown) => {
        // Not started (the database unreachable, say): the next call tries again.
        starting = null;
        throw error;
      },
    );
    return starting;
  }

  const claimed = (job: JobWithMetadata<unknown>): ClaimedJob => ({
    id: job.id,
    queue: job.name,
    payload: (job.data ?? {}) as Record<string, unknown>,
    attempt: job.retryCount + 1,
    maxAttempts: job.retryLimit + 1,
  });

  function register(
    queue: string,
    handler: (job: ClaimedJob) => Promise<void>,
    workOptions: WorkOptions,
  ): void {
    if (!definitions.has(queue)) throw new Error(`job queue: ${queue} is not a defined queue`);
    if (workOptions.onFailed && !definitions.get(queue)!.deadLetter)
      throw new Error(`job queue: onFailed needs ${queue} defined with deadLetter`);
    const pollingIntervalSeconds = options.pollSeconds;
    workers.push(async () => {
      const running = boss!;
      await running.work(
        queue,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds },
        async ([job]) => {
          if (job) await handler(claimed(job));
        },
      );
      const onFailed = workOptions.onFailed;
      if (onFailed) {
        await running.work(
          deadLetterOf(queue),
          { includeMetadata: true, batchSize: 1, pollingIntervalSeconds },
          async ([job]) => {
            if (job) await onFailed({ ...claimed(job), queue });
          },
        );
      }
    });
  }

  async function offerPeriodic(queue: string, seconds: number): Promise<void> {
    try {
      await boss?.send(
        queue,
        {},
        { singletonSeconds: seconds, singletonKey: queue, retryLimit: 0 },
      );
    } catch (error) {
      log.warn({ queue, reason: reason(error) }, 'job queue: could not offer a periodic job');
    }
  }

  return {
    async send(queue, payload, sendOptions = {}, tx) {
      if (!definitions.has(queue)) throw new Error(`job queue: ${queue} is not a defined queue`);
      // Starting inside the caller's transaction would wait for it on the embedded store's one connection.
      if (tx && !boss)
        throw new Error('job queue: await ready() before sending inside a transaction');
      const running = boss ?? (await started());
      await running.send(queue, payload, {
        ...(sendOptions.runAt ? { startAfter: sendOptions.runAt } : {}),
        ...(sendOptions.maxAttempts ? { retryLimit: sendOptions.maxAttempts - 1 } : {}),
        // Our Tx's execute is typed by the driver's result; pg-boss reads its `rows`, which both drivers give.
        ...(tx ? { db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql) } : {}),
      });
    },
    ready: async () => void (await started()),
    work(queue, handler, workOptions = {}) {
      register(queue, handler, workOptions);
    },
    every(queue, seconds, handler) {
      register(queue, handler, {});
      periodic.push({ queue, seconds });
    },
    async depth() {
      if (!boss) return {};
      const queues = await boss.getQueues([...definitions.keys()]);
      return Object.fromEntries(
        queues.map((queue) => [queue.name, queue.queuedCount + queue.activeCount]),
      );
    },
    async start() {
      await started();
      if (!options.working || workersStarted) return;
      workersStarted = true;
      for (const startWorker of workers) await startWorker();
      for (const { queue, seconds } of periodic) {
        void offerPeriodic(queue, seconds);
        const timer = setInterval(() => void offerPeriodic(queue, seconds), seconds * 1000);
        timer.unref();
        timers.push(timer);
      }
    },
    async stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      const running = starting ? await starting.catch(() => null) : null;
      starting = null;
      boss = null;
      await running?.stop({ graceful: true, timeout: STOP_TIMEOUT_MS });
    },
  };
}
