/**
 * The alerts' durable jobs on the platform's queue (platform/jobs.ts, pg-boss):
 * - `alerts.prune`, every 6 hours: forgets runs and unsubscribe tombstones a year old (store.ts);
 * - `alerts.tick`, once per ALERTS_TICK_SECONDS across every process: claims the due alerts, moves each
 *   one's `next_run_at` a period on, and records a run for the period (unique per alert and period)
 *   with its job, all in one transaction, so N processes enqueue a period's run once;
 * - `alerts.run`: one run (run.ts);
 * - `alerts.digest`: one digest mail per run, sent at most once: the run's mail state goes
 *   pending → handing_over (claimed by the job) before the SMTP exchange, → sending just before the
 *   final dot of its data, and → sent after the server's reply; a failed send goes back to pending and
 *   is retried with backoff. A digest found `handing_over` by its own job's retry (its process died
 *   before the end of the data) was certainly not accepted and is sent again; one found `sending`
 *   (died between the dot and the reply) may have gone out, is not sent again and is marked failed.
 * Series in /metrics: run durations, failed runs, digests by outcome (queue depth: background.ts).
 */
import { eq, sql, and } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Cache } from '../platform/cache.js';
import { unseal } from '../platform/crypto.js';
import type { Db } from '../platform/db/client.js';
import { alertRuns, alerts, users } from '../platform/db/schema.js';
import type { ClaimedJob, JobQueue } from '../platform/jobs.js';
import type { Mailer } from '../platform/mail/index.js';
import { DURATION_BUCKETS, type Metrics } from '../platform/metrics.js';
import type { SearchProviders } from '../search/index.js';
import { UNSUBSCRIBE_SEAL } from './commands.js';
import { composeDigest, type DigestWork } from './digest.js';
import { ALERT_QUEUES } from './queues.js';
import { runAlert } from './run.js';
import { findAlert, findRun, insertRun, pruneAlertHistory } from './store.js';

/** How often the runs and unsubscribe tombstones past their keeping time are deleted. */
const PRUNE_EVERY_SECONDS = 6 * 3600;
/** Due alerts one tick takes at most; the rest wait for the next tick. */
const DUE_PER_TICK = 200;

export interface AlertJobDeps {
  config: Config;
  db: Db;
  queue: JobQueue;
  mailer: Mailer;
  metrics: Metrics;
  providers: SearchProviders;
  cache: Cache;
  secret: string;
  log: {
    info(details: object, message: string): void;
    warn(details: object, message: string): void;
    error(details: object, message: string): void;
  };
}

const runIdOf = (job: ClaimedJob) => String(job.payload.runId);

/** Records the due alerts' runs and their jobs; returns how many it enqueued. */
async function enqueueDueRuns(db: Db, queue: JobQueue): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx.execute(sql`
      with due as (
        select id, next_run_at, case frequency when 'daily' then interval '1 day' else interval '7 days' end as period
          from ${alerts}
         where paused = false and next_run_at <= now()
         order by next_run_at
         limit ${DUE_PER_TICK}
         for update skip locked)
      update ${alerts} as a
         set next_run_at = case when due.next_run_at + due.period > now() then due.next_run_at + due.period else now() + due.period end
        from due
       where a.id = due.id
      returning a.id, due.next_run_at as period_start`);
    let count = 0;
    for (const row of (due as { rows: Array<{ id: string; period_start: string | Date }> }).rows) {
      const period = new Date(row.period_start).toISOString();
      const run = await insertRun(tx, { alertId: row.id, reason: 'schedule', period });
      if (!run) continue;
      await queue.send(ALERT_QUEUES.run, { runId: run.id }, {}, tx);
      count++;
    }
    return count;
  });
}

