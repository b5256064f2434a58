/**
 * Alerts on both stores: the CRUD routes (validation, limits, 401, another user's alert is a 404), a
 * run through the durable queue against the recorded provider answers (a digest in the outbox with
 * one-click unsubscribe headers, parsed with a real mail parser; a second run with the same results
 * mails nothing), a provider failure makes a run partial, and unsubscribing (GET changes nothing, a
 * mail client's form POST without cookies deletes the alert, the link keeps answering), and the history
 * kept a year (older finished runs and used links are forgotten).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import {
  everyProviderRoutes,
  providerEnvFor,
  startFixtureServer,
  type FixtureServer,
} from '../../test/support/fixture-server.js';
import type { ApiSchema } from '../../test/support/api-types.js';
import { eventually } from '../../test/support/process-client.js';
import { hashToken, randomToken } from '../platform/crypto.js';
import { alertRuns, alertUnsubscribes } from '../platform/db/schema.js';
import { HISTORY_KEPT_DAYS, pruneAlertHistory } from './store.js';

type Run = ApiSchema<'AlertRun'>;
type Alert = ApiSchema<'Alert'>;
type ApiError = ApiSchema<'Error'>;

const outboxFiles = (dataDir: string) => {
  try {
    return readdirSync(join(dataDir, 'outbox'))
      .filter((name) => name.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
};

/** A header's value as written (mailparser folds the List-* headers into one structured `list` entry). */
const headerOf = (mail: ParsedMail, key: string) =>
  mail.headerLines.find((header) => header.key === key)?.line.replace(/^[^:]+:\s*/, '');

