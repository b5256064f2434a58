/**
 * Durable background jobs on pg-boss (https://pgboss.io), in the service's own database: on a
 * PostgreSQL server through pg-boss's own small pool, on the embedded PGlite through pg-boss's PGlite
 * adapter (one library, one behaviour, on both stores). pg-boss keeps its tables in the `pgboss` schema
 * and migrates them itself when it starts. What it guarantees, and what this service relies on:
 * - a job is written in the caller's transaction when it passes one (enqueued with what caused it, or
 *   not at all), through pg-boss's Drizzle adapter;
 * - a job is fetched by one worker (`FOR UPDATE SKIP LOCKED`), whichever process it runs in;
 * - a worker sends heartbeats while a job runs (every fifth of `heartbeatSeconds`); a job whose
 *   heartbeat stops (its process died) is failed by pg-boss's monitor (every fifth of it too) and
 *   retried: at-least-once, so handlers are written to be repeatable. On the embedded store, which one
 *   process alone opens, the jobs a start finds running were a dead process's: failed at once, retried;
 * - a job sent wakes the workers of its queue at once (LISTEN/NOTIFY), not at their next poll; a
 *   worker that fetched a full batch fetches again at once, so a backlog is not paced by the poll;
 * - a queue may take several jobs per fetch (`batchSize`, run side by side, each settled on its own)
 *   and run several workers per process (`workers`); `perGroup` bounds the jobs of one group (a
 *   user's, say) running at once in a process, so one group's backlog cannot hold all its workers;
 * - a failure is retried with exponential backoff up to the job's attempts; a job out of attempts goes
 *   to its queue's dead-letter queue, whose worker tells the queue's `onFailed`;
 * - `every(queue, seconds)`: each working process offers one job per slot of `seconds`, throttled by
 *   pg-boss (`singletonSeconds`: one job per queue and slot, however many processes offer it), and
 *   whichever process fetches it runs it.
 * A process works the queues it registered a handler for (`work`, `every`); pg-boss starts at
 * `start()`, the first send, or `ready()`, which a caller that sends inside a transaction awaits before
 * opening it (starting needs the database, which the embedded store's one connection gives the transaction).
 * It knows no capability: queues are names, payloads JSON.
 */
import { sql } from 'drizzle-orm';
import {
  fromDrizzle,
  fromPglite,
  PgBoss,
  type ConstructorOptions,
  type DrizzleTransactionLike,
  type JobResult,
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
  /** Aborted when pg-boss takes the job back (its claim lost, or the process stopping). */
  signal: AbortSignal;
}

export interface QueueDefinition {
  name: string;
  /** Attempts a job has (the first and its retries); a send may give its own. */
  maxAttempts: number;
  /** Whether a job out of attempts goes to the dead-letter queue `<name>.failed`, for `onFailed`. */
  deadLetter?: boolean;
  /** Jobs one worker fetches at once and runs side by side, each settled on its own (default 1). */
  batchSize?: number;
  /** Workers of this queue in each working process (default 1). */
  workers?: number;
  /**
   * Jobs of one group (`SendOptions.group`) running at once in each process (default: no bound): below
   * `workers`, a group can never hold all of a process's workers.
   */
  perGroup?: number;
  /** A job still running after this long is failed and retried (default 15 minutes). */
  expireInSeconds?: number;
}

export interface WorkOptions {
  /** Called once a job has used up its attempts (its handler failed, or its process died on the last one). */
  onFailed?: (job: ClaimedJob) => Promise<void>;
}

export interface SendOptions {
  runAt?: Date;
  maxAttempts?: number;
  /** The group the job counts against for its queue's `perGroup` bound (a user id, say). */
  group?: string;
}

