import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { hashToken } from '../platform/crypto.js';
import { shareLinks, workspaceResources } from '../platform/db/schema.js';
import { DIALECTS, addResource, annotate, as, createWorkspace, shareWorkspace, UNKNOWN_ID } from './test-support/helpers.js';

const DAY = 86_400_000;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`share links (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
    });
    afterAll(async () => t?.close());

    describe('POST /api/workspaces/{id}/share', () => {
      it.each(DIALECTS)('creates a read-only link valid 30 days by default, with its public url (dialect %s)', async (dialect) => {
        const ws = await createWorkspace(t.app, owner);
        const res = await t.app.inject({ method: 'POST', url: `/api/workspaces/${ws.id}/share`, headers: as(owner, dialect), payload: {} });
        expect(res.statusCode).toBe(201);
        const link = res.json();
        expect(Object.keys(link).sort()).toEqual(['active', 'createdAt', 'expiresAt', 'id', 'pausedAt', 'readOnly', 'token', 'url', 'workspaceId']);
        expect(link).toMatchObject({ workspaceId: ws.id, readOnly: true, active: true });
        // 32 random bytes, base64url: 256 bits.
        expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(link.url).toBe(`http://api.test/share/${link.token}`);
        expect(Math.abs(new Date(link.expiresAt).getTime() - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
        const [row] = await t.app.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, link.id));
        expect(row?.tokenHash).toBe(hashToken(link.token));
        expect(row?.tokenSealed).not.toContain(link.token);
      });

      it('takes no body at all, as the document says (its body is optional): a link valid 30 days', async () => {
        const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
        expect(doc.paths['/api/workspaces/{id}/share'].post.requestBody.required).toBe(false);
        // A body whose schema needs fields stays required.
        expect(doc.paths['/api/workspaces'].post.requestBody.required).toBe(true);
        const ws = await createWorkspace(t.app, owner);
        const res = await t.app.inject({ method: 'POST', url: `/api/workspaces/${ws.id}/share`, headers: owner.bearer });
        expect(res.statusCode).toBe(201);
        expect(Math.abs(new Date(res.json().expiresAt).getTime() - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
      });

      it('takes expiresInDays or expiresAt', async () => {
        const ws = await createWorkspace(t.app, owner);
        const inDays = await shareWorkspace(t.app, owner, ws.id, { expiresInDays: 365, readOnly: true });
        const [row] = await t.app.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, inDays.id));
        expect(Math.abs(row!.expiresAt.getTime() - (Date.now() + 365 * DAY))).toBeLessThan(60_000);
        const at = new Date(Date.now() + 2 * DAY);
        const res = await t.app.inject({ method: 'POST', url: `/api/workspaces/${ws.id}/share`, headers: owner.bearer, payload: { expiresAt: at.toISOString() } });
        expect(new Date(res.json().expiresAt).getTime()).toBe(at.getTime());
      });

      it.each([
        [{ expiresInDays: 0 }, 'expiresInDays'],
        [{ expiresInDays: 366 }, 'expiresInDays'],
        [{ expiresInDays: 1.5 }, 'expiresInDays'],
        [{ expiresAt: 'tomorrow' }, 'expiresAt'],
        [{ expiresAt: new Date(Date.now() - DAY).toISOString() }, 'expiresAt'],
        [{ expiresAt: new Date(Date.now() + 400 * DAY).toISOString() }, 'expiresAt'],
        [{ expiresInDays: 3, expiresAt: new Date(Date.now() + DAY).toISOString() }, 'expiresAt'],
        [{ readOnly: false }, 'readOnly'],
      ])('rejects %j naming the field %s', async (payload, field) => {
        const ws = await createWorkspace(t.app, owner);
        const res = await t.app.inject({ method: 'POST', url: `/api/workspaces/${ws.id}/share`, headers: owner.bearer, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
      });

      it('answers 404 for another user\'s workspace, 401 without a session', async () => {
        const ws = await createWorkspace(t.app, owner);
        expect((await t.app.inject({ method: 'POST', url: `/api/workspaces/${ws.id}/share`, headers: stranger.bearer, payload: {} })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'POST', url: `/api/workspaces/${ws.id}/share`, payload: {} })).statusCode).toBe(401);
        expect(await t.app.ctx.db.$count(shareLinks, eq(shareLinks.workspaceId, ws.id))).toBe(0);
      });
    });

    describe('GET /api/workspaces/{id}/share', () => {
      it.each(DIALECTS)('lists unrevoked links newest first with their tokens; expired ones inactive (dialect %s)', async (dialect) => {
        const ws = await createWorkspace(t.app, owner);
        const old = await shareWorkspace(t.app, owner, ws.id);
        const revoked = await shareWorkspace(t.app, owner, ws.id);
        const fresh = await shareWorkspace(t.app, owner, ws.id);
        await t.app.ctx.db.update(shareLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(shareLinks.id, old.id));
        await t.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws.id}/share/${revoked.id}`, headers: owner.bearer });
        const res = await t.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}/share`, headers: as(owner, dialect) });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject([
          { id: fresh.id, token: fresh.token, url: fresh.url, active: true },
          { id: old.id, token: old.token, active: false },
        ]);
      });

      it('answers 404 for another user\'s workspace, 401 without a session', async () => {
        const ws = await createWorkspace(t.app, owner);
        await shareWorkspace(t.app, owner, ws.id);
        expect((await t.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}/share`, headers: stranger.bearer })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}/share` })).statusCode).toBe(401);
      });
    });

    describe('DELETE /api/workspaces/{id}/share/{shareId}', () => {
      it.each(DIALECTS)('revokes a link: its page answers 404 at once (dialect %s)', async (dialect) => {
        const ws = await createWorkspace(t.app, owner, { name: 'Revocable' });
        const link = await shareWorkspace(t.app, owner, ws.id);
        expect((await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).statusCode).toBe(200);
        const res = await t.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws.id}/share/${link.id}`, headers: as(owner, dialect) });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true, id: link.id });
        const page = await t.app.inject({ method: 'GET', url: `/share/${link.token}` });
        expect(page.statusCode).toBe(404);
        expect(page.body).not.toContain('Revocable');
        expect((await t.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws.id}/share/${link.id}`, headers: owner.bearer })).statusCode).toBe(404);
      });

      it('answers 404 for another user\'s link or through another workspace; 400 for a malformed id; 401 without a session', async () => {
        const ws = await createWorkspace(t.app, owner);
        const link = await shareWorkspace(t.app, owner, ws.id);
        const strangersWs = await createWorkspace(t.app, stranger);
        expect((await t.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws.id}/share/${link.id}`, headers: stranger.bearer })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'DELETE', url: `/api/workspaces/${strangersWs.id}/share/${link.id}`, headers: stranger.bearer })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws.id}/share/${UNKNOWN_ID}`, headers: owner.bearer })).statusCode).toBe(404);
        const malformed = await t.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws.id}/share/nope`, headers: owner.bearer });
        expect(malformed.statusCode).toBe(400);
        expect(malformed.json().error.details.field).toBe('shareId');
        expect((await t.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws.id}/share/${link.id}` })).statusCode).toBe(401);
        expect((await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).statusCode).toBe(200);
      });
    });

    describe('GET /share/{token}', () => {
      it('answers a page number that is not one with a 400 HTML page, as the document says', async () => {
        const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
        expect(Object.keys(doc.paths['/share/{token}'].get.responses['400'].content)).toEqual(['text/html']);
        const ws = await createWorkspace(t.app, owner);
        const link = await shareWorkspace(t.app, owner, ws.id);
        for (const page of ['abc', '0', '1001', '1.5']) {
          const res = await t.app.inject({ method: 'GET', url: `/share/${link.token}?page=${page}` });
          expect(res.statusCode, page).toBe(400);
          expect(res.headers['content-type'], page).toBe('text/html; charset=utf-8');
          expect(res.headers['content-security-policy'], page).toBeDefined();
          expect(res.body, page).toContain('<h1>No such page</h1>');
        }
        expect((await t.app.inject({ method: 'GET', url: `/share/${link.token}?page=2` })).statusCode).toBe(200);
      });

      it('renders the workspace, its resources and annotations as escaped, secured HTML without cookies', async () => {
        const ws = await createWorkspace(t.app, owner, { name: 'Rates < 5% & notes', description: 'What we read in "spring"' });
        const paper = await addResource(t.app, owner, ws.id, {
          title: 'Attention Is All You Need',
          url: 'https://arxiv.org/abs/1706.03762',
          authors: ['Ashish Vaswani', 'Noam Shazeer'],
          tags: ['nlp', 'transformers'],
          notes: 'Section 3 explains multi-head attention.',
          data: { secret: 'internal-data-not-for-the-page' },
        });
        await annotate(t.app, owner, paper.id, { body: 'Scaled dot-product <3', highlights: { ranges: [{ start: 0, end: 9, text: 'attention' }] } });
        const link = await shareWorkspace(t.app, owner, ws.id);

        // Even a signed-in visitor with cookies gets a page that sets none.
        const res = await t.app.inject({ method: 'GET', url: `/share/${link.token}`, headers: { cookie: owner.cookie } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['set-cookie']).toBeUndefined();
        const csp = String(res.headers['content-security-policy']);
        expect(csp).toContain("default-src 'none'");
        expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
        expect(csp).not.toContain('unsafe-inline');
        expect(csp).toContain("frame-ancestors 'none'");
        expect(res.headers['x-robots-tag']).toContain('noindex');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['cache-control']).toBe('no-store');

        const html = res.body;
        expect(html).toContain('<meta name="robots" content="noindex, nofollow, noarchive">');
        expect(html).toContain('<h1>Rates &lt; 5% &amp; notes</h1>');
        expect(html).toContain('What we read in &quot;spring&quot;');
        expect(html).toContain('<a href="https://arxiv.org/abs/1706.03762" rel="noopener noreferrer nofollow ugc">Attention Is All You Need</a>');
        expect(html).toContain('Ashish Vaswani, Noam Shazeer');
        expect(html).toContain('<li>transformers</li>');
        expect(html).toContain('Section 3 explains multi-head attention.');
        expect(html).toContain('Scaled dot-product &lt;3');
        expect(html).toContain('<blockquote>attention</blockquote>');
        expect(html).not.toContain('internal-data-not-for-the-page');
        expect(html).not.toContain(owner.email);
        expect(html).not.toContain(link.token);
        expect(html).not.toMatch(/<script/i);
      });

      it('links a title only when its URL is http(s)', async () => {
        const ws = await createWorkspace(t.app, owner);
        const resource = await addResource(t.app, owner, ws.id, { title: 'Sneaky link', url: 'https://example.org/ok' });
        // Input validation refuses such URLs; a row written some other way must still not become a link.
        await t.app.ctx.db.update(workspaceResources).set({ url: 'javascript:alert(1)' }).where(eq(workspaceResources.id, resource.id));
        const link = await shareWorkspace(t.app, owner, ws.id);
        const html = (await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).body;
        expect(html).toContain('<h2>Sneaky link</h2>');
        expect(html).not.toContain('javascript:');
      });

      it('shows an empty workspace plainly', async () => {
        const ws = await createWorkspace(t.app, owner, { name: 'Nothing yet' });
        const link = await shareWorkspace(t.app, owner, ws.id);
        const res = await t.app.inject({ method: 'GET', url: `/share/${link.token}` });
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain('This workspace has no resources yet.');
      });

      it('answers the same plain 404 page for unknown, malformed, expired and revoked tokens, with no cookies', async () => {
        const ws = await createWorkspace(t.app, owner, { name: 'Private stuff' });
        const expired = await shareWorkspace(t.app, owner, ws.id);
        await t.app.ctx.db.update(shareLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(shareLinks.id, expired.id));
        const revoked = await shareWorkspace(t.app, owner, ws.id);
        await t.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws.id}/share/${revoked.id}`, headers: owner.bearer });
        const tokens = [expired.token, revoked.token, 'A'.repeat(43), 'short', `${'x'.repeat(300)}`, '%3Cscript%3E'];
        for (const token of tokens) {
          const res = await t.app.inject({ method: 'GET', url: `/share/${token}` });
          expect(res.statusCode, token).toBe(404);
          expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(res.headers['content-security-policy']).toContain("default-src 'none'");
          expect(res.headers['x-robots-tag']).toContain('noindex');
          expect(res.headers['set-cookie']).toBeUndefined();
          expect(res.body).toContain('Link not available');
          expect(res.body).not.toContain('Private stuff');
          expect(res.body).not.toContain('<script');
        }
      });

      it('shows exactly the shared workspace: not the owner\'s other workspaces', async () => {
        const shared = await createWorkspace(t.app, owner, { name: 'Shared one' });
        const other = await createWorkspace(t.app, owner, { name: 'Other one' });
        await addResource(t.app, owner, shared.id, { title: 'Visible paper' });
        await addResource(t.app, owner, other.id, { title: 'Hidden paper' });
        const link = await shareWorkspace(t.app, owner, shared.id);
        const html = (await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).body;
        expect(html).toContain('Visible paper');
        expect(html).not.toContain('Hidden paper');
        expect(html).not.toContain('Other one');
      });
    });
  });
}
