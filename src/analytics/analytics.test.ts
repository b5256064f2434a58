import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { searchEvents, shareLinks, workspaceResources } from '../platform/db/schema.js';
import {
  DIALECTS,
  addResource,
  as,
  createWorkspace,
  shareWorkspace,
} from '../workspaces/test-support/helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`analytics (${leg.name})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
    });
    afterAll(async () => t?.close());

    async function recordSearch(user: TestUser | null, query: string, ago: number): Promise<void> {
      await t.app.ctx.db.insert(searchEvents).values({
        userId: user?.id ?? null,
        anonymousId: user ? null : '11111111-1111-4111-8111-111111111111',
        query,
        normalizedQuery: query.trim().toLowerCase().replace(/\s+/g, ' '),
        providers: ['arxiv', 'crossref'],
        resultCount: 10,
        tookMs: 120,
        createdAt: new Date(Date.now() - ago),
      });
    }

    describe('GET /api/analytics/search', () => {
      let user: TestUser;
      beforeAll(async () => {
        user = await buildUser(t.app);
        const other = await buildUser(t.app);
        await recordSearch(user, 'Machine Learning genomics', 3 * HOUR);
        await recordSearch(user, 'machine learning  genomics', 2 * HOUR);
        await recordSearch(user, 'machine learning GENOMICS', 1 * HOUR);
        await recordSearch(user, 'machine learning interpretability', 5 * HOUR);
        await recordSearch(user, 'protein folding', 3 * DAY);
        await recordSearch(user, 'old topic from last year', 40 * DAY);
        await recordSearch(other, 'someone else entirely', HOUR);
        await recordSearch(null, 'anonymous visitor', HOUR);
      });

      it.each(DIALECTS)(
        "groups the week's searches by normalised query, with topics (default period, dialect %s)",
        async (dialect) => {
          const res = await t.app.inject({
            method: 'GET',
            url: '/api/analytics/search',
            headers: as(user, dialect),
          });
          expect(res.statusCode).toBe(200);
          const body = res.json();
          expect(body.period).toBe('week');
          expect(body.totalSearches).toBe(5);
          expect(body.searches).toHaveLength(3);
          expect(body.searches[0]).toEqual({
            query: 'machine learning GENOMICS',
            count: 3,
            lastSearched: expect.any(String),
          });
          expect(Date.now() - new Date(body.searches[0].lastSearched).getTime()).toBeLessThan(
            HOUR + 60_000,
          );
          expect(body.searches.map((s: { query: string }) => s.query)).toEqual([
            'machine learning GENOMICS',
            'machine learning interpretability',
            'protein folding',
          ]);
          expect(body.popularTopics[0]).toBe('machine learning');
          expect(body.popularTopics).toContain('genomics');
          expect(body.popularTopics).not.toContain('someone');
          // The counts behind the topics, in the same order: "machine learning" is in the 3 + 1 searches of
          // two queries, "genomics" in 3, "protein" in 1 (stopwords like "for" never make a topic).
          expect(body.topicCounts.map((entry: { topic: string }) => entry.topic)).toEqual(
            body.popularTopics,
          );
          expect(body.topicCounts).toEqual(
            expect.arrayContaining([
              { topic: 'machine learning', count: 4 },
              { topic: 'genomics', count: 3 },
              { topic: 'protein', count: 1 },
            ]),
          );
          expect(body.topicCounts[0]).toEqual({ topic: 'machine learning', count: 4 });
          expect(Math.abs(new Date(body.since).getTime() - (Date.now() - 7 * DAY))).toBeLessThan(
            60_000,
          );
        },
      );

      it.each([
        ['day', 4],
        ['week', 5],
        ['month', 5],
        ['year', 6],
      ])('counts period=%s', async (period, total) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/analytics/search?period=${period}`,
          headers: user.bearer,
        });
        expect(res.json()).toMatchObject({ period, totalSearches: total });
      });

      it('answers a user with no searches with empty lists', async () => {
        const fresh = await buildUser(t.app);
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/analytics/search',
          headers: fresh.bearer,
        });
        expect(res.json()).toMatchObject({
          searches: [],
          totalSearches: 0,
          popularTopics: [],
          topicCounts: [],
          period: 'week',
        });
      });

      it('rejects an unknown period naming the field, and answers 401 without a session', async () => {
        const bad = await t.app.inject({
          method: 'GET',
          url: '/api/analytics/search?period=decade',
          headers: user.bearer,
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().error).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: { field: 'period' },
        });
        expect(
          (await t.app.inject({ method: 'GET', url: '/api/analytics/search' })).statusCode,
        ).toBe(401);
      });
    });

    describe('GET /api/analytics/resources', () => {
      it.each(DIALECTS)(
        'counts saved and shared resources, categories and reading time (dialect %s)',
        async (dialect) => {
          const user = await buildUser(t.app);
          const stranger = await buildUser(t.app);
          const shared = await createWorkspace(t.app, user, { name: 'shared' });
          const privateWs = await createWorkspace(t.app, user, { name: 'private' });
          const revokedWs = await createWorkspace(t.app, user, { name: 'revoked' });
          const expiredWs = await createWorkspace(t.app, user, { name: 'expired' });
          // Known reading times: 12 minutes, and a Variant B summary's 7.
          await addResource(t.app, user, shared.id, {
            title: 'Known',
            type: 'article',
            tags: ['ml'],
            data: { readingTimeMinutes: 12 },
          });
          await addResource(t.app, user, shared.id, {
            title: 'Summarised',
            type: 'article',
            data: { summary: { metadata: { readingTime: 7 } } },
          });
          // Estimated: 1 title word + 399 abstract words = 400 words = 2 minutes at 200 wpm.
          await addResource(t.app, user, privateWs.id, {
            title: 'Estimated',
            tags: ['ML', 'vision'],
            data: { abstract: Array.from({ length: 399 }, () => 'word').join(' ') },
          });
          await addResource(t.app, user, revokedWs.id, {
            title: 'Revoked',
            type: 'video',
            data: { readingTimeMinutes: 1 },
          });
          await addResource(t.app, user, expiredWs.id, {
            title: 'Expired',
            type: 'video',
            data: { readingTimeMinutes: 'soon' },
          });
          await shareWorkspace(t.app, user, shared.id);
          const revoked = await shareWorkspace(t.app, user, revokedWs.id);
          await t.app.inject({
            method: 'DELETE',
            url: `/api/workspaces/${revokedWs.id}/share/${revoked.id}`,
            headers: user.bearer,
          });
          const expired = await shareWorkspace(t.app, user, expiredWs.id);
          await t.app.ctx.db
            .update(shareLinks)
            .set({ expiresAt: new Date(Date.now() - 1000) })
            .where(eq(shareLinks.id, expired.id));
          const strangers = await createWorkspace(t.app, stranger);
          await addResource(t.app, stranger, strangers.id, {
            title: 'Not mine',
            type: 'dataset',
            data: { readingTimeMinutes: 500 },
          });
          await shareWorkspace(t.app, stranger, strangers.id);

          const res = await t.app.inject({
            method: 'GET',
            url: '/api/analytics/resources',
            headers: as(user, dialect),
          });
          expect(res.statusCode).toBe(200);
          const body = res.json();
          expect(body).toMatchObject({ savedResources: 5, sharedResources: 2 });
          expect(body.topCategories).toEqual([
            { category: 'article-journal', count: 2 },
            { category: 'motion_picture', count: 2 },
            { category: 'ml', count: 1 },
            { category: 'vision', count: 1 },
          ]);
          // 12 + 7 + 2 + 1 + (title "Expired" alone: 1/200 of a minute), rounded up.
          expect(body.readingTime).toBe(23);
        },
      );

      it('answers zeros for a user with nothing saved, and 401 without a session', async () => {
        const fresh = await buildUser(t.app);
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/analytics/resources',
          headers: fresh.bearer,
        });
        expect(res.json()).toEqual({
          savedResources: 0,
          sharedResources: 0,
          topCategories: [],
          readingTime: 0,
        });
        expect(
          (await t.app.inject({ method: 'GET', url: '/api/analytics/resources' })).statusCode,
        ).toBe(401);
      });

      it('clamps absurd stored reading times', async () => {
        const user = await buildUser(t.app);
        const ws = await createWorkspace(t.app, user);
        const resource = await addResource(t.app, user, ws.id, { title: 'x' });
        await t.app.ctx.db
          .update(workspaceResources)
          .set({ data: { readingTimeMinutes: -50 } })
          .where(eq(workspaceResources.id, resource.id));
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/analytics/resources',
          headers: user.bearer,
        });
        expect(res.json().readingTime).toBe(0);
      });
    });
  });
}
