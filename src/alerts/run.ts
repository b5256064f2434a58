/**
 * One alert run: search as GET /api/search does (search's own functions: its providers, outbound
 * limits and answer cache), keep the works this alert had not reported (by the work key adding to a
 * workspace uses), and record the run; its digest is a job of its own, enqueued in the same transaction.
 * Repeatable: a run taken again after its process died searches again, and one already recorded only
 * makes sure its digest is enqueued.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../platform/db/client.js';
import { alertRuns, alertSeenWorks } from '../platform/db/schema.js';
import type { JobQueue } from '../platform/jobs.js';
import {
  PROVIDER_IDS,
  searchProviders,
  type ProviderFailureLog,
  type ProviderId,
  type SearchProviders,
  type SearchRecord,
} from '../search/index.js';
import type { Cache } from '../platform/cache.js';
import { workKeyOf } from '../workspaces/index.js';
import type { DigestWork } from './digest.js';
import { ALERT_QUEUES } from './queues.js';
import { findAlert, findRun, type RunRow } from './store.js';

/** Works asked of each provider; the newest first. */
const RUN_LIMIT = 50;
/** New works a digest lists (the rest are counted). */
const DIGEST_WORKS = 25;
/** Work keys remembered per alert: the oldest beyond this are forgotten. */
const SEEN_PER_ALERT = 5000;

export interface RunDeps {
  db: Db;
  queue: JobQueue;
  providers: SearchProviders;
  cache: Cache;
  cacheTtlSeconds: number;
  deadlineMs: number;
  log: ProviderFailureLog;
}

const FINISHED: ReadonlySet<RunRow['status']> = new Set(['done', 'partial', 'failed']);

function digestWork(record: SearchRecord): DigestWork {
  return {
    id: record.id,
    title: record.title,
    authors: record.authors,
    ...(record.venue ? { venue: record.venue } : {}),
    year: record.year,
    url: record.url,
    ...(record.doi ? { doi: record.doi } : {}),
    ...(record.arxivId ? { arxivId: record.arxivId } : {}),
  };
}

/** Runs `runId`; returns the finished run (null: it or its alert is gone). */
export async function runAlert(deps: RunDeps, runId: string): Promise<RunRow | null> {
  const { db } = deps;
  const run = await findRun(db, runId);
  if (!run) return null;
  if (FINISHED.has(run.status)) {
    if (run.mail === 'pending') await enqueueDigest(deps, run.id);
    return run;
  }
  const alert = await findAlert(db, run.alertId);
  if (!alert) return null;
  await db
    .update(alertRuns)
    .set({ status: 'running', startedAt: sql`coalesce(${alertRuns.startedAt}, now())` })
    .where(eq(alertRuns.id, run.id));

  const ids = (alert.providers ?? PROVIDER_IDS).filter((id): id is ProviderId =>
    (PROVIDER_IDS as readonly string[]).includes(id),
  );
  const reply = await searchProviders({
    query: alert.query,
    providers: ids.map((id) => deps.providers[id]),
    sort: 'date',
    filters: alert.filters ?? undefined,
    offset: 0,
    limit: RUN_LIMIT,
    deadlineMs: deps.deadlineMs,
    cache: deps.cache,
    cacheTtlSeconds: deps.cacheTtlSeconds,
    log: deps.log,
  });
  const asked = reply.providers.filter((provider) => provider.status !== 'disabled');
  const answered = asked.filter((provider) => provider.status === 'ok');
  const status: RunRow['status'] =
    asked.length > 0 && answered.length === 0
      ? 'failed'
      : answered.length < asked.length
        ? 'partial'
        : 'done';

  // One record per work key, in the reply's order (newest first).
  const byKey = new Map<string, SearchRecord>();
  for (const record of reply.results) {
    const key = workKeyOf({
      doi: record.doi,
      arxivId: record.arxivId,
      pmid: record.pmid,
      url: record.url,
      resourceId: record.id,
    });
    if (key && !byKey.has(key)) byKey.set(key, record);
  }

  const finished = await db.transaction(async (tx) => {
    const keys = [...byKey.keys()];
    const seen = keys.length
      ? new Set(
          (
            await tx
              .select({ key: alertSeenWorks.workKey })
              .from(alertSeenWorks)
              .where(
                and(eq(alertSeenWorks.alertId, alert.id), inArray(alertSeenWorks.workKey, keys)),
              )
          ).map((row) => row.key),
        )
      : new Set<string>();
    const fresh = keys.filter((key) => !seen.has(key));
    if (fresh.length > 0) {
      await tx
        .insert(alertSeenWorks)
        .values(fresh.map((workKey) => ({ alertId: alert.id, workKey })))
        .onConflictDoNothing();
      await tx.execute(sql`
        delete from ${alertSeenWorks}
         where alert_id = ${alert.id}
           and work_key not in (select work_key from ${alertSeenWorks} where alert_id = ${alert.id} order by seen_at desc, work_key limit ${SEEN_PER_ALERT})`);
    }
    const works = fresh.slice(0, DIGEST_WORKS).map((key) => digestWork(byKey.get(key)!));
    const [row] = await tx
      .update(alertRuns)
      .set({
        status,
        finishedAt: new Date(),
        found: reply.total,
        newCount: fresh.length,
        providers: reply.providers.map((provider) => ({
          id: provider.id,
          status: provider.status,
          count: provider.count,
        })),
        works: works as unknown as Array<Record<string, unknown>>,
        mail: fresh.length > 0 ? 'pending' : 'none',
      })
      .where(eq(alertRuns.id, run.id))
      .returning();
    if (fresh.length > 0) await enqueueDigest(deps, run.id, tx);
    return row ?? null;
  });
  return finished;
}

/** A run repeated after its digest was enqueued may enqueue another: the digest's own state sends it once (jobs.ts). */
function enqueueDigest(deps: RunDeps, runId: string, tx?: Tx) {
  return deps.queue.send(ALERT_QUEUES.digest, { runId }, {}, tx);
}
