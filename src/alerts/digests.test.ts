/**
 * A digest is sent at most once, through real SMTP (a local smtp-server), on both stores: a send the
 * server refuses is retried with backoff and goes out once; a digest found `sending` (its process died
 * between handing the mail over and recording it) is not sent again but marked failed.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import {
  everyProviderRoutes,
  providerEnvFor,
  startFixtureServer,
  type FixtureServer,
} from '../../test/support/fixture-server.js';
import type { ApiSchema, ReplyOf } from '../../test/support/api-types.js';
import { eventually } from '../../test/support/process-client.js';
import { startSmtpServer, type TestSmtpServer } from '../../test/support/smtp-server.js';
import { alertRuns } from '../platform/db/schema.js';
import { createJobQueue } from '../platform/jobs.js';
import { ALERT_QUEUE_DEFINITIONS, ALERT_QUEUES } from './queues.js';

type Run = ApiSchema<'AlertRun'>;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`alert digests over SMTP (${leg.name})`, () => {
    let smtp: TestSmtpServer;
    let fixtures: FixtureServer;
    let t: TestApp;
    let ada: TestUser;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      fixtures = await startFixtureServer(everyProviderRoutes());
      t = await buildTestApp({
        leg,
        env: {
          ...providerEnvFor(fixtures.url),
          SMTP_URL: smtp.url,
          ALERTS_ENABLED: 'true',
          ALERTS_TICK_SECONDS: '1',
        },
      });
      ada = await buildUser(t.app);
    });
    afterAll(async () => {
      await t?.close();
      await fixtures?.close();
      await smtp?.close();
    });

    const createAlert = async (query: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/alerts',
          headers: ada.bearer,
          payload: { query, providers: ['arxiv'], frequency: 'weekly' },
        })
      ).json<ApiSchema<'Alert'>>().id;
    async function runSettles(alertId: string, runId: string, mail: string): Promise<Run> {
      let run: Run | undefined;
      const settled = await eventually(async () => {
        run = (
          await t.app.inject({
            method: 'GET',
            url: `/api/alerts/${alertId}/runs`,
            headers: ada.bearer,
          })
        )
          .json<ApiSchema<'AlertRunList'>>()
          .runs.find((item) => item.id === runId);
        return run?.mail === mail;
      }, 20_000);
      expect(settled, JSON.stringify(run)).toBe(true);
      return run!;
    }

    it('retries a send the server refused, with backoff, and sends it once', async () => {
      const alertId = await createAlert('testing');
      smtp.refuse(1);
      const before = smtp.received.length;
      const runId = (
        await t.app.inject({
          method: 'POST',
          url: `/api/alerts/${alertId}/run`,
          headers: ada.bearer,
        })
      ).json<ReplyOf<'/api/alerts/{id}/run', 'post', 202>>().run.id;
      await runSettles(alertId, runId, 'sent');
      expect(smtp.received.length - before).toBe(1);
      expect(smtp.received.at(-1)).toContain(`Message-ID: <alert-run-${runId}@api.test>`);
      // pg-boss's record of the digest's job: done on its second attempt.
      const jobs = await t.app.ctx.db.execute(
        sql`select state, retry_count from pgboss.job where name = ${ALERT_QUEUES.digest} and data->>'runId' = ${runId}`,
      );
      expect((jobs as { rows: unknown[] }).rows).toEqual([{ state: 'completed', retry_count: 1 }]);
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toMatch(/alert_digests_total\{outcome="retried"\} 1/);
    });

    it('does not send again a digest whose process died while sending it', async () => {
      const alertId = await createAlert('interrupted');
      const [run] = await t.app.ctx.db
        .insert(alertRuns)
        .values({
          alertId,
          reason: 'manual',
          status: 'done',
          finishedAt: new Date(),
          newCount: 1,
          mail: 'sending',
          works: [
            {
              id: 'arxiv:1',
              title: 'A paper',
              authors: [],
              year: 2024,
              url: 'https://arxiv.org/abs/1',
            },
          ],
        })
        .returning();
      const before = smtp.received.length;
      // The digest's job taken again after its process died (as a stopped heartbeat hands it over), here
      // enqueued by a second, sending-only queue on the same database.
      const store = t.store.database?.connection ?? {
        kind: 'postgres' as const,
        url: t.store.databaseUrl!,
      };
      const sender = createJobQueue({
        store,
        queues: ALERT_QUEUE_DEFINITIONS,
        working: false,
        heartbeatSeconds: 10,
        pollSeconds: 1,
        log: console,
      });
      await sender.send(ALERT_QUEUES.digest, { runId: run!.id });
      await sender.stop();
      await runSettles(alertId, run!.id, 'failed');
      const [row] = await t.app.ctx.db.select().from(alertRuns).where(eq(alertRuns.id, run!.id));
      expect(row?.mailError).toMatch(/interrupted while sending/);
      expect(smtp.received.length).toBe(before);
    });
  });
}
