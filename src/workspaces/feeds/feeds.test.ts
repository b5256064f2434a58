/**
 * Bibliography feeds on both stores: made by any member for themselves, the URL shown once, answering
 * the export without a session (Content-Type, ETag, 304, Cache-Control: private), per-feed rate limit,
 * 404 once revoked, unknown, or its maker has left or been removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../../../test/support/api-types.js';
import { buildTestApp, storeLegs, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { addResource, createWorkspace } from '../test-support/helpers.js';

const FEED_LIMIT = 5;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`bibliography feeds (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let viewer: TestUser;
    let stranger: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg, env: { RATE_LIMIT_FEED_PER_HOUR: String(FEED_LIMIT) } });
      [owner, viewer, stranger] = await Promise.all([
        buildUser(t.app),
        buildUser(t.app),
        buildUser(t.app),
      ]);
    });
    afterAll(async () => t?.close());

    const makeFeed = (workspaceId: string, user: TestUser, payload: object = {}) =>
      t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/feeds`,
        headers: user.bearer,
        payload,
      });
    /** The path of a feed's URL (the app answers it without a session). */
    const pathOf = (url: string) => new URL(url).pathname;
    const fetchFeed = (path: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: path, headers });
    const join = async (workspaceId: string, user: TestUser, role = 'viewer') => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/members`,
        headers: owner.bearer,
        payload: { email: user.email, role },
      });
      expect(res.statusCode, res.body).toBe(201);
    };

    it('answers the export by its secret URL alone, with an ETag, 304 and private caching', async () => {
      const ws = await createWorkspace(t.app, owner, { name: 'Feed me' });
      await addResource(t.app, owner, ws.id, {
        title: 'Attention Is All You Need',
        authors: ['Ashish Vaswani'],
        issued: '2017',
      });
      const made = await makeFeed(ws.id, owner, { format: 'bibtex' });
      expect(made.statusCode, made.body).toBe(201);
      const feed = made.json<ApiSchema<'FeedCreated'>>();
      expect(Object.keys(feed).sort()).toEqual(['createdAt', 'format', 'id', 'url', 'workspaceId']);
      expect(feed.url).toMatch(/^https?:\/\/[^/]+\/api\/feeds\/[A-Za-z0-9_-]{43}\.bib$/);

      const res = await fetchFeed(pathOf(feed.url));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).toMatch(/^@\w+\{vaswani2017attention,/m);
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await fetchFeed(pathOf(feed.url), { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // A change to the workspace is a new file, with a new ETag.
      await addResource(t.app, owner, ws.id, { title: 'Deep learning' });
      const changed = await fetchFeed(pathOf(feed.url), { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);

      // Listed without its URL; the secret is in no later reply.
      const listed = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${ws.id}/feeds`,
        headers: owner.bearer,
      });
      expect(listed.json()).toEqual({
        feeds: [{ id: feed.id, workspaceId: ws.id, format: 'bibtex', createdAt: feed.createdAt }],
        total: 1,
        hasMore: false,
      });
      const secret = /feeds\/([^.]+)\./.exec(feed.url)![1]!;
      expect(listed.body).not.toContain(secret);

      // RIS and CSL-JSON feeds answer in their formats.
      for (const [format, type] of [
        ['ris', 'application/x-research-info-systems; charset=utf-8'],
        ['csljson', 'application/vnd.citationstyles.csl+json; charset=utf-8'],
      ] as const) {
        const other = (await makeFeed(ws.id, owner, { format })).json<ApiSchema<'FeedCreated'>>();
        const body = await fetchFeed(pathOf(other.url));
        expect(body.statusCode).toBe(200);
        expect(body.headers['content-type']).toBe(type);
        // Another format's extension is not this feed.
        expect((await fetchFeed(pathOf(other.url).replace(/\.\w+$/, '.bib'))).statusCode).toBe(404);
      }

      // Revoked: 404 from then on; revoking again, or an unknown feed, is a 404 too.
      const revoke = () =>
        t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${ws.id}/feeds/${feed.id}`,
          headers: owner.bearer,
        });
      expect((await revoke()).statusCode).toBe(200);
      expect((await fetchFeed(pathOf(feed.url))).statusCode).toBe(404);
      expect((await revoke()).statusCode).toBe(404);
      expect((await fetchFeed(`/api/feeds/${'a'.repeat(43)}.bib`)).statusCode).toBe(404);
      expect((await fetchFeed('/api/feeds/not-a-feed')).statusCode).toBe(404);
    });

    it('any member makes feeds for themselves; others see and revoke none of them; a stranger gets 404', async () => {
      const ws = await createWorkspace(t.app, owner);
      await join(ws.id, viewer);
      const viewers = await makeFeed(ws.id, viewer);
      expect(viewers.statusCode, viewers.body).toBe(201);
      const feed = viewers.json<ApiSchema<'FeedCreated'>>();
      const ownersList = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${ws.id}/feeds`,
        headers: owner.bearer,
      });
      expect(ownersList.json()).toEqual({ feeds: [], total: 0, hasMore: false });
      const ownerRevokes = await t.app.inject({
        method: 'DELETE',
        url: `/api/workspaces/${ws.id}/feeds/${feed.id}`,
        headers: owner.bearer,
      });
      expect(ownerRevokes.statusCode).toBe(404);
      expect((await makeFeed(ws.id, stranger)).statusCode).toBe(404);
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/workspaces/${ws.id}/feeds`, payload: {} }))
          .statusCode,
      ).toBe(401);
      expect((await makeFeed(ws.id, viewer, { format: 'docx' })).statusCode).toBe(400);
      expect((await fetchFeed(pathOf(feed.url))).statusCode).toBe(200);
    });

    it("a member's feeds stop when they are removed or leave, and do not come back when they rejoin", async () => {
      const ws = await createWorkspace(t.app, owner);
      const [removed, leaving] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
      await join(ws.id, removed, 'editor');
      await join(ws.id, leaving);
      const removedFeed = (await makeFeed(ws.id, removed)).json<ApiSchema<'FeedCreated'>>();
      const leavingFeed = (await makeFeed(ws.id, leaving)).json<ApiSchema<'FeedCreated'>>();
      const ownersFeed = (await makeFeed(ws.id, owner)).json<ApiSchema<'FeedCreated'>>();
      expect((await fetchFeed(pathOf(removedFeed.url))).statusCode).toBe(200);

      const removal = await t.app.inject({
        method: 'DELETE',
        url: `/api/workspaces/${ws.id}/members/${removed.id}`,
        headers: owner.bearer,
      });
      expect(removal.statusCode, removal.body).toBe(200);
      const leave = await t.app.inject({
        method: 'DELETE',
        url: `/api/workspaces/${ws.id}/members/${leaving.id}`,
        headers: leaving.bearer,
      });
      expect(leave.statusCode, leave.body).toBe(200);
      expect((await fetchFeed(pathOf(removedFeed.url))).statusCode).toBe(404);
      expect((await fetchFeed(pathOf(leavingFeed.url))).statusCode).toBe(404);
      expect((await fetchFeed(pathOf(ownersFeed.url))).statusCode).toBe(200);

      await join(ws.id, leaving);
      expect((await fetchFeed(pathOf(leavingFeed.url))).statusCode).toBe(404);
    });

    it('limits each feed on its own: past the limit a 429 with Retry-After, other feeds unaffected', async () => {
      const ws = await createWorkspace(t.app, owner);
      const busy = (await makeFeed(ws.id, owner)).json<ApiSchema<'FeedCreated'>>();
      const quiet = (await makeFeed(ws.id, owner)).json<ApiSchema<'FeedCreated'>>();
      for (let n = 0; n < FEED_LIMIT; n++)
        expect((await fetchFeed(pathOf(busy.url))).statusCode).toBe(200);
      const refused = await fetchFeed(pathOf(busy.url));
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await fetchFeed(pathOf(quiet.url))).statusCode).toBe(200);
    });
  });
}