export interface JobQueueOptions {
  /** Where the jobs are kept: the database the service opened. */
  store: Database['connection'];
  queues: readonly QueueDefinition[];
  /** Whether this process works the queues (and runs pg-boss's monitor), or only sends. */
  working: boolean;
  /**
   * A running job whose process has not sent a heartbeat for this long is taken to be dead, and
   * retried (pg-boss's least is 10). Its worker beats every fifth of it and the monitor looks as often,
   * so a killed process's job is failed 0.8–1.2 heartbeats after the kill.
   */
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
  /**
   * Runs `handler` once per slot of `seconds` across every working process sharing the database; the
   * first slot starts when the process does, or `firstAfterSeconds` later.
   */
  every(
    queue: string,
    seconds: number,
    handler: (job: ClaimedJob) => Promise<void>,
    firstAfterSeconds?: number,
  ): void;
  /** Stops this process's workers of `queue` (the jobs wait for another process, or a restart). */
  stopWorking(queue: string): Promise<void>;
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

/** How often a worker beats and the monitor looks for stopped heartbeats: a fifth of the heartbeat. */
const heartbeatCheckSeconds = (heartbeatSeconds: number) =>
  Math.max(1, Math.floor(heartbeatSeconds / 5));

export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { store, log } = options;
  const definitions = new Map(options.queues.map((queue) => [queue.name, queue]));
  const workers: Array<{ queue: string; start: () => Promise<unknown> }> = [];
  const periodic: Array<{ queue: string; seconds: number; firstAfterSeconds: number }> = [];
  const timers: NodeJS.Timeout[] = [];
  let workersStarted = false;
  let boss: PgBoss | null = null;
  let starting: Promise<PgBoss> | null = null;
  const checkSeconds = heartbeatCheckSeconds(options.heartbeatSeconds);

  const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