export function registerAlertJobs(deps: AlertJobDeps): void {
  const { db, queue, metrics, config } = deps;
  const runDurations = metrics.histogram({
    name: 'alert_run_duration_seconds',
    help: 'How long an alert run took (its search and recording what was new), by how it ended (done, partial, failed)',
    labelNames: ['status'] as const,
    buckets: DURATION_BUCKETS,
  });
  const runFailures = metrics.counter({
    name: 'alert_run_failures_total',
    help: 'Alert runs that failed: every provider failed (`providers`), or the run itself failed for good (`error`)',
    labelNames: ['reason'] as const,
  });
  const digests = metrics.counter({
    name: 'alert_digests_total',
    help:
      'Alert digests by outcome: sent, retried (a send failed and is tried ' +
      'again), failed (given up), interrupted (its process died mid-send; not sent again)',
    labelNames: ['outcome'] as const,
  });
  queue.every(
    ALERT_QUEUES.tick,
    config.alerts.tickSeconds,
    async () => void (await enqueueDueRuns(db, queue)),
  );
  queue.every(
    ALERT_QUEUES.prune,
    PRUNE_EVERY_SECONDS,
    async () => void (await pruneAlertHistory(db)),
  );

  queue.work(
    ALERT_QUEUES.run,
    async (job) => {
      const startedAt = performance.now();
      deps.log.info({ runId: runIdOf(job), attempt: job.attempt }, 'alert run: started');
      const run = await runAlert(
        {
          db,
          queue,
          providers: deps.providers,
          cache: deps.cache,
          cacheTtlSeconds: config.providers.cacheTtlSeconds,
          deadlineMs: config.providers.timeoutMs,
          log: deps.log,
        },
        runIdOf(job),
      );
      if (!run) return;
      runDurations.observe({ status: run.status }, (performance.now() - startedAt) / 1000);
      if (run.status === 'failed') runFailures.inc({ reason: 'providers' });
    },
    {
      onFailed: async (job) => {
        runFailures.inc({ reason: 'error' });
        await db
          .update(alertRuns)
          .set({ status: 'failed', finishedAt: new Date() })
          .where(
            and(eq(alertRuns.id, runIdOf(job)), sql`${alertRuns.status} in ('queued', 'running')`),
          );
      },
    },
  );

  queue.work(
    ALERT_QUEUES.digest,
    async (job) => {
      await sendDigest(deps, runIdOf(job), job.id, job.attempt >= job.maxAttempts, (outcome) =>
        digests.inc({ outcome }),
      );
    },
    {
      // Its process died on the last attempt (mid-send or before): never sent twice, so given up.
      onFailed: async (job) => {
        const given = await db
          .update(alertRuns)
          .set({
            mail: 'failed',
            mailError:
              'its process stopped while sending; not sent again, so that it is never sent twice',
          })
          .where(
            and(
              eq(alertRuns.id, runIdOf(job)),
              sql`${alertRuns.mail} in ('pending', 'handing_over', 'sending')`,
            ),
          )
          .returning({ id: alertRuns.id });
        if (given.length > 0) digests.inc({ outcome: 'failed' });
      },
    },
  );
}

type DigestOutcome = 'sent' | 'retried' | 'failed' | 'interrupted';

const setMail = (db: Db, runId: string, values: Partial<typeof alertRuns.$inferInsert>) =>
  db.update(alertRuns).set(values).where(eq(alertRuns.id, runId));

/** Sends a run's digest at most once; throws (to be retried) when the transport failed and attempts are left. */
async function sendDigest(
  deps: AlertJobDeps,
  runId: string,
  jobId: string,
  lastAttempt: boolean,
  count: (outcome: DigestOutcome) => void,
): Promise<void> {
  const { db } = deps;
  const run = await findRun(db, runId);
  if (!run) return;
  // This job's own earlier attempt died before the end of the message's data went out: certainly not
  // accepted, so sent again. Another job's claim is left to that job (and its own retry).
  const takeover = run.mail === 'handing_over' && run.mailSender === jobId;
  if (run.mail === 'handing_over' && !takeover) return;
  if (run.mail === 'sending') {
    await setMail(db, runId, {
      mail: 'failed',
      mailError: 'interrupted while sending; not sent again, so that it is never sent twice',
    });
    return count('interrupted');
  }
  if (run.mail !== 'pending' && !takeover) return;
  const alert = await findAlert(db, run.alertId);
  const [owner] = alert
    ? await db.select({ email: users.email }).from(users).where(eq(users.id, alert.userId))
    : [];
  const token = alert ? unseal(alert.unsubscribeTokenSealed, deps.secret, UNSUBSCRIBE_SEAL) : null;
  if (!alert || !owner || !token) {
    await setMail(db, runId, {
      mail: 'failed',
      mailError: 'the alert, its owner or its unsubscribe token is gone',
    });
    return count('failed');
  }
  // The claim: only one sender moves this run from pending to handing_over (or takes its own back).
  const claimed = await db
    .update(alertRuns)
    .set({ mail: 'handing_over', mailSender: jobId })
    .where(
      and(
        eq(alertRuns.id, runId),
        takeover
          ? and(eq(alertRuns.mail, 'handing_over'), eq(alertRuns.mailSender, jobId))
          : eq(alertRuns.mail, 'pending'),
      ),
    )
    .returning({ id: alertRuns.id });
  if (claimed.length === 0) return;
  const message = composeDigest({
    runId,
    to: owner.email,
    query: alert.query,
    frequency: alert.frequency,
    works: run.works as unknown as DigestWork[],
    newCount: run.newCount,
    providers: alert.providers,
    filters: alert.filters,
    unsubscribeToken: token,
    appOrigin: deps.config.appOrigin,
    publicUrl: deps.config.publicUrl,
  });
  // Recorded before the final dot: from then on the server may have accepted it (never sent twice).
  const beforeFinalDot = async () => {
    await setMail(db, runId, { mail: 'sending' });
  };
  try {
    await deps.mailer.send(message, { beforeFinalDot });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    // Refused by the transport: it did not go out, so it may be tried again.
    await setMail(db, runId, { mail: lastAttempt ? 'failed' : 'pending', mailError: reason });
    if (lastAttempt) return count('failed');
    count('retried');
    throw error;
  }
  await setMail(db, runId, { mail: 'sent', mailError: null });
  count('sent');
}
