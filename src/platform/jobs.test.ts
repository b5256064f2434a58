/**
 * The job queue (pg-boss) on both stores, as the service uses it: a job sent in a transaction exists
 * only if the transaction commits; a failing job is tried again with backoff, then handed to
 * `onFailed` with its payload; a process started later applies its settings to the queues; two working
 * processes (two queues on one database) offering the same periodic job run it once per slot, never twice.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, storeLegs } from '../../test/support/app.js';
import { migratedPgliteTemplate } from '../../test/support/pglite-template.js';
import { eventually } from '../../test/support/process-client.js';
import { openDatabase, type Database } from './db/client.js';
import { createJobQueue, type ClaimedJob, type JobQueue, type QueueDefinition } from './jobs.js';

const QUEUES: QueueDefinition[] = [
  { name: 'test.once', maxAttempts: 1 },
  { name: 'test.flaky', maxAttempts: 2, deadLetter: true },
  { name: 'test.tick', maxAttempts: 1 },
];
const quiet = { warn: () => undefined, error: () => undefined };

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`job queue on pg-boss (${leg.name})`, () => {
    let database: Database;
    let scratch: { url: string; drop(): Promise<void> } | null = null;
    const queues: JobQueue[] = [];
    const queue = (working: boolean) => {
      const made = createJobQueue({
        store: database.connection,
        queues: QUEUES,
        working,
        heartbeatSeconds: 10,
        pollSeconds: 0.5,
        backoffBaseSeconds: 1,
        log: quiet,
      });
      queues.push(made);
      return made;
    };

    beforeAll(async () => {
      scratch = leg.postgres ? await createScratchDatabase(process.env.TEST_DATABASE_URL!) : null;
      database = scratch
        ? await openDatabase({ databaseUrl: scratch.url, poolSize: 4 })
        : await openDatabase({
            pgliteDir: 'memory://',
            pgliteFrom: await migratedPgliteTemplate(),
          });
    });
    afterAll(async () => {
      for (const made of queues) await made.stop();
      await database?.close();
      await scratch?.drop();
    });

    it('keeps a job sent in a transaction only if the transaction commits', async () => {
      const worked: unknown[] = [];
      const jobs = queue(true);
      jobs.work('test.once', async (job) => void worked.push(job.payload.n));
      await jobs.start();
      await database.db.transaction(async (tx) => jobs.send('test.once', { n: 1 }, {}, tx));
      await database.db
        .transaction(async (tx) => {
          await jobs.send('test.once', { n: 2 }, {}, tx);
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await jobs.send('test.once', { n: 3 });
      expect(await eventually(async () => worked.length >= 2, 10_000, 50)).toBe(true);
      const kept = await database.db.execute(
        sql`select data->>'n' as n from pgboss.job where name = 'test.once' order by (data->>'n')`,
      );
      expect((kept as { rows: unknown[] }).rows).toEqual([{ n: '1' }, { n: '3' }]);
      expect(worked.sort()).toEqual([1, 3]);
    });

    it('tries a failing job again after a backoff, then hands it to onFailed with its payload', async () => {
      const attempts: Array<{ attempt: number; at: number }> = [];
      const failed: ClaimedJob[] = [];
      const jobs = queue(true);
      jobs.work(
        'test.flaky',
        async (job) => {
          attempts.push({ attempt: job.attempt, at: Date.now() });
          throw new Error('always fails');
        },
        { onFailed: async (job) => void failed.push(job) },
      );
      await jobs.start();
      await jobs.send('test.flaky', { runId: 'r-1' });
      expect(await eventually(async () => failed.length === 1, 20_000, 50)).toBe(true);
      expect(attempts.map((one) => one.attempt)).toEqual([1, 2]);
      // pg-boss's backoff: the first retry waits one to two base delays (1 s here).
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(900);
      expect(failed[0]).toMatchObject({ queue: 'test.flaky', payload: { runId: 'r-1' } });
    });

    it('applies the heartbeat and attempts of the process that starts last to queues made before', async () => {
      const settingsOf = async () =>
        (await database.db.execute(
          sql`select heartbeat_seconds, retry_limit from pgboss.queue where name = 'test.flaky'`,
        )) as { rows: unknown[] };
      const later = createJobQueue({
        store: database.connection,
        queues: QUEUES.map((one) => ({ ...one, maxAttempts: 4 })),
        working: false,
        heartbeatSeconds: 25,
        pollSeconds: 0.5,
        log: quiet,
      });
      queues.push(later);
      await later.ready();
      expect((await settingsOf()).rows).toEqual([{ heartbeat_seconds: 25, retry_limit: 3 }]);
    });

    it('runs a periodic job once per slot however many working processes offer it', async () => {
      const slots: number[] = [];
      for (let process = 0; process < 2; process++) {
        const jobs = queue(true);
        jobs.every('test.tick', 1, async () => void slots.push(Math.floor(Date.now() / 1000)));
        await jobs.start();
      }
      expect(await eventually(async () => slots.length >= 3, 15_000, 50)).toBe(true);
      const offered = await database.db.execute(
        sql`select singleton_on from pgboss.job where name = 'test.tick'`,
      );
      const slotsOffered = (offered as { rows: Array<{ singleton_on: unknown }> }).rows.map((row) =>
        String(row.singleton_on),
      );
      // Two processes offered each slot's job; pg-boss kept one per slot.
      expect(new Set(slotsOffered).size).toBe(slotsOffered.length);
    });
  });
}