/** While true, Zenodo answers 503 (a provider failure). */
let zenodoDown = false;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`alerts (${leg.name})`, () => {
    let t: TestApp;
    let fixtures: FixtureServer;
    let ada: TestUser;
    let grace: TestUser;
    beforeAll(async () => {
      fixtures = await startFixtureServer([
        { path: '/zenodo/records', query: () => zenodoDown, status: 503, body: 'down' },
        ...everyProviderRoutes(),
      ]);
      t = await buildTestApp({
        leg,
        env: {
          ...providerEnvFor(fixtures.url),
          ALERTS_ENABLED: 'true',
          ALERTS_TICK_SECONDS: '1',
          ALERTS_PER_USER: '3',
          RATE_LIMIT_ALERT_RUNS_PER_HOUR: '4',
        },
      });
      [ada, grace] = await Promise.all([
        buildUser(t.app, { name: 'Ada' }),
        buildUser(t.app, { name: 'Grace' }),
      ]);
    });
    afterAll(async () => {
      await t?.close();
      await fixtures?.close();
    });

    const create = (by: TestUser, payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/alerts', headers: by.bearer, payload });
    const get = (by: TestUser, url: string) =>
      t.app.inject({ method: 'GET', url, headers: by.bearer });
    const removeAll = async (by: TestUser) => {
      for (const alert of (await get(by, '/api/alerts')).json<ApiSchema<'AlertList'>>().alerts) {
        await t.app.inject({
          method: 'DELETE',
          url: `/api/alerts/${alert.id}`,
          headers: by.bearer,
        });
      }
    };
    /** The run once it has finished and its digest (if any) has settled. */
    async function settledRun(by: TestUser, alertId: string, runId: string): Promise<Run> {
      let run: Run | undefined;
      const settled = await eventually(async () => {
        run = (await get(by, `/api/alerts/${alertId}/runs`))
          .json<ApiSchema<'AlertRunList'>>()
          .runs.find((item) => item.id === runId);
        return !!run && !['queued', 'running'].includes(run.status) && run.mail !== 'pending';
      }, 15_000);
      expect(settled, JSON.stringify(run)).toBe(true);
      return run!;
    }
    const runNow = (by: TestUser, alertId: string) =>
      t.app.inject({ method: 'POST', url: `/api/alerts/${alertId}/run`, headers: by.bearer });

    describe('POST /api/alerts', () => {
      it('creates an alert scheduled one period ahead', async () => {
        const res = await create(ada, {
          query: 'testing',
          providers: ['arxiv'],
          filters: { yearFrom: 2000 },
          frequency: 'weekly',
        });
        expect(res.statusCode, res.body).toBe(201);
        const alert = res.json<Alert>();
        expect(alert).toMatchObject({
          query: 'testing',
          providers: ['arxiv'],
          filters: { yearFrom: 2000 },
          frequency: 'weekly',
          paused: false,
          lastRun: null,
        });
        const days = (Date.parse(alert.nextRunAt!) - Date.now()) / 86_400_000;
        expect(days).toBeGreaterThan(6.9);
        expect(days).toBeLessThanOrEqual(7);
        await removeAll(ada);
      });

      it('names the field at fault', async () => {
        for (const [payload, field] of [
          [{ frequency: 'daily' }, 'query'],
          [{ query: ' ', frequency: 'daily' }, 'query'],
          [{ query: 'x'.repeat(501), frequency: 'daily' }, 'query'],
          [{ query: 'x', frequency: 'hourly' }, 'frequency'],
          [{ query: 'x', frequency: 'daily', providers: ['altavista'] }, 'providers.0'],
          [{ query: 'x', frequency: 'daily', providers: ['arxiv', 'arxiv'] }, 'providers'],
          [
            { query: 'x', frequency: 'daily', filters: { yearFrom: 2020, yearTo: 2010 } },
            'filters.yearTo',
          ],
          [{ query: 'x', frequency: 'daily', filters: { colour: 'red' } }, 'filters.colour'],
        ] as const) {
          const res = await create(ada, payload);
          expect(res.statusCode, JSON.stringify(payload)).toBe(400);
          expect(res.json<ApiError>().error.details?.field, JSON.stringify(payload)).toBe(field);
        }
      });

      it('refuses past ALERTS_PER_USER with 409 alerts_full', async () => {
        for (let i = 0; i < 3; i++)
          expect(
            (await create(grace, { query: `topic ${i}`, frequency: 'daily' })).statusCode,
          ).toBe(201);
        const res = await create(grace, { query: 'one too many', frequency: 'daily' });
        expect(res.statusCode).toBe(409);
        expect(res.json<ApiError>().error.details?.reason).toBe('alerts_full');
        await removeAll(grace);
      });

      it('needs a session (401)', async () => {
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: '/api/alerts',
              payload: { query: 'x', frequency: 'daily' },
            })
          ).statusCode,
        ).toBe(401);
        expect((await t.app.inject({ method: 'GET', url: '/api/alerts' })).statusCode).toBe(401);
      });
    });

    describe('GET, PATCH, DELETE /api/alerts/{id}', () => {
      it("lists only one's own, changes, pauses and deletes; another user's alert is a 404", async () => {
        const alert = (await create(ada, { query: 'graphs', frequency: 'daily' })).json<Alert>();
        expect(
          (await get(ada, '/api/alerts'))
            .json<ApiSchema<'AlertList'>>()
            .alerts.map((item) => item.id),
        ).toEqual([alert.id]);
        expect((await get(ada, '/api/alerts')).json()).toMatchObject({ total: 1, hasMore: false });
        expect((await get(grace, '/api/alerts')).json()).toEqual({
          alerts: [],
          total: 0,
          hasMore: false,
        });
        for (const [method, url, payload] of [
          ['GET', `/api/alerts/${alert.id}`, undefined],
          ['PATCH', `/api/alerts/${alert.id}`, { paused: true }],
          ['DELETE', `/api/alerts/${alert.id}`, undefined],
          ['POST', `/api/alerts/${alert.id}/run`, undefined],
          ['GET', `/api/alerts/${alert.id}/runs`, undefined],
        ] as const) {
          const res = await t.app.inject({
            method,
            url,
            headers: grace.bearer,
            ...(payload ? { payload } : {}),
          });
          expect(res.statusCode, `${method} ${url}`).toBe(404);
        }
        const paused = await t.app.inject({
          method: 'PATCH',
          url: `/api/alerts/${alert.id}`,
          headers: ada.bearer,
          payload: { paused: true, query: 'graph theory' },
        });
        expect(paused.json<Alert>()).toMatchObject({
          paused: true,
          nextRunAt: null,
          query: 'graph theory',
        });
        const resumed = await t.app.inject({
          method: 'PATCH',
          url: `/api/alerts/${alert.id}`,
          headers: ada.bearer,
          payload: { paused: false, frequency: 'weekly', providers: null },
        });
        expect(resumed.json<Alert>()).toMatchObject({
          paused: false,
          frequency: 'weekly',
          providers: null,
        });
        expect(resumed.json<Alert>().nextRunAt).not.toBeNull();
        expect(
          (
            await t.app.inject({
              method: 'PATCH',
              url: `/api/alerts/${alert.id}`,
              headers: ada.bearer,
              payload: { frequency: 'monthly' },
            })
          ).statusCode,
        ).toBe(400);
        expect((await get(ada, '/api/alerts/not-a-uuid')).statusCode).toBe(400);
        expect((await get(ada, `/api/alerts/${alert.id}/runs?cursor=bad!`)).statusCode).toBe(400);
        const deleted = await t.app.inject({
          method: 'DELETE',
          url: `/api/alerts/${alert.id}`,
          headers: ada.bearer,
        });
        // The one delete answer of every route beyond the interface's (platform/reply-shapes.ts).
        expect(deleted.statusCode).toBe(200);
        expect(deleted.json()).toEqual({ success: true, id: alert.id });
        expect((await get(ada, `/api/alerts/${alert.id}`)).statusCode).toBe(404);
      });
    });

    describe('runs and digests', () => {
      it('mails one digest of the new works with one-click unsubscribe; the same results again mail nothing', async () => {
        const alert = (
          await create(ada, {
            query: 'testing',
            providers: ['arxiv', 'crossref'],
            frequency: 'daily',
          })
        ).json<Alert>();
        const before = outboxFiles(t.dataDir);
        const first = await runNow(ada, alert.id);
        expect(first.statusCode, first.body).toBe(202);
        expect(first.json<ApiSchema<'AlertRunEnvelope'>>().run).toMatchObject({
          status: 'queued',
          reason: 'manual',
          mail: 'none',
        });
        const run = await settledRun(
          ada,
          alert.id,
          first.json<ApiSchema<'AlertRunEnvelope'>>().run.id,
        );
        expect(run).toMatchObject({ status: 'done', mail: 'sent' });
        expect(run.newCount).toBeGreaterThan(0);
        expect(run.providers.map((provider) => [provider.id, provider.status])).toEqual([
          ['arxiv', 'ok'],
          ['crossref', 'ok'],
        ]);

        const fresh = outboxFiles(t.dataDir).filter((name) => !before.includes(name));
        expect(fresh).toHaveLength(1);
        const mail: ParsedMail = await simpleParser(
          readFileSync(join(t.dataDir, 'outbox', fresh[0]!)),
        );
        expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(ada.email);
        expect(mail.subject).toBe(`${run.newCount} new results for "testing"`);
        expect(mail.messageId).toBe(`<alert-run-${run.id}@api.test>`);
        expect(headerOf(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
        const oneClickUrl =
          /^<(http:\/\/api\.test\/api\/alerts\/unsubscribe\/[A-Za-z0-9_-]{43})>$/.exec(
            headerOf(mail, 'list-unsubscribe') ?? '',
          )?.[1];
        expect(oneClickUrl).toBeDefined();
        expect(
          (mail.headers.get('list') as { unsubscribe?: { url: string } }).unsubscribe?.url,
        ).toBe(oneClickUrl);
        expect(mail.text).toContain('Save: http://app.test/dashboard?q=');
        expect(mail.text).toContain('&action=summarize');
        expect(mail.html).toContain('Unsubscribe from this alert</a>');
        expect(mail.html).not.toMatch(/<script/i);

        const again = await runNow(ada, alert.id);
        const second = await settledRun(
          ada,
          alert.id,
          again.json<ApiSchema<'AlertRunEnvelope'>>().run.id,
        );
        expect(second).toMatchObject({ status: 'done', newCount: 0, mail: 'none' });
        expect(second.found).toBe(run.found);
        expect(outboxFiles(t.dataDir).filter((name) => !before.includes(name))).toHaveLength(1);

        const listed = (await get(ada, '/api/alerts'))
          .json<ApiSchema<'AlertList'>>()
          .alerts.find((item) => item.id === alert.id);
        expect(listed?.lastRun?.id).toBe(second.id);

        // Unsubscribing: GET (a mail scanner's prefetch) changes nothing; the one-click POST, without cookies, deletes.
        const path = new URL(oneClickUrl!).pathname;
        for (let i = 0; i < 2; i++) {
          const preview = await t.app.inject({ method: 'GET', url: path });
          expect(preview.json()).toEqual({
            query: 'testing',
            frequency: 'daily',
            unsubscribed: false,
          });
        }
        expect((await get(ada, `/api/alerts/${alert.id}`)).statusCode).toBe(200);
        const post = await t.app.inject({
          method: 'POST',
          url: path,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'List-Unsubscribe=One-Click',
        });
        expect(post.statusCode, post.body).toBe(200);
        expect(post.json()).toEqual({ query: 'testing', unsubscribed: true });
        expect((await get(ada, `/api/alerts/${alert.id}`)).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'GET', url: path })).json()).toEqual({
          query: 'testing',
          frequency: 'daily',
          unsubscribed: true,
        });
        // The app's own POST (empty body) answers the same afterwards.
        expect((await t.app.inject({ method: 'POST', url: path })).json()).toEqual({
          query: 'testing',
          unsubscribed: true,
        });
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: '/api/alerts/unsubscribe/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
            })
          ).statusCode,
        ).toBe(404);
      });

      it('a provider failure makes the run partial; the next run catches up on what it missed', async () => {
        const alert = (
          await create(grace, {
            query: 'catching up',
            providers: ['arxiv', 'zenodo'],
            frequency: 'daily',
          })
        ).json<Alert>();
        zenodoDown = true;
        const first = await settledRun(
          grace,
          alert.id,
          (await runNow(grace, alert.id)).json<ApiSchema<'AlertRunEnvelope'>>().run.id,
        );
        expect(first.status).toBe('partial');
        expect(first.providers.find((provider) => provider.id === 'zenodo')?.status).not.toBe('ok');
        // Zenodo is back; the cache holds only answers that succeeded, so the next run asks it again.
        zenodoDown = false;
        const second = await settledRun(
          grace,
          alert.id,
          (await runNow(grace, alert.id)).json<ApiSchema<'AlertRunEnvelope'>>().run.id,
        );
        expect(second.status).toBe('done');
        expect(second.providers.find((provider) => provider.id === 'zenodo')?.status).toBe('ok');
        expect(second.newCount).toBeGreaterThan(0);
        expect(second.mail).toBe('sent');
        await removeAll(grace);
      });

      it('limits runs by hand per user (429 with Retry-After)', async () => {
        const alert = (
          await create(grace, { query: 'rate', providers: ['arxiv'], frequency: 'daily' })
        ).json<Alert>();
        let refused;
        for (let i = 0; i < 6 && !refused; i++) {
          const res = await runNow(grace, alert.id);
          if (res.statusCode === 429) refused = res;
        }
        expect(refused?.headers['retry-after']).toBeDefined();
        await removeAll(grace);
      });

      it('forgets finished runs and used unsubscribe links a year old, and keeps the rest', async () => {
        const alert = (
          await create(grace, { query: 'history', providers: ['arxiv'], frequency: 'weekly' })
        ).json<Alert>();
        const db = t.app.ctx.db;
        const old = new Date(Date.now() - (HISTORY_KEPT_DAYS + 1) * 86_400_000);
        const recent = new Date(Date.now() - (HISTORY_KEPT_DAYS - 1) * 86_400_000);
        const runs = await db
          .insert(alertRuns)
          .values([
            { alertId: alert.id, reason: 'manual', status: 'done', createdAt: old },
            { alertId: alert.id, reason: 'manual', status: 'running', createdAt: old },
            { alertId: alert.id, reason: 'manual', status: 'partial', createdAt: recent },
          ])
          .returning({ id: alertRuns.id });
        const [oldToken, recentToken] = [randomToken(), randomToken()];
        await db.insert(alertUnsubscribes).values([
          { tokenHash: hashToken(oldToken), query: 'old', frequency: 'daily', unsubscribedAt: old },
          {
            tokenHash: hashToken(recentToken),
            query: 'recent',
            frequency: 'daily',
            unsubscribedAt: recent,
          },
        ]);

        const pruned = await pruneAlertHistory(db);
        expect(pruned.runs).toBeGreaterThanOrEqual(1);
        expect(pruned.tombstones).toBeGreaterThanOrEqual(1);
        const listed = (await get(grace, `/api/alerts/${alert.id}/runs`))
          .json<ApiSchema<'AlertRunList'>>()
          .runs.map((run) => run.id);
        // The finished old run is gone; one still running is kept, as is the recent one.
        expect(listed.sort()).toEqual([runs[1]!.id, runs[2]!.id].sort());
        expect(
          (await t.app.inject({ method: 'GET', url: `/api/alerts/unsubscribe/${oldToken}` }))
            .statusCode,
        ).toBe(404);
        expect(
          (
            await t.app.inject({ method: 'GET', url: `/api/alerts/unsubscribe/${recentToken}` })
          ).json(),
        ).toMatchObject({ query: 'recent', unsubscribed: true });
        await removeAll(grace);
      });

      it('reports queue depth, run durations and digests in /metrics', async () => {
        const res = await t.app.inject({ method: 'GET', url: '/metrics' });
        expect(res.body).toMatch(/job_queue_depth\{queue="alerts\.run"\} \d+/);
        expect(res.body).toMatch(/alert_run_duration_seconds_count\{status="done"\} [1-9]/);
        expect(res.body).toMatch(/alert_digests_total\{outcome="sent"\} [1-9]/);
      });
    });
  });
}
