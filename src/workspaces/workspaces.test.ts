import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BearerReply } from '../../test/support/api-types.js';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { annotations, shareLinks, workspaceResources, workspaces } from '../platform/db/schema.js';
import {
  DIALECTS,
  addResource,
  annotate,
  as,
  createWorkspace,
  fakeResolver,
  shareWorkspace,
  UNKNOWN_ID,
} from './test-support/helpers.js';

const WORKSPACE_FIELDS = [
  'id',
  'name',
  'title',
  'description',
  'ownerId',
  'isPublic',
  'createdAt',
  'updatedAt',
  'resourceCount',
  '_count',
  'role',
  'version',
];

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`workspaces (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg, build: { resolveResource: fakeResolver } });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
    });
    afterAll(async () => t?.close());

    describe('POST /api/workspaces', () => {
      it("creates by name with a bearer token: 201 { workspace } carrying both variants' fields", async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/workspaces',
          headers: owner.bearer,
          payload: {
            name: 'Transformers <b>reading</b>',
            description: 'Papers <script>alert(1)</script>to read',
            isPublic: true,
          },
        });
        expect(res.statusCode).toBe(201);
        const { workspace } = res.json();
        expect(Object.keys(workspace).sort()).toEqual([...WORKSPACE_FIELDS].sort());
        expect(workspace).toMatchObject({
          name: 'Transformers reading',
          title: 'Transformers reading',
          description: 'Papers to read',
          ownerId: owner.id,
          isPublic: true,
          resourceCount: 0,
          _count: { resources: 0, shares: 0 },
        });
        expect(workspace.createdAt).toBe(workspace.updatedAt);
      });

      it('creates by title with session cookies: 201 with the bare workspace (Variant A)', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/workspaces',
          headers: owner.cookieHeaders,
          payload: { title: 'Cookie list' },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          name: 'Cookie list',
          title: 'Cookie list',
          description: '',
          isPublic: false,
          ownerId: owner.id,
        });
        expect(res.json()).not.toHaveProperty('workspace');
      });

      it.each([
        [{}, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: '<b></b>' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 'a', title: 'b' }, 'title'],
        [{ name: 'ok', description: 'd'.repeat(2001) }, 'description'],
        [{ name: 'ok', isPublic: 'yes' }, 'isPublic'],
        [{ name: 42 }, 'name'],
      ])('rejects %j naming the field %s', async (payload, field) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/workspaces',
          headers: owner.bearer,
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
      });

      it('accepts a name of exactly 200 characters', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/workspaces',
          headers: owner.bearer,
          payload: { name: 'n'.repeat(200) },
        });
        expect(res.statusCode).toBe(201);
      });

      it('answers 401 without a session', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/workspaces',
          payload: { name: 'x' },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('AUTHENTICATION_ERROR');
      });

      it('refuses a cookie-authenticated create from another origin (403)', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/workspaces',
          headers: { cookie: owner.cookie, origin: 'https://evil.example' },
          payload: { name: 'x' },
        });
        expect(res.statusCode).toBe(403);
      });
    });

    describe('GET /api/workspaces', () => {
      let lister: TestUser;
      beforeAll(async () => {
        lister = await buildUser(t.app);
        for (const name of ['first', 'second', 'third'])
          await createWorkspace(t.app, lister, { name });
      });

      it('lists newest first as { workspaces, total } for a bearer client', async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/workspaces',
          headers: lister.bearer,
        });
        expect(res.statusCode).toBe(200);
        const body = res.json<BearerReply<'WorkspaceListEnvelope'>>();
        expect(body.total).toBe(3);
        expect(body.workspaces.map((w) => w.name)).toEqual(['third', 'second', 'first']);
        expect(res.headers['x-total-count']).toBe('3');
      });

      it('lists as a bare array with _count for a cookie client', async () => {
        const ws = await createWorkspace(t.app, lister, { name: 'counted' });
        await addResource(t.app, lister, ws.id, { title: 'One' });
        await addResource(t.app, lister, ws.id, { title: 'Two' });
        await shareWorkspace(t.app, lister, ws.id);
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/workspaces',
          headers: { cookie: lister.cookie },
        });
        expect(res.statusCode).toBe(200);
        const list = res.json();
        expect(Array.isArray(list)).toBe(true);
        expect(list[0]).toMatchObject({
          name: 'counted',
          resourceCount: 2,
          _count: { resources: 2, shares: 1 },
        });
        expect(res.headers['x-total-count']).toBe('4');
      });

      it('lets the web app read the total across origins (CORS exposes X-Total-Count)', async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/workspaces',
          headers: lister.cookieHeaders,
        });
        expect(res.headers['access-control-expose-headers']).toContain('X-Total-Count');
      });

      it('pages with limit and offset', async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/workspaces?limit=2&offset=1',
          headers: lister.bearer,
        });
        expect(res.json().workspaces.map((w: { name: string }) => w.name)).toEqual([
          'third',
          'second',
        ]);
        expect(res.json().total).toBe(4);
      });

      it.each([
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=abc', 'limit'],
        ['offset=-1', 'offset'],
      ])('rejects %s', async (query, field) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces?${query}`,
          headers: lister.bearer,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.field).toBe(field);
      });

      it("accepts limit=100 and shows nobody else's workspaces", async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/workspaces?limit=100',
          headers: stranger.bearer,
        });
        expect(res.statusCode).toBe(200);
        expect(
          res.json().workspaces.every((w: { ownerId: string }) => w.ownerId === stranger.id),
        ).toBe(true);
      });

      it('answers 401 without a session', async () => {
        expect((await t.app.inject({ method: 'GET', url: '/api/workspaces' })).statusCode).toBe(
          401,
        );
      });
    });

    describe('GET /api/workspaces/{id}', () => {
      it.each(DIALECTS)('shows resources with their annotations (dialect %s)', async (dialect) => {
        const ws = await createWorkspace(t.app, owner, { name: `detail ${dialect}` });
        const resource = await addResource(t.app, owner, ws.id, {
          title: 'Annotated',
          notes: 'keep',
        });
        await annotate(t.app, owner, resource.id, { body: 'An insight' });
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws.id}`,
          headers: as(owner, dialect),
        });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        const workspace = dialect === 'B' ? body.workspace : body;
        expect(workspace).toMatchObject({ id: ws.id, name: `detail ${dialect}`, resourceCount: 1 });
        expect(body.resources).toHaveLength(1);
        expect(body.resources[0]).toMatchObject({
          id: resource.id,
          title: 'Annotated',
          notes: 'keep',
          annotations: [{ body: 'An insight' }],
        });
        if (dialect === 'B') expect(body.workspace).not.toHaveProperty('resources');
      });

      it("answers 404 for another user's workspace and for an unknown id, 400 for a malformed one", async () => {
        const ws = await createWorkspace(t.app, owner);
        const other = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws.id}`,
          headers: stranger.bearer,
        });
        expect(other.statusCode).toBe(404);
        expect(other.json().error.code).toBe('NOT_FOUND');
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/workspaces/${UNKNOWN_ID}`,
              headers: owner.bearer,
            })
          ).statusCode,
        ).toBe(404);
        const malformed = await t.app.inject({
          method: 'GET',
          url: '/api/workspaces/not-a-uuid',
          headers: owner.bearer,
        });
        expect(malformed.statusCode).toBe(400);
        expect(malformed.json().error.details.field).toBe('id');
      });

      it('answers 401 without a session', async () => {
        expect(
          (await t.app.inject({ method: 'GET', url: `/api/workspaces/${UNKNOWN_ID}` })).statusCode,
        ).toBe(401);
      });
    });

    describe('PATCH /api/workspaces/{id}', () => {
      it.each(DIALECTS)('renames and changes the description (dialect %s)', async (dialect) => {
        const ws = await createWorkspace(t.app, owner, { name: 'Old name', description: 'old' });
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${ws.id}`,
          headers: as(owner, dialect),
          payload:
            dialect === 'B' ? { name: 'New <em>name</em>', isPublic: true } : { title: 'New name' },
        });
        expect(res.statusCode).toBe(200);
        const workspace = dialect === 'B' ? res.json().workspace : res.json();
        expect(workspace).toMatchObject({
          name: 'New name',
          title: 'New name',
          description: 'old',
          isPublic: dialect === 'B',
        });
        expect(new Date(workspace.updatedAt).getTime()).toBeGreaterThan(
          new Date(workspace.createdAt).getTime(),
        );
      });

      it.each([
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ title: 't'.repeat(201) }, 'title'],
        [{ name: 'a', title: 'b' }, 'title'],
        [{ description: 'd'.repeat(2001) }, 'description'],
      ])('rejects %j naming the field %s', async (payload, field) => {
        const ws = await createWorkspace(t.app, owner);
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${ws.id}`,
          headers: owner.bearer,
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.field).toBe(field);
      });

      it("answers 404 for another user's workspace and leaves it unchanged; 401 without a session", async () => {
        const ws = await createWorkspace(t.app, owner, { name: 'Mine' });
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${ws.id}`,
          headers: stranger.bearer,
          payload: { name: 'Stolen' },
        });
        expect(res.statusCode).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'PATCH',
              url: `/api/workspaces/${ws.id}`,
              payload: { name: 'x' },
            })
          ).statusCode,
        ).toBe(401);
        const [row] = await t.app.ctx.db.select().from(workspaces).where(eq(workspaces.id, ws.id));
        expect(row?.name).toBe('Mine');
      });
    });

    describe('DELETE /api/workspaces/{id}', () => {
      it.each(DIALECTS)(
        'deletes the workspace with its resources, annotations and share links (dialect %s)',
        async (dialect) => {
          const ws = await createWorkspace(t.app, owner, { name: 'Doomed' });
          const resource = await addResource(t.app, owner, ws.id, { title: 'Gone soon' });
          await annotate(t.app, owner, resource.id, { body: 'note' });
          const link = await shareWorkspace(t.app, owner, ws.id);
          const res = await t.app.inject({
            method: 'DELETE',
            url: `/api/workspaces/${ws.id}`,
            headers: as(owner, dialect),
          });
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual({ success: true, id: ws.id });
          const db = t.app.ctx.db;
          expect(
            await db
              .select()
              .from(workspaceResources)
              .where(eq(workspaceResources.workspaceId, ws.id)),
          ).toHaveLength(0);
          expect(
            await db.select().from(annotations).where(eq(annotations.resourceId, resource.id)),
          ).toHaveLength(0);
          expect(
            await db.select().from(shareLinks).where(eq(shareLinks.workspaceId, ws.id)),
          ).toHaveLength(0);
          expect(
            (await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).statusCode,
          ).toBe(404);
          expect(
            (
              await t.app.inject({
                method: 'DELETE',
                url: `/api/workspaces/${ws.id}`,
                headers: owner.bearer,
              })
            ).statusCode,
          ).toBe(404);
        },
      );

      it("answers 404 for another user's workspace (which survives) and 401 without a session", async () => {
        const ws = await createWorkspace(t.app, owner);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${ws.id}`,
              headers: stranger.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (await t.app.inject({ method: 'DELETE', url: `/api/workspaces/${ws.id}` })).statusCode,
        ).toBe(401);
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/workspaces/${ws.id}`,
              headers: owner.bearer,
            })
          ).statusCode,
        ).toBe(200);
      });
    });
  });
}

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('describes every workspace, annotation, share and analytics route with its responses', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    const expected: Array<[string, string, string[]]> = [
      ['/api/workspaces', 'get', ['200', '401']],
      ['/api/workspaces', 'post', ['201', '400', '401']],
      ['/api/workspaces/{id}', 'get', ['200', '404']],
      ['/api/workspaces/{id}', 'patch', ['200', '400', '404']],
      ['/api/workspaces/{id}', 'delete', ['200', '404']],
      ['/api/workspaces/{id}/resources', 'get', ['200', '404']],
      ['/api/workspaces/{id}/resources', 'post', ['201', '400', '404', '409']],
      ['/api/workspaces/{id}/resources/{resourceId}', 'delete', ['200', '404']],
      ['/api/workspaces/{id}/export', 'get', ['200', '404']],
      ['/api/resources/{id}/annotations', 'get', ['200', '404']],
      ['/api/resources/{id}/annotations', 'post', ['201', '400', '404']],
      ['/api/annotations/{id}', 'patch', ['200', '404']],
      ['/api/annotations/{id}', 'delete', ['200', '404']],
      ['/api/workspaces/{id}/share', 'get', ['200', '404']],
      ['/api/workspaces/{id}/share', 'post', ['201', '400', '404']],
      ['/api/workspaces/{id}/share/{shareId}', 'delete', ['200', '404']],
      ['/share/{token}', 'get', ['200', '404']],
      ['/api/analytics/search', 'get', ['200', '400', '401']],
      ['/api/analytics/resources', 'get', ['200', '401']],
    ];
    for (const [path, method, statuses] of expected) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined();
      for (const status of statuses)
        expect(operation?.responses, `${method.toUpperCase()} ${path} ${status}`).toHaveProperty(
          status,
        );
    }
  });
});
