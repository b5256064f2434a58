import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { hashToken } from '../../platform/crypto.js';
import { shareLinks, workspaceMembers, workspaceResources } from '../../platform/db/schema.js';
import {
  DIALECTS,
  addResource,
  annotate,
  as,
  createWorkspace,
  shareWorkspace,
  UNKNOWN_ID,
} from '../test-support/helpers.js';

const DAY = 86_400_000;
const JOINS_PER_HOUR = 6;

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`share links (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({
        leg,
        env: { RATE_LIMIT_SHARE_JOINS_PER_HOUR: String(JOINS_PER_HOUR) },
      });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
    });

    /** A member of the owner's workspace `workspaceId` with `role`, added directly. */
    async function member(workspaceId: string, role: 'editor' | 'viewer'): Promise<TestUser> {
      const user = await buildUser(t.app);
      await t.app.ctx.db
        .insert(workspaceMembers)
        .values({ workspaceId, userId: user.id, role, addedBy: owner.id });
      return user;
    }

    const join = (token: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: `/api/share/${token}/join`, headers });
    const memberRow = async (workspaceId: string, userId: string) =>
      (
        await t.app.ctx.db
          .select()
          .from(workspaceMembers)
          .where(
            and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)),
          )
      )[0];
    afterAll(async () => t?.close());

    describe('POST /api/workspaces/{id}/share', () => {
      it.each(DIALECTS)(
        'creates a read-only link valid 30 days by default, with its public url (dialect %s)',
        async (dialect) => {
          const ws = await createWorkspace(t.app, owner);
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${ws.id}/share`,
            headers: as(owner, dialect),
            payload: {},
          });
          expect(res.statusCode).toBe(201);
          const link = res.json();
          expect(Object.keys(link).sort()).toEqual([
            'active',
            'allowJoin',
            'createdAt',
            'expiresAt',
            'id',
            'pausedAt',
            'readOnly',
            'token',
            'url',
            'workspaceId',
          ]);
          // Nobody joins through a read-only link unless its owner says so (issue 33).
          expect(link).toMatchObject({
            workspaceId: ws.id,
            readOnly: true,
            allowJoin: false,
            active: true,
          });
          // 32 random bytes, base64url: 256 bits.
          expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
          expect(link.url).toBe(`http://api.test/share/${link.token}`);
          expect(
            Math.abs(new Date(link.expiresAt).getTime() - (Date.now() + 30 * DAY)),
          ).toBeLessThan(60_000);
          const [row] = await t.app.ctx.db
            .select()
            .from(shareLinks)
            .where(eq(shareLinks.id, link.id));
          expect(row?.tokenHash).toBe(hashToken(link.token));
          expect(row?.tokenSealed).not.toContain(link.token);
        },
      );

      it('takes no body at all, as the document says (its body is optional): a link valid 30 days', async () => {
        const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
        expect(doc.paths['/api/workspaces/{id}/share'].post.requestBody.required).toBe(false);
        // A body whose schema needs fields stays required.
        expect(doc.paths['/api/workspaces'].post.requestBody.required).toBe(true);
        const ws = await createWorkspace(t.app, owner);
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws.id}/share`,
          headers: owner.bearer,
        });
        expect(res.statusCode).toBe(201);
        expect(
          Math.abs(new Date(res.json().expiresAt).getTime() - (Date.now() + 30 * DAY)),
        ).toBeLessThan(60_000);
      });

      it('takes expiresInDays or expiresAt', async () => {
        const ws = await createWorkspace(t.app, owner);
        const inDays = await shareWorkspace(t.app, owner, ws.id, {
          expiresInDays: 365,
          readOnly: true,
        });
        const [row] = await t.app.ctx.db
          .select()
          .from(shareLinks)
          .where(eq(shareLinks.id, inDays.id));
        expect(Math.abs(row!.expiresAt.getTime() - (Date.now() + 365 * DAY))).toBeLessThan(60_000);
        const at = new Date(Date.now() + 2 * DAY);
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws.id}/share`,
          headers: owner.bearer,
          payload: { expiresAt: at.toISOString() },
        });
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
        [{ readOnly: 'no' }, 'readOnly'],
      ])('rejects %j naming the field %s', async (payload, field) => {
        const ws = await createWorkspace(t.app, owner);
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws.id}/share`,
          headers: owner.bearer,
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
      });

      it("answers 404 for another user's workspace, 401 without a session", async () => {
        const ws = await createWorkspace(t.app, owner);
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${ws.id}/share`,
              headers: stranger.bearer,
              payload: {},
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${ws.id}/share`,
              payload: {},
            })
          ).statusCode,
        ).toBe(401);
        expect(await t.app.ctx.db.$count(shareLinks, eq(shareLinks.workspaceId, ws.id))).toBe(0);
      });
    });

    describe('POST /api/workspaces/{id}/share (editable links)', () => {
      it.each(DIALECTS)(
        'the owner makes an editable link (readOnly: false), noted as made by them (dialect %s)',
        async (dialect) => {
          const ws = await createWorkspace(t.app, owner);
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${ws.id}/share`,
            headers: as(owner, dialect),
            payload: { readOnly: false, expiresInDays: 7 },
          });
          expect(res.statusCode).toBe(201);
          expect(res.json()).toMatchObject({ readOnly: false, active: true });
          const [row] = await t.app.ctx.db
            .select()
            .from(shareLinks)
            .where(eq(shareLinks.id, res.json().id));
          expect(row).toMatchObject({ readOnly: false, createdBy: owner.id });
          const listed = await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws.id}/share`,
            headers: owner.bearer,
          });
          expect(listed.json()).toMatchObject([{ id: res.json().id, readOnly: false }]);
        },
      );

      it('an editor makes read-only links only: an editable one is a 403 naming the owner role, and nothing is made', async () => {
        const ws = await createWorkspace(t.app, owner);
        const editor = await member(ws.id, 'editor');
        for (const headers of [editor.bearer, editor.cookieHeaders]) {
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${ws.id}/share`,
            headers,
            payload: { readOnly: false },
          });
          expect(res.statusCode).toBe(403);
          expect(res.json().error).toMatchObject({
            code: 'AUTHORIZATION_ERROR',
            message: expect.stringContaining('needs the owner role'),
          });
        }
        expect(await t.app.ctx.db.$count(shareLinks, eq(shareLinks.workspaceId, ws.id))).toBe(0);
        const readOnly = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws.id}/share`,
          headers: editor.bearer,
          payload: { readOnly: true },
        });
        expect(readOnly.statusCode).toBe(201);
        expect(
          (
            await t.app.ctx.db
              .select()
              .from(shareLinks)
              .where(eq(shareLinks.id, readOnly.json().id))
          )[0]?.createdBy,
        ).toBe(editor.id);
      });
    });

    describe("links someone joins through are the owner's (issue 33)", () => {
      it("an editor lists read-only links only: an editable link's token never reaches them", async () => {
        const ws = await createWorkspace(t.app, owner);
        const editor = await member(ws.id, 'editor');
        const editable = await shareWorkspace(t.app, owner, ws.id, { readOnly: false });
        const joinable = await shareWorkspace(t.app, owner, ws.id, { allowJoin: true });
        const plain = await shareWorkspace(t.app, editor, ws.id);
        const list = async (user: TestUser) => {
          const res = await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws.id}/share`,
            headers: user.bearer,
          });
          expect(res.statusCode).toBe(200);
          return res;
        };
        const asEditor = await list(editor);
        expect(asEditor.json().map((link: { id: string }) => link.id)).toEqual([
          plain.id,
          joinable.id,
        ]);
        expect(asEditor.body).not.toContain(editable.token);
        expect(asEditor.body).not.toContain(editable.id);
        const asOwner = await list(owner);
        expect(
          asOwner
            .json()
            .map((link: { id: string; allowJoin: boolean }) => [link.id, link.allowJoin]),
        ).toEqual([
          [plain.id, false],
          [joinable.id, true],
          [editable.id, true],
        ]);
      });

      it('the owner alone opens a read-only link to joining, at creation or later, and closes it again; an editable link is always joinable', async () => {
        const ws = await createWorkspace(t.app, owner);
        const editor = await member(ws.id, 'editor');
        const create = (user: TestUser, payload: Record<string, unknown>) =>
          t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${ws.id}/share`,
            headers: user.bearer,
            payload,
          });
        const update = (user: TestUser, shareId: string, payload: Record<string, unknown>) =>
          t.app.inject({
            method: 'PATCH',
            url: `/api/workspaces/${ws.id}/share/${shareId}`,
            headers: user.bearer,
            payload,
          });
        const refused = await create(editor, { allowJoin: true });
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error.message).toContain('needs the owner role');
        const plain = (await create(editor, { allowJoin: false })).json();
        expect(plain).toMatchObject({ readOnly: true, allowJoin: false });
        expect((await update(editor, plain.id, { allowJoin: true })).statusCode).toBe(403);
        const opened = await update(owner, plain.id, { allowJoin: true });
        expect(opened.json()).toMatchObject({ id: plain.id, allowJoin: true, token: plain.token });
        const visitor = await buildUser(t.app);
        expect((await join(plain.token, visitor.bearer)).json().workspace.role).toBe('viewer');
        expect((await update(owner, plain.id, { allowJoin: false })).json().allowJoin).toBe(false);
        expect((await join(plain.token, (await buildUser(t.app)).bearer)).statusCode).toBe(403);

        const bad = await create(owner, { readOnly: false, allowJoin: false });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().error.details.field).toBe('allowJoin');
        const editable = (await create(owner, { readOnly: false })).json();
        expect(editable).toMatchObject({ readOnly: false, allowJoin: true });
        const closing = await update(owner, editable.id, { allowJoin: false });
        expect(closing.statusCode).toBe(409);
        expect(closing.json().error.details).toEqual({ field: 'allowJoin', reason: 'editable' });
        expect((await update(owner, editable.id, {})).statusCode).toBe(400);
        expect(
          (await update(owner, '00000000-0000-4000-8000-000000000000', { allowJoin: true }))
            .statusCode,
        ).toBe(404);
      });
    });

    describe('POST /api/share/{token}/join', () => {
      it.each(DIALECTS)(
        'a signed-in visitor joins through an editable link as editor, and may then add resources (dialect %s)',
        async (dialect) => {
          const ws = await createWorkspace(t.app, owner, { name: 'Lab list' });
          const link = await shareWorkspace(t.app, owner, ws.id, { readOnly: false });
          const visitor = await buildUser(t.app);
          const res = await join(link.token, as(visitor, dialect));
          expect(res.statusCode).toBe(200);
          const workspace = dialect === 'B' ? res.json().workspace : res.json();
          expect(workspace).toMatchObject({
            id: ws.id,
            name: 'Lab list',
            ownerId: owner.id,
            role: 'editor',
          });
          expect(dialect === 'B' ? Object.keys(res.json()) : Object.keys(res.json())).toEqual(
            dialect === 'B' ? ['workspace'] : expect.arrayContaining(['id', 'role', '_count']),
          );
          expect(await memberRow(ws.id, visitor.id)).toMatchObject({
            role: 'editor',
            addedBy: owner.id,
            shareLinkId: link.id,
          });
          expect(
            (
              await t.app.inject({
                method: 'POST',
                url: `/api/workspaces/${ws.id}/resources`,
                headers: visitor.bearer,
                payload: { title: 'Mine' },
              })
            ).statusCode,
          ).toBe(201);
        },
      );

      it(
        'a read-only link admits nobody until the owner allows joining through ' +
          'it (403 join_not_allowed, its page still reads); then it joins as ' +
          'viewer, who may read but not add',
        async () => {
          const ws = await createWorkspace(t.app, owner);
          const link = await shareWorkspace(t.app, owner, ws.id);
          const visitor = await buildUser(t.app);
          const closed = await join(link.token, visitor.bearer);
          expect(closed.statusCode).toBe(403);
          expect(closed.json().error).toMatchObject({
            code: 'AUTHORIZATION_ERROR',
            details: { field: 'token', reason: 'join_not_allowed' },
          });
          expect(await memberRow(ws.id, visitor.id)).toBeUndefined();
          expect(
            (await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).statusCode,
          ).toBe(200);
          const opened = await t.app.inject({
            method: 'PATCH',
            url: `/api/workspaces/${ws.id}/share/${link.id}`,
            headers: owner.bearer,
            payload: { allowJoin: true },
          });
          expect(opened.statusCode, opened.body).toBe(200);
          expect(opened.json()).toMatchObject({ id: link.id, readOnly: true, allowJoin: true });
          const res = await join(link.token, visitor.bearer);
          expect(res.statusCode).toBe(200);
          expect(res.json().workspace.role).toBe('viewer');
          expect(
            (
              await t.app.inject({
                method: 'GET',
                url: `/api/workspaces/${ws.id}`,
                headers: visitor.bearer,
              })
            ).statusCode,
          ).toBe(200);
          expect(
            (
              await t.app.inject({
                method: 'POST',
                url: `/api/workspaces/${ws.id}/resources`,
                headers: visitor.bearer,
                payload: { title: 'Mine' },
              })
            ).statusCode,
          ).toBe(403);
          // The workspace is listed among theirs, with the role.
          const list = await t.app.inject({
            method: 'GET',
            url: '/api/workspaces',
            headers: visitor.bearer,
          });
          expect(list.json().workspaces).toMatchObject([{ id: ws.id, role: 'viewer' }]);
        },
      );

      it(
        'never changes a role: a viewer stays viewer through an editable link, ' +
          'an editor stays editor through a read-only one, the owner stays owner; ' +
          'joining twice is the same',
        async () => {
          const ws = await createWorkspace(t.app, owner);
          const editable = await shareWorkspace(t.app, owner, ws.id, { readOnly: false });
          const readOnly = await shareWorkspace(t.app, owner, ws.id, { allowJoin: true });
          const [viewer, editor] = await Promise.all([
            member(ws.id, 'viewer'),
            member(ws.id, 'editor'),
          ]);
          expect((await join(editable.token, viewer.bearer)).json().workspace.role).toBe('viewer');
          expect((await join(readOnly.token, editor.cookieHeaders)).json().role).toBe('editor');
          const asOwner = await join(editable.token, owner.bearer);
          expect(asOwner.statusCode).toBe(200);
          expect(asOwner.json().workspace.role).toBe('owner');
          expect(await memberRow(ws.id, owner.id)).toBeUndefined();
          const visitor = await buildUser(t.app);
          expect((await join(readOnly.token, visitor.bearer)).json().workspace.role).toBe('viewer');
          expect((await join(editable.token, visitor.bearer)).json().workspace.role).toBe('viewer');
          expect(await memberRow(ws.id, viewer.id)).toMatchObject({
            role: 'viewer',
            shareLinkId: null,
          });
          expect(await memberRow(ws.id, visitor.id)).toMatchObject({
            role: 'viewer',
            shareLinkId: readOnly.id,
          });
        },
      );

      it('a revoked, paused, expired, unknown or malformed link is a 404, and joins nothing; revoking keeps who joined before', async () => {
        const ws = await createWorkspace(t.app, owner, { name: 'Closed' });
        const [revoked, paused, expired] = await Promise.all(
          [0, 1, 2].map(() => shareWorkspace(t.app, owner, ws.id, { readOnly: false })),
        );
        const early = await buildUser(t.app);
        expect((await join(revoked!.token, early.bearer)).statusCode).toBe(200);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${ws.id}/share/${revoked!.id}`,
              headers: owner.bearer,
            })
          ).statusCode,
        ).toBe(200);
        await t.app.ctx.db
          .update(shareLinks)
          .set({ pausedAt: new Date() })
          .where(eq(shareLinks.id, paused!.id));
        await t.app.ctx.db
          .update(shareLinks)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(shareLinks.id, expired!.id));
        const late = await buildUser(t.app);
        for (const token of [
          revoked!.token,
          paused!.token,
          expired!.token,
          'A'.repeat(43),
          'short',
        ]) {
          const res = await join(token, late.bearer);
          expect(res.statusCode, token).toBe(404);
          expect(res.json().error.code).toBe('NOT_FOUND');
          expect(res.body).not.toContain('Closed');
        }
        expect(await memberRow(ws.id, late.id)).toBeUndefined();
        expect(await memberRow(ws.id, early.id)).toMatchObject({ role: 'editor' });
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/workspaces/${ws.id}`,
              headers: early.bearer,
            })
          ).statusCode,
        ).toBe(200);
        const tooLong = await join('x'.repeat(201), late.bearer);
        expect(tooLong.statusCode).toBe(400);
        expect(tooLong.json().error.details.field).toBe('token');
      });

      it('needs a session (401), and a cookie request from another origin is refused (403)', async () => {
        const ws = await createWorkspace(t.app, owner);
        const link = await shareWorkspace(t.app, owner, ws.id, { readOnly: false });
        const visitor = await buildUser(t.app);
        expect((await join(link.token)).statusCode).toBe(401);
        expect(
          (await join(link.token, { cookie: visitor.cookie, origin: 'https://evil.example' }))
            .statusCode,
        ).toBe(403);
        expect(await memberRow(ws.id, visitor.id)).toBeUndefined();
      });

      it(`is limited to ${JOINS_PER_HOUR} attempts per user and hour, refused or not`, async () => {
        const ws = await createWorkspace(t.app, owner);
        const link = await shareWorkspace(t.app, owner, ws.id, { allowJoin: true });
        const visitor = await buildUser(t.app);
        for (let attempt = 1; attempt < JOINS_PER_HOUR; attempt++)
          expect((await join('A'.repeat(43), visitor.bearer)).statusCode).toBe(404);
        const last = await join(link.token, visitor.bearer);
        expect(last.statusCode).toBe(200);
        expect(last.headers['ratelimit-remaining']).toBe('0');
        const refused = await join(link.token, visitor.bearer);
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['retry-after']).toBeDefined();
        // Another user has their own allowance.
        expect((await join(link.token, (await buildUser(t.app)).bearer)).statusCode).toBe(200);
      });
    });

    describe('GET /api/workspaces/{id}/share', () => {
      it.each(DIALECTS)(
        'lists unrevoked links newest first with their tokens; expired ones inactive (dialect %s)',
        async (dialect) => {
          const ws = await createWorkspace(t.app, owner);
          const old = await shareWorkspace(t.app, owner, ws.id);
          const revoked = await shareWorkspace(t.app, owner, ws.id);
          const fresh = await shareWorkspace(t.app, owner, ws.id);
          await t.app.ctx.db
            .update(shareLinks)
            .set({ expiresAt: new Date(Date.now() - 1000) })
            .where(eq(shareLinks.id, old.id));
          await t.app.inject({
            method: 'DELETE',
            url: `/api/workspaces/${ws.id}/share/${revoked.id}`,
            headers: owner.bearer,
          });
          const res = await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws.id}/share`,
            headers: as(owner, dialect),
          });
          expect(res.statusCode).toBe(200);
          expect(res.json()).toMatchObject([
            { id: fresh.id, token: fresh.token, url: fresh.url, active: true },
            { id: old.id, token: old.token, active: false },
          ]);
        },
      );

      it("answers 404 for another user's workspace, 401 without a session", async () => {
        const ws = await createWorkspace(t.app, owner);
        await shareWorkspace(t.app, owner, ws.id);
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/workspaces/${ws.id}/share`,
              headers: stranger.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (await t.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}/share` })).statusCode,
        ).toBe(401);
      });
    });

    describe('DELETE /api/workspaces/{id}/share/{shareId}', () => {
      it.each(DIALECTS)(
        'revokes a link: its page answers 404 at once (dialect %s)',
        async (dialect) => {
          const ws = await createWorkspace(t.app, owner, { name: 'Revocable' });
          const link = await shareWorkspace(t.app, owner, ws.id);
          expect(
            (await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).statusCode,
          ).toBe(200);
          const res = await t.app.inject({
            method: 'DELETE',
            url: `/api/workspaces/${ws.id}/share/${link.id}`,
            headers: as(owner, dialect),
          });
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual({ success: true, id: link.id });
          const page = await t.app.inject({ method: 'GET', url: `/share/${link.token}` });
          expect(page.statusCode).toBe(404);
          expect(page.body).not.toContain('Revocable');
          expect(
            (
              await t.app.inject({
                method: 'DELETE',
                url: `/api/workspaces/${ws.id}/share/${link.id}`,
                headers: owner.bearer,
              })
            ).statusCode,
          ).toBe(404);
        },
      );

      it("answers 404 for another user's link or through another workspace; 400 for a malformed id; 401 without a session", async () => {
        const ws = await createWorkspace(t.app, owner);
        const link = await shareWorkspace(t.app, owner, ws.id);
        const strangersWs = await createWorkspace(t.app, stranger);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${ws.id}/share/${link.id}`,
              headers: stranger.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${strangersWs.id}/share/${link.id}`,
              headers: stranger.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${ws.id}/share/${UNKNOWN_ID}`,
              headers: owner.bearer,
            })
          ).statusCode,
        ).toBe(404);
        const malformed = await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${ws.id}/share/nope`,
          headers: owner.bearer,
        });
        expect(malformed.statusCode).toBe(400);
        expect(malformed.json().error.details.field).toBe('shareId');
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${ws.id}/share/${link.id}`,
            })
          ).statusCode,
        ).toBe(401);
        expect(
          (await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).statusCode,
        ).toBe(200);
      });
    });

    describe('GET /share/{token}', () => {
      it('answers a page number that is not one with a 400 HTML page, as the document says', async () => {
        const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
        expect(Object.keys(doc.paths['/share/{token}'].get.responses['400'].content)).toEqual([
          'text/html',
        ]);
        const ws = await createWorkspace(t.app, owner);
        const link = await shareWorkspace(t.app, owner, ws.id);
        for (const page of ['abc', '0', '1001', '1.5']) {
          const res = await t.app.inject({
            method: 'GET',
            url: `/share/${link.token}?page=${page}`,
          });
          expect(res.statusCode, page).toBe(400);
          expect(res.headers['content-type'], page).toBe('text/html; charset=utf-8');
          expect(res.headers['content-security-policy'], page).toBeDefined();
          expect(res.body, page).toContain('<h1>No such page</h1>');
        }
        expect(
          (await t.app.inject({ method: 'GET', url: `/share/${link.token}?page=2` })).statusCode,
        ).toBe(200);
      });

      it('renders the workspace, its resources and annotations as escaped, secured HTML without cookies', async () => {
        const ws = await createWorkspace(t.app, owner, {
          name: 'Rates < 5% & notes',
          description: 'What we read in "spring"',
        });
        const paper = await addResource(t.app, owner, ws.id, {
          title: 'Attention Is All You Need',
          url: 'https://arxiv.org/abs/1706.03762',
          authors: ['Ashish Vaswani', 'Noam Shazeer'],
          tags: ['nlp', 'transformers'],
          notes: 'Section 3 explains multi-head attention.',
          data: { secret: 'internal-data-not-for-the-page' },
        });
        await annotate(t.app, owner, paper.id, {
          body: 'Scaled dot-product <3',
          highlights: { ranges: [{ start: 0, end: 9, text: 'attention' }] },
        });
        const link = await shareWorkspace(t.app, owner, ws.id);

        // Even a signed-in visitor with cookies gets a page that sets none.
        const res = await t.app.inject({
          method: 'GET',
          url: `/share/${link.token}`,
          headers: { cookie: owner.cookie },
        });
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
        expect(html).toContain(
          '<a href="https://arxiv.org/abs/1706.03762" rel="noopener noreferrer nofollow ugc">Attention Is All You Need</a>',
        );
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

      it('shows each annotation’s colour, and a PDF quote with its page or pages', async () => {
        const ws = await createWorkspace(t.app, owner, { name: 'Colours' });
        const paper = await addResource(t.app, owner, ws.id, { title: 'Read in the PDF' });
        const rect = { x: 0.1, y: 0.5, width: 0.5, height: 0.02 };
        await annotate(t.app, owner, paper.id, {
          body: '“a quote on one page”',
          color: 'green',
          highlights: { pdf: { page: 3, quote: 'a quote on one page', rects: [rect] } },
        });
        await annotate(t.app, owner, paper.id, {
          body: 'Across the break',
          color: 'purple',
          highlights: {
            pdf: { page: 4, quote: 'ends here & goes on', rects: [rect, { ...rect, page: 5 }] },
          },
        });
        const link = await shareWorkspace(t.app, owner, ws.id);
        const html = (await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).body;
        expect(html).toContain(
          '<li class="c-green"><p class="where">Green · page 3</p><blockquote>a quote on one page</blockquote><time',
        );
        expect(html).toContain(
          '<li class="c-purple"><p class="where">Purple · pages 4–5</p>' +
            '<blockquote>ends here &amp; goes on</blockquote>' +
            '<div class="annotation-body md"><p>Across the break</p></div>',
        );
      });

      it(
        'says what the link is, offers a signed-in visitor who is not a member to ' +
          'join (editor or viewer as the link says) and a signed-out one to sign in ' +
          'or sign up first; sets no cookie; a member is offered nothing',
        async () => {
          const ws = await createWorkspace(t.app, owner, { name: 'Joinable' });
          const editable = await shareWorkspace(t.app, owner, ws.id, { readOnly: false });
          const readOnly = await shareWorkspace(t.app, owner, ws.id, { allowJoin: true });
          const closed = await shareWorkspace(t.app, owner, ws.id);
          const [visitor, viewer] = await Promise.all([buildUser(t.app), member(ws.id, 'viewer')]);
          const page = (token: string, cookie?: string) =>
            t.app.inject({
              method: 'GET',
              url: `/share/${token}`,
              headers: cookie ? { cookie } : {},
            });

          const offered = await page(editable.token, visitor.cookie);
          expect(offered.statusCode).toBe(200);
          expect(offered.headers['set-cookie']).toBeUndefined();
          expect(offered.headers.vary).toContain('Cookie');
          expect(offered.body).toContain(
            `<a href="http://app.test/join/${editable.token}" rel="noreferrer">Join this workspace</a>`,
          );
          expect(offered.body).toContain('as an editor');
          const asViewer = await page(readOnly.token, visitor.cookie);
          expect(asViewer.body).toContain(`/join/${readOnly.token}`);
          expect(asViewer.body).toContain('as a viewer');

          // Only the refresh cookie (the access one expired): still recognised, and neither rotated nor set.
          const refreshOnly = visitor.cookie
            .split('; ')
            .filter((part) => part.startsWith('refresh_token='))
            .join('; ');
          const refreshed = await page(editable.token, refreshOnly);
          expect(refreshed.body).toContain('Join this workspace');
          expect(refreshed.headers['set-cookie']).toBeUndefined();

          // The page says what the link is: an editable one is not "read-only".
          expect(offered.body).toContain('Can edit');
          expect(offered.body).not.toContain('· read-only');
          expect(asViewer.body).toContain('Can view');

          // Signed out (or with cookies that are no session): sign in or sign up, then back to join.
          const signedOut = await page(editable.token);
          const forged = await page(editable.token, 'access_token=forged; refresh_token=forged');
          const comeBack = `next=${encodeURIComponent(`/join/${editable.token}`)}`;
          for (const res of [signedOut, forged]) {
            expect(res.statusCode).toBe(200);
            expect(res.headers['set-cookie']).toBeUndefined();
            expect(res.body).toContain('Can edit');
            expect(res.body).toContain(
              `<a href="http://app.test/auth/signin?${comeBack}" rel="noreferrer">Sign in to join</a>`,
            );
            expect(res.body).toContain(
              `<a class="secondary" href="http://app.test/auth/signup?${comeBack}" rel="noreferrer">Sign up</a>`,
            );
            expect(res.body).toContain('as an editor');
            expect(res.body).not.toContain('Join this workspace');
          }
          const viewSignedOut = await page(readOnly.token);
          expect(viewSignedOut.body).toContain('Sign in to join');
          expect(viewSignedOut.body).toContain('as a viewer');

          // A member is offered nothing; nor is anyone on a read-only link closed to joining.
          const asMember = await page(editable.token, viewer.cookie);
          const notJoinable = await page(closed.token, visitor.cookie);
          const closedSignedOut = await page(closed.token);
          for (const res of [asMember, notJoinable, closedSignedOut]) {
            expect(res.statusCode).toBe(200);
            expect(res.body).not.toContain('Join this workspace');
            expect(res.body).not.toContain('Sign in to join');
          }
          expect(notJoinable.body).not.toContain(`/join/${closed.token}`);
          expect(closedSignedOut.body).toContain('Shared workspace · read-only');
        },
      );

      it("writes its dates as the reader's browser does (Accept-Language), in the app's one format; en-US without one", async () => {
        const ws = await createWorkspace(t.app, owner, { name: 'Dated' });
        const link = await shareWorkspace(t.app, owner, ws.id);
        const updated = async (acceptLanguage?: string) => {
          const res = await t.app.inject({
            method: 'GET',
            url: `/share/${link.token}`,
            headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
          });
          expect(res.statusCode).toBe(200);
          expect(res.headers.vary).toContain('Accept-Language');
          return /updated <time datetime="[^"]+">([^<]+)<\/time>/.exec(res.body)?.[1];
        };
        // en-US: month first ("Nov 29, 2026"), never the en-IN default this page had.
        const usDay = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;
        const dayFirst = /^\d{1,2} [A-Z][a-z]{2,3} \d{4}$/;
        expect(await updated('en-US,en;q=0.9')).toMatch(usDay);
        expect(await updated()).toMatch(usDay);
        expect(await updated('en-GB')).toMatch(dayFirst);
        expect(await updated('xx-invalid-<script>, en-GB;q=0.8')).toMatch(dayFirst);
      });

      it('renders notes and comments as sanitised Markdown', async () => {
        const ws = await createWorkspace(t.app, owner, { name: 'Marked up' });
        const resource = await addResource(t.app, owner, ws.id, {
          title: 'Formatted',
          notes:
            '# Aim\n\n**Bold** and [ok](https://example.org) and [bad](javascript:alert(1))\n\n- a\n- b',
        });
        const comment = await t.app.inject({
          method: 'POST',
          url: `/api/resources/${resource.id}/annotations`,
          headers: owner.bearer,
          payload: { body: 'A *careful* note' },
        });
        expect(comment.statusCode).toBe(201);
        const link = await shareWorkspace(t.app, owner, ws.id);
        const html = (await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).body;
        expect(html).toContain('<h4>Aim</h4>');
        expect(html).toContain('<strong>Bold</strong>');
        expect(html).toMatch(/<li>a<\/li>\s*<li>b<\/li>/);
        expect(html).toContain(
          '<a href="https://example.org" rel="noopener noreferrer nofollow ugc">ok</a>',
        );
        expect(html).not.toMatch(/javascript:/i);
        expect(html).toContain('<em>careful</em>');
        expect(html).not.toMatch(/<script/i);
      });

      it('links a title only when its URL is http(s)', async () => {
        const ws = await createWorkspace(t.app, owner);
        const resource = await addResource(t.app, owner, ws.id, {
          title: 'Sneaky link',
          url: 'https://example.org/ok',
        });
        // Input validation refuses such URLs; a row written some other way must still not become a link.
        await t.app.ctx.db
          .update(workspaceResources)
          .set({ url: 'javascript:alert(1)' })
          .where(eq(workspaceResources.id, resource.id));
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
        await t.app.ctx.db
          .update(shareLinks)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(shareLinks.id, expired.id));
        const revoked = await shareWorkspace(t.app, owner, ws.id);
        await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${ws.id}/share/${revoked.id}`,
          headers: owner.bearer,
        });
        const tokens = [
          expired.token,
          revoked.token,
          'A'.repeat(43),
          'short',
          `${'x'.repeat(300)}`,
          '%3Cscript%3E',
        ];
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

      it("shows exactly the shared workspace: not the owner's other workspaces", async () => {
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
