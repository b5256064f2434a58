import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { annotations, workspaceResources, workspaces } from '../../platform/db/schema.js';
import { LIMITS } from '../schemas.js';
import {
  DIALECTS,
  addResource,
  annotate,
  as,
  createWorkspace,
  fakeResolver,
  UNKNOWN_ID,
} from '../test-support/helpers.js';

const RESOURCE_FIELDS = [
  'id',
  'workspaceId',
  'resourceId',
  'addedBy',
  'title',
  'citationKey',
  'url',
  'type',
  'authors',
  'creators',
  'tags',
  'notes',
  'notesUpdatedBy',
  'notesUpdatedAt',
  'data',
  'year',
  'venue',
  'version',
  'createdAt',
  'addedAt',
  'annotations',
  'pdf',
];

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`workspace resources (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg, build: { resolveResource: fakeResolver } });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
    });
    afterAll(async () => t?.close());

    /** `count` resources in one statement, the rows made by the database (10,000 rows as parameters take seconds on PGlite). */
    const fillWorkspace = (workspaceId: string, count: number) =>
      t.app.ctx.db.execute(
        sql`insert into workspace_resources (workspace_id, title) select ${workspaceId}::uuid, 'r' || n from generate_series(1, ${count}) as n`,
      );

    const post = (workspaceId: string, headers: Record<string, string>, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/resources`,
        headers,
        payload: payload as Record<string, unknown>,
      });

    describe('POST /api/workspaces/{id}/resources', () => {
      it('adds a described resource by cookie: 201 with the bare resource (Variant A), text sanitised', async () => {
        const ws = await createWorkspace(t.app, owner);
        const res = await post(ws.id, owner.cookieHeaders, {
          title: '  A <b>survey</b>\n of   methods ',
          url: 'https://example.org/survey?utm_source=x',
          notes: 'Read <script>alert(1)</script>section 2.\n\nThen 3.',
          type: 'Article',
          tags: ['ML', 'ml', ' <i>vision</i> ', ''],
          authors: ['Grace Hopper'],
          data: { readingTimeMinutes: 12, nested: { ok: true } },
        });
        expect(res.statusCode).toBe(201);
        const resource = res.json();
        expect(Object.keys(resource).sort()).toEqual([...RESOURCE_FIELDS].sort());
        expect(resource).toMatchObject({
          workspaceId: ws.id,
          resourceId: null,
          title: 'A survey of methods',
          url: 'https://example.org/survey?utm_source=x',
          notes: 'Read section 2.\n\nThen 3.',
          type: 'article-journal',
          tags: ['ML', 'vision'],
          authors: ['Grace Hopper'],
          data: { readingTimeMinutes: 12, nested: { ok: true } },
          annotations: [],
        });
        expect(resource.addedAt).toBe(resource.createdAt);
      });

      it('reads back what it added: the same resource in the workspace, which counts it and is marked changed', async () => {
        const ws = await createWorkspace(t.app, owner);
        const before = (
          await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws.id}`,
            headers: owner.bearer,
          })
        ).json().workspace;
        const added = (
          await post(ws.id, owner.bearer, {
            title: 'Read back',
            url: 'https://example.org/read-back',
            tags: ['x'],
            data: { doi: '10.1/rb' },
          })
        ).json().resource;
        const detail = (
          await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws.id}`,
            headers: owner.bearer,
          })
        ).json();
        expect(detail.resources).toEqual([added]);
        expect(new Date(added.createdAt).toISOString()).toBe(added.createdAt);
        expect(detail.workspace).toMatchObject({
          resourceCount: 1,
          _count: { resources: 1, shares: 0 },
          createdAt: before.createdAt,
        });
        expect(new Date(detail.workspace.updatedAt).getTime()).toBeGreaterThanOrEqual(
          new Date(added.createdAt).getTime(),
        );
        expect(new Date(detail.workspace.updatedAt).getTime()).toBeGreaterThan(
          new Date(before.updatedAt).getTime(),
        );
      });

      it('adds by resourceId with a bearer token: 201 { resource } filled from the search lookup', async () => {
        const ws = await createWorkspace(t.app, owner);
        const res = await post(ws.id, owner.bearer, {
          resourceId: 'arxiv:1706.03762v5',
          notes: 'classic',
          tags: ['nlp'],
        });
        expect(res.statusCode).toBe(201);
        const { resource } = res.json();
        expect(resource).toMatchObject({
          resourceId: 'arxiv:1706.03762v5',
          workspaceId: ws.id,
          title: 'Attention Is All You Need',
          url: 'https://arxiv.org/abs/1706.03762v5',
          type: 'preprint',
          authors: ['Ashish Vaswani', 'Noam Shazeer', 'Niki Parmar'],
          creators: [
            { role: 'author', given: 'Ashish', family: 'Vaswani' },
            { role: 'author', given: 'Noam', family: 'Shazeer' },
            { role: 'author', given: 'Niki', family: 'Parmar' },
          ],
          arxivId: '1706.03762',
          issued: { year: 2017, month: 6, day: 12 },
          notes: 'classic',
          tags: ['nlp'],
          data: { provider: 'arxiv' },
        });
        expect(resource.abstract).toMatch(/^The dominant/);
      });

      it('answers 409 when the same work is added twice, whichever way it is named', async () => {
        const ws = await createWorkspace(t.app, owner);
        await addResource(t.app, owner, ws.id, { resourceId: 'arxiv:1706.03762v5' });
        // The PDF URL of another version of the same preprint.
        const byUrl = await post(ws.id, owner.cookieHeaders, {
          title: 'Attention (PDF)',
          url: 'https://arxiv.org/pdf/1706.03762v2.pdf',
        });
        expect(byUrl.statusCode).toBe(409);
        expect(byUrl.json().error).toMatchObject({
          code: 'CONFLICT',
          details: { field: 'url', reason: 'duplicate' },
        });

        await addResource(t.app, owner, ws.id, {
          title: 'Deep learning',
          url: 'https://doi.org/10.1038/NATURE14539',
        });
        const byDoi = await post(ws.id, owner.bearer, { resourceId: '10.1038/nature14539' });
        expect(byDoi.statusCode).toBe(409);
        expect(byDoi.json().error.details.field).toBe('resourceId');

        await addResource(t.app, owner, ws.id, {
          title: 'Blog',
          url: 'http://www.example.org/post/?utm_medium=mail#top',
        });
        expect(
          (
            await post(ws.id, owner.bearer, {
              title: 'Blog again',
              url: 'https://example.org/post',
            })
          ).statusCode,
        ).toBe(409);

        // The same work may sit in another workspace, and entries alike only by title are added (as
        // Zotero adds them): GET …/duplicates finds them, to merge or keep apart.
        const other = await createWorkspace(t.app, owner);
        expect(
          (await post(other.id, owner.bearer, { resourceId: 'arxiv:1706.03762v5' })).statusCode,
        ).toBe(201);
        expect((await post(ws.id, owner.bearer, { title: 'Untitled note' })).statusCode).toBe(201);
        expect((await post(ws.id, owner.bearer, { title: 'untitled NOTE.' })).statusCode).toBe(201);
      });

      it("saves by resourceId only http(s) addresses: a lookup's javascript: url and data: pdfUrl are dropped", async () => {
        const ws = await createWorkspace(t.app, owner);
        const res = await post(ws.id, owner.bearer, { resourceId: 'zenodo:666' });
        expect(res.statusCode).toBe(201);
        const { resource } = res.json();
        expect(resource).toMatchObject({ title: 'Hostile addresses', url: null });
        expect(resource.data).not.toHaveProperty('pdfUrl');
        const [stored] = await t.app.ctx.db
          .select()
          .from(workspaceResources)
          .where(eq(workspaceResources.id, resource.id));
        expect(stored).toMatchObject({ url: null });
        expect(JSON.stringify(stored)).not.toMatch(/javascript:|data:text/);
      });

      it('answers 404 naming resourceId when the lookup knows nothing, 503 when it fails', async () => {
        const ws = await createWorkspace(t.app, owner);
        const unknown = await post(ws.id, owner.bearer, { resourceId: 'arxiv:9999.99999' });
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json().error).toMatchObject({
          code: 'NOT_FOUND',
          details: { field: 'resourceId', reason: 'not_found' },
        });
        expect(unknown.json().error.message).toContain('arxiv:9999.99999');
        const down = await post(ws.id, owner.bearer, { resourceId: 'unavailable:1' });
        expect(down.statusCode).toBe(503);
        expect(down.json().error.code).toBe('SERVICE_UNAVAILABLE');
        const count = await t.app.ctx.db.$count(
          workspaceResources,
          eq(workspaceResources.workspaceId, ws.id),
        );
        expect(count).toBe(0);
      });

      it.each([
        [{}, 'title'],
        [{ title: '' }, 'title'],
        [{ title: '<p></p>' }, 'title'],
        [{ title: 't'.repeat(LIMITS.title + 1) }, 'title'],
        [{ title: 'ok', notes: 'n'.repeat(LIMITS.notes + 1) }, 'notes'],
        [
          { title: 'ok', tags: Array.from({ length: LIMITS.tags + 1 }, (_, i) => `tag${i}`) },
          'tags',
        ],
        [{ title: 'ok', tags: ['x'.repeat(LIMITS.tag + 1)] }, 'tags.0'],
        [{ title: 'ok', tags: 'nlp' }, 'tags'],
        [{ title: 'ok', url: 'not a url' }, 'url'],
        [{ title: 'ok', url: 'javascript:alert(1)' }, 'url'],
        [{ title: 'ok', data: { blob: 'x'.repeat(LIMITS.dataBytes) } }, 'data'],
        [{ title: 'ok', data: ['array'] }, 'data'],
        [{ resourceId: '' }, 'resourceId'],
        [{ resourceId: 'r'.repeat(LIMITS.resourceId + 1) }, 'resourceId'],
      ])('rejects %# naming the field %s', async (payload, field) => {
        const ws = await createWorkspace(t.app, owner);
        const res = await post(ws.id, owner.bearer, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
      });

      it('accepts everything exactly at the limits, measured after HTML is stripped', async () => {
        const ws = await createWorkspace(t.app, owner);
        const res = await post(ws.id, owner.bearer, {
          title: `<b>${'t'.repeat(LIMITS.title)}</b>`,
          notes: 'n'.repeat(LIMITS.notes),
          tags: Array.from({ length: LIMITS.tags }, (_, i) => `${i}`.padEnd(LIMITS.tag, 'x')),
          data: { blob: 'x'.repeat(LIMITS.dataBytes - 20) },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json().resource.title).toHaveLength(LIMITS.title);
      });

      it(`holds at most ${LIMITS.resourcesPerWorkspace} resources in one workspace`, async () => {
        const ws = await createWorkspace(t.app, owner);
        await fillWorkspace(ws.id, LIMITS.resourcesPerWorkspace - 1);
        expect((await post(ws.id, owner.bearer, { title: 'last one' })).statusCode).toBe(201);
        const full = await post(ws.id, owner.bearer, { title: 'one too many' });
        expect(full.statusCode).toBe(409);
        expect(full.json().error.details).toEqual({
          field: 'workspace',
          reason: 'too_many_resources',
        });
      });

      // Only PostgreSQL has a second connection to hold the workspace's lock with (PGlite runs one
      // statement at a time, so no add can race another there): the case exists on that leg alone.
      if (leg.postgres)
        it('counts the resources added while it waited for the workspace, so a race cannot pass the limit', async () => {
          const ws = await createWorkspace(t.app, owner);
          const db = t.app.ctx.db;
          await fillWorkspace(ws.id, LIMITS.resourcesPerWorkspace - 1);
          let racing: ReturnType<typeof post> | undefined;
          // Another add holds the workspace and takes its last place; this one must wait for it, then see it.
          await db.transaction(async (tx) => {
            await tx
              .select({ id: workspaces.id })
              .from(workspaces)
              .where(eq(workspaces.id, ws.id))
              .for('update');
            await tx
              .insert(workspaceResources)
              .values({ workspaceId: ws.id, title: 'the last place' });
            racing = post(ws.id, owner.bearer, { title: 'one too many' });
            await vi.waitFor(
              async () => {
                // On PostgreSQL, Drizzle answers execute() with the driver's result.
                const waiting = (await db.execute(
                  sql`select 1 from pg_stat_activity
                      where datname = current_database() and wait_event_type = 'Lock'
                      and query ilike '%from "workspaces"%for update%'`,
                )) as { rows: unknown[] };
                if (waiting.rows.length === 0)
                  throw new Error('The add is not waiting for the workspace yet');
              },
              { timeout: 10_000, interval: 20 },
            );
          });
          const res = await racing;
          expect(res?.statusCode).toBe(409);
          expect(res?.json().error.details).toEqual({
            field: 'workspace',
            reason: 'too_many_resources',
          });
        });

      it("answers 404 for another user's workspace, 401 without a session", async () => {
        const ws = await createWorkspace(t.app, owner);
        expect((await post(ws.id, stranger.bearer, { title: 'intruder' })).statusCode).toBe(404);
        expect((await post(ws.id, {}, { title: 'anonymous' })).statusCode).toBe(401);
      });
    });

    describe('GET /api/workspaces/{id}/resources', () => {
      it.each(DIALECTS)(
        'lists newest first with annotations, as an array (dialect %s)',
        async (dialect) => {
          const ws = await createWorkspace(t.app, owner);
          const first = await addResource(t.app, owner, ws.id, { title: 'First' });
          await addResource(t.app, owner, ws.id, { title: 'Second' });
          await annotate(t.app, owner, first.id, { body: 'on the first' });
          const res = await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws.id}/resources`,
            headers: as(owner, dialect),
          });
          expect(res.statusCode).toBe(200);
          const list = res.json();
          expect(list.map((r: { title: string }) => r.title)).toEqual(['Second', 'First']);
          expect(list[1].annotations).toMatchObject([
            { body: 'on the first', resourceId: first.id },
          ]);
          expect(res.headers['x-total-count']).toBe('2');
        },
      );

      it('pages with limit and offset, and rejects limit over 100', async () => {
        const ws = await createWorkspace(t.app, owner);
        for (const title of ['a', 'b', 'c']) await addResource(t.app, owner, ws.id, { title });
        const page = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws.id}/resources?limit=1&offset=1`,
          headers: owner.bearer,
        });
        expect(page.json().map((r: { title: string }) => r.title)).toEqual(['b']);
        const tooMany = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws.id}/resources?limit=101`,
          headers: owner.bearer,
        });
        expect(tooMany.statusCode).toBe(400);
        expect(tooMany.json().error.details.field).toBe('limit');
      });

      it("answers 404 for another user's workspace, 401 without a session", async () => {
        const ws = await createWorkspace(t.app, owner);
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/workspaces/${ws.id}/resources`,
              headers: stranger.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (await t.app.inject({ method: 'GET', url: `/api/workspaces/${ws.id}/resources` }))
            .statusCode,
        ).toBe(401);
      });
    });

    describe('PATCH /api/workspaces/{id}/resources/{resourceId} (an extension)', () => {
      const patch = (
        workspaceId: string,
        resourceId: string,
        headers: Record<string, string>,
        payload?: unknown,
      ) =>
        t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${workspaceId}/resources/${resourceId}`,
          headers,
          ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
        });
      const detail = async (workspaceId: string) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${workspaceId}`,
            headers: owner.bearer,
          })
        ).json();

      it('changes notes and tags by cookie: 200 with the bare resource (Variant A), cleaned as on create, with its annotations', async () => {
        const ws = await createWorkspace(t.app, owner);
        const added = await addResource(t.app, owner, ws.id, {
          title: 'Editable',
          notes: 'first',
          tags: ['old'],
        });
        await annotate(t.app, owner, added.id, { body: 'kept' });
        const res = await patch(ws.id, added.id, owner.cookieHeaders, {
          notes: 'Read <script>alert(1)</script>section 4.\n\nThen <b>5</b>.',
          tags: ['ML', 'ml', ' <i>vision</i> ', ''],
        });
        expect(res.statusCode).toBe(200);
        const resource = res.json();
        expect(Object.keys(resource).sort()).toEqual([...RESOURCE_FIELDS].sort());
        expect(resource).toMatchObject({
          id: added.id,
          workspaceId: ws.id,
          title: 'Editable',
          notes: 'Read section 4.\n\nThen 5.',
          tags: ['ML', 'vision'],
        });
        expect(resource.annotations).toMatchObject([{ body: 'kept' }]);
        expect((await detail(ws.id)).resources).toEqual([resource]);
      });

      it('answers { resource } to a bearer token (Variant B); an absent field is unchanged, tags: [] and notes: "" clear', async () => {
        const ws = await createWorkspace(t.app, owner);
        const added = await addResource(t.app, owner, ws.id, {
          title: 'Partial',
          notes: 'keep me',
          tags: ['a', 'b'],
        });
        const tagsOnly = await patch(ws.id, added.id, owner.bearer, { tags: ['c'] });
        expect(tagsOnly.statusCode).toBe(200);
        expect(Object.keys(tagsOnly.json())).toEqual(['resource']);
        expect(tagsOnly.json().resource).toMatchObject({
          id: added.id,
          notes: 'keep me',
          tags: ['c'],
        });
        // A field no resource has is refused by name (the body is closed, as the document says), and nothing changes.
        const renamed = await patch(ws.id, added.id, owner.bearer, {
          notes: 'changed',
          titel: 'Not renamed',
        });
        expect(renamed.statusCode).toBe(400);
        expect(renamed.json().error.details.field).toBe('titel');
        const notesOnly = await patch(ws.id, added.id, owner.bearer, { notes: 'changed' });
        expect(notesOnly.json().resource).toMatchObject({
          title: 'Partial',
          url: null,
          notes: 'changed',
          tags: ['c'],
        });
        const cleared = await patch(ws.id, added.id, owner.bearer, { notes: '', tags: [] });
        expect(cleared.statusCode).toBe(200);
        expect(cleared.json().resource).toMatchObject({ notes: '', tags: [] });
        expect((await detail(ws.id)).resources[0]).toMatchObject({ notes: '', tags: [] });
      });

      it("says who last wrote the notes and when: an editor's change and an append name them; a change of tags alone does not", async () => {
        const ws = await createWorkspace(t.app, owner);
        const added = await addResource(t.app, owner, ws.id, {
          title: 'Shared reading',
          notes: 'given at adding',
        });
        const editor = await buildUser(t.app);
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${ws.id}/members`,
              headers: owner.bearer,
              payload: { email: editor.email, role: 'editor' },
            })
          ).statusCode,
        ).toBe(201);
        expect((await detail(ws.id)).resources[0]).toMatchObject({
          notes: 'given at adding',
          notesUpdatedBy: null,
          notesUpdatedAt: null,
        });

        const byEditor = (
          await patch(ws.id, added.id, editor.bearer, { notes: 'the editor’s reading' })
        ).json().resource;
        expect(byEditor).toMatchObject({ notesUpdatedBy: editor.id });
        expect(Date.parse(byEditor.notesUpdatedAt)).toBeGreaterThan(Date.now() - 60_000);
        const tagsOnly = (await patch(ws.id, added.id, owner.bearer, { tags: ['later'] })).json()
          .resource;
        expect(tagsOnly).toMatchObject({
          notesUpdatedBy: editor.id,
          notesUpdatedAt: byEditor.notesUpdatedAt,
        });

        const appended = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws.id}/resources/${added.id}/notes`,
          headers: owner.bearer,
          payload: { text: 'And the owner’s.' },
        });
        expect(appended.statusCode).toBe(200);
        expect((await detail(ws.id)).resources[0]).toMatchObject({ notesUpdatedBy: owner.id });
      });

      it('marks the workspace changed, as adding and removing do', async () => {
        const ws = await createWorkspace(t.app, owner);
        const added = await addResource(t.app, owner, ws.id, { title: 'Touch' });
        const before = (await detail(ws.id)).workspace;
        expect((await patch(ws.id, added.id, owner.bearer, { notes: 'later' })).statusCode).toBe(
          200,
        );
        const after = (await detail(ws.id)).workspace;
        expect(new Date(after.updatedAt).getTime()).toBeGreaterThan(
          new Date(before.updatedAt).getTime(),
        );
        expect(after).toMatchObject({ createdAt: before.createdAt, resourceCount: 1 });
      });

      it('accepts notes and tags exactly at the limits, measured after HTML is stripped', async () => {
        const ws = await createWorkspace(t.app, owner);
        const added = await addResource(t.app, owner, ws.id, { title: 'Limits' });
        const tags = Array.from({ length: LIMITS.tags }, (_, i) => `${i}`.padEnd(LIMITS.tag, 'x'));
        const res = await patch(ws.id, added.id, owner.bearer, {
          notes: `<p>${'n'.repeat(LIMITS.notes)}</p>`,
          tags,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().resource.notes).toHaveLength(LIMITS.notes);
        expect(res.json().resource.tags).toEqual(tags);
      });

      it.each([
        [{}, 'notes'],
        [{ title: '  <b></b> ' }, 'title'],
        [{ doi: 'doi.org/not-a-doi' }, 'doi'],
        [{ isbn: '978-0-306-40615-6' }, 'isbn'],
        [{ issn: '0378-5956' }, 'issn'],
        [{ pages: '12 to 19!' }, 'pages'],
        [{ url: 'javascript:alert(1)' }, 'url'],
        [{ type: 'x'.repeat(51) }, 'type'],
        [{ creators: [{ role: 'author' }] }, 'creators.0.family'],
        [{ creators: [{ role: 'owner', family: 'X' }] }, 'creators.0.role'],
        [{ authors: ['A'], creators: [{ family: 'A' }] }, 'authors'],
        [{ arxivId: 'arXiv-ish' }, 'arxivId'],
        [{ notes: 'n'.repeat(LIMITS.notes + 1) }, 'notes'],
        [{ notes: 42 }, 'notes'],
        [{ tags: Array.from({ length: LIMITS.tags + 1 }, (_, i) => `tag${i}`) }, 'tags'],
        [{ tags: ['x'.repeat(LIMITS.tag + 1)] }, 'tags.0'],
        [{ tags: 'nlp' }, 'tags'],
        [{ tags: ['ok', 7] }, 'tags.1'],
      ])('rejects %# naming the field %s, and changes nothing', async (payload, field) => {
        const ws = await createWorkspace(t.app, owner);
        const added = await addResource(t.app, owner, ws.id, {
          title: 'Unchanged',
          notes: 'as it was',
          tags: ['t'],
        });
        const res = await patch(ws.id, added.id, owner.bearer, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
        expect((await detail(ws.id)).resources[0]).toMatchObject({
          notes: 'as it was',
          tags: ['t'],
        });
      });

      it(
        "answers 404 for another user's resource, for a resource named with " +
          'another workspace of its owner, for an unknown id; 401 without a session',
        async () => {
          const ws = await createWorkspace(t.app, owner);
          const otherOfOwner = await createWorkspace(t.app, owner, { name: 'Other list' });
          const resource = await addResource(t.app, owner, ws.id, {
            title: 'Mine',
            notes: 'mine',
            tags: ['m'],
          });
          const strangersWs = await createWorkspace(t.app, stranger);
          const change = { notes: 'intruded', tags: ['x'] };

          const viaStranger = await patch(ws.id, resource.id, stranger.bearer, change);
          expect(viaStranger.statusCode).toBe(404);
          expect(viaStranger.json()).toEqual({
            error: { code: 'NOT_FOUND', message: 'Workspace not found' },
          });
          const viaStrangersWorkspace = await patch(
            strangersWs.id,
            resource.id,
            stranger.cookieHeaders,
            change,
          );
          expect(viaStrangersWorkspace.statusCode).toBe(404);
          expect(viaStrangersWorkspace.json()).toEqual({
            error: { code: 'NOT_FOUND', message: 'Resource not found' },
          });
          const viaOwnOtherWorkspace = await patch(
            otherOfOwner.id,
            resource.id,
            owner.bearer,
            change,
          );
          expect(viaOwnOtherWorkspace.statusCode).toBe(404);
          const unknown = await patch(ws.id, UNKNOWN_ID, owner.bearer, change);
          expect(unknown.statusCode).toBe(404);
          // The same body for a resource that is not the caller's as for one that does not exist.
          expect(viaStrangersWorkspace.json()).toEqual(unknown.json());
          expect(viaOwnOtherWorkspace.json()).toEqual(unknown.json());
          expect((await patch(ws.id, resource.id, {}, change)).statusCode).toBe(401);

          expect((await detail(ws.id)).resources[0]).toMatchObject({ notes: 'mine', tags: ['m'] });
        },
      );
    });

    describe('DELETE /api/workspaces/{id}/resources/{resourceId}', () => {
      it.each(DIALECTS)(
        'removes the resource and its annotations (dialect %s)',
        async (dialect) => {
          const ws = await createWorkspace(t.app, owner);
          const resource = await addResource(t.app, owner, ws.id, { title: 'Remove me' });
          await annotate(t.app, owner, resource.id, { body: 'gone too' });
          const res = await t.app.inject({
            method: 'DELETE',
            url: `/api/workspaces/${ws.id}/resources/${resource.id}`,
            headers: as(owner, dialect),
          });
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual({ success: true, id: resource.id });
          expect(
            await t.app.ctx.db
              .select()
              .from(annotations)
              .where(eq(annotations.resourceId, resource.id)),
          ).toHaveLength(0);
          const again = await t.app.inject({
            method: 'DELETE',
            url: `/api/workspaces/${ws.id}/resources/${resource.id}`,
            headers: owner.bearer,
          });
          expect(again.statusCode).toBe(404);
        },
      );

      it("answers 404 for another user's resource or one of another workspace; 401 without a session", async () => {
        const ws = await createWorkspace(t.app, owner);
        const resource = await addResource(t.app, owner, ws.id, { title: 'Mine' });
        const strangersWs = await createWorkspace(t.app, stranger);
        const viaStranger = await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${ws.id}/resources/${resource.id}`,
          headers: stranger.bearer,
        });
        expect(viaStranger.statusCode).toBe(404);
        const viaOwnWorkspace = await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${strangersWs.id}/resources/${resource.id}`,
          headers: stranger.bearer,
        });
        expect(viaOwnWorkspace.statusCode).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${ws.id}/resources/${UNKNOWN_ID}`,
              headers: owner.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${ws.id}/resources/${resource.id}`,
            })
          ).statusCode,
        ).toBe(401);
        expect(
          await t.app.ctx.db.$count(workspaceResources, eq(workspaceResources.id, resource.id)),
        ).toBe(1);
      });

      it('of two processes removing one resource at once, exactly one answers 200 and the other 404', async () => {
        const env = { JWT_SECRET: randomBytes(32).toString('hex') };
        const a = await buildTestApp({ leg, env });
        const b = await buildTestApp({ leg, env, sameDatabaseAs: a });
        try {
          const user = await buildUser(a.app);
          const ws = await createWorkspace(a.app, user);
          for (let pair = 0; pair < 10; pair++) {
            const resource = await addResource(a.app, user, ws.id, {
              title: `Removed twice ${pair}`,
            });
            const url = `/api/workspaces/${ws.id}/resources/${resource.id}`;
            const answers = await Promise.all(
              [a.app, b.app].map((app) =>
                app.inject({ method: 'DELETE', url, headers: user.bearer }),
              ),
            );
            expect(answers.map((answer) => answer.statusCode).sort(), `pair ${pair}`).toEqual([
              200, 404,
            ]);
          }
        } finally {
          await b.close();
          await a.close();
        }
      });
    });
  });
}