  function construct(supervise: boolean): PgBoss {
    const common: ConstructorOptions = {
      schema: PGBOSS_SCHEMA,
      supervise,
      // Our periodic jobs are throttled sends (`every`), not pg-boss cron schedules: those are checked
      // every 30 s at best, coarser than ALERTS_TICK_SECONDS may ask.
      schedule: false,
      superviseIntervalSeconds: checkSeconds,
      monitorIntervalSeconds: checkSeconds,
      registerInstance: false,
      // A sent job wakes its queue's workers (NOTIFY, delivered when the sending transaction commits).
      useListenNotify: true,
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
      if (queue.deadLetter)
        await created.createQueue(deadLetterOf(queue.name), { retryLimit: 0, notify: true });
      const settings = {
        ...retries,
        heartbeatSeconds: options.heartbeatSeconds,
        expireInSeconds: queue.expireInSeconds ?? EXPIRE_SECONDS,
        notify: true,
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
      if (queue.deadLetter) await created.updateQueue(deadLetterOf(queue.name), { notify: true });
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

  /**
   * The embedded database is one process's alone: a job found running at start was its dead
   * predecessor's, and is failed now (and so retried) rather than after its heartbeat runs out.
   */
  async function failOrphanedJobs(running: PgBoss): Promise<void> {
    if (store.kind !== 'pglite') return;
    const { rows } = await store.client.query<{ id: string; name: string; retry_count: number }>(
      `select id, name, retry_count from ${PGBOSS_SCHEMA}.job where state = 'active' and name = any($1)`,
      [[...definitions.keys()]],
    );
    for (const name of new Set(rows.map((row) => row.name))) {
      const held = rows.filter((row) => row.name === name);
      await running.fail(
        name,
        held.map((row) => ({ id: row.id, retryCount: row.retry_count })),
        { message: 'its process stopped while it ran' },
      );
      log.warn(
        { queue: name, jobs: held.length },
        'job queue: retrying jobs a stopped process held',
      );
    }
  }

  const claimed = (job: JobWithMetadata<unknown>): ClaimedJob => ({
    id: job.id,
    queue: job.name,
    payload: (job.data ?? {}) as Record<string, unknown>,
    attempt: job.retryCount + 1,
    maxAttempts: job.retryLimit + 1,
    signal: job.signal,
  });

  /** Runs a fetched batch's jobs side by side; each is completed, or failed (and so retried), on its own. */
  const settleEach =
    (handler: (job: ClaimedJob) => Promise<void>, queue?: string) =>
    (jobs: Array<JobWithMetadata<unknown>>): Promise<JobResult[]> =>
      Promise.all(
        jobs.map(async (job): Promise<JobResult> => {
          try {
            await handler(queue ? { ...claimed(job), queue } : claimed(job));
            return { id: job.id, status: 'completed' };
          } catch (error) {
            log.warn(
              {
                queue: job.name,
                jobId: job.id,
                attempt: job.retryCount + 1,
                reason: reason(error),
              },
              'job queue: a job failed',
            );
            return { id: job.id, status: 'failed', output: { message: reason(error) } };
          }
        }),
      );

  function register(
    queue: string,
    handler: (job: ClaimedJob) => Promise<void>,
    workOptions: WorkOptions,
  ): void {
    const definition = definitions.get(queue);
    if (!definition) throw new Error(`job queue: ${queue} is not a defined queue`);
    if (workOptions.onFailed && !definition.deadLetter)
      throw new Error(`job queue: onFailed needs ${queue} defined with deadLetter`);
    const polling = {
      includeMetadata: true,
      perJobResults: true,
      pollingIntervalSeconds: options.pollSeconds,
      // pg-boss would poll a queue that notifies every 30 s only; a retry that comes due notifies nobody.
      notifyPollingIntervalSeconds: options.pollSeconds,
      heartbeatRefreshSeconds: checkSeconds,
    } as const;
    const batchSize = definition.batchSize ?? 1;
    workers.push({
      queue,
      start: async () => {
        const running = boss!;
        await running.work(
          queue,
          {
            ...polling,
            batchSize,
            // A full batch means more may be waiting: fetch again at once rather than after a poll.
            ...(batchSize > 1 ? { burstWhenBatchFull: true } : {}),
            localConcurrency: definition.workers ?? 1,
            // Counted in this process, exactly (pg-boss hands a job of a group at its bound back to the
            // queue and skips the group in the next fetches); pg-boss's database-wide count instead can
            // let two workers fetching at the same moment both take a job of one group.
            ...(definition.perGroup ? { localGroupConcurrency: definition.perGroup } : {}),
          },
          settleEach(handler),
        );
        const onFailed = workOptions.onFailed;
        if (onFailed)
          await running.work(
            deadLetterOf(queue),
            { ...polling, batchSize: 1 },
            settleEach(onFailed, queue),
          );
      },
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
        ...(sendOptions.group ? { group: { id: sendOptions.group } } : {}),
        // Our Tx's execute is typed by the driver's result; pg-boss reads its `rows`, which both drivers give.
        ...(tx ? { db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql) } : {}),
      });
    },
    ready: async () => void (await started()),
    work(queue, handler, workOptions = {}) {
      register(queue, handler, workOptions);
    },
    every(queue, seconds, handler, firstAfterSeconds = 0) {
      register(queue, handler, {});
      periodic.push({ queue, seconds, firstAfterSeconds });
    },
    async stopWorking(queue) {
      await boss?.offWork(queue, { wait: true });
    },
    async depth() {
      if (!boss) return {};
      const queues = await boss.getQueues([...definitions.keys()]);
      return Object.fromEntries(
        queues.map((queue) => [queue.name, queue.queuedCount + queue.activeCount]),
      );
    },
    async start() {
      const running = await started();
      if (!options.working || workersStarted) return;
      workersStarted = true;
      await failOrphanedJobs(running);
      for (const worker of workers) await worker.start();
      for (const { queue, seconds, firstAfterSeconds } of periodic) {
        const offer = () => void offerPeriodic(queue, seconds);
        const first = setTimeout(() => {
          offer();
          const timer = setInterval(offer, seconds * 1000);
          timer.unref();
          timers.push(timer);
        }, firstAfterSeconds * 1000);
        first.unref();
        timers.push(first);
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
