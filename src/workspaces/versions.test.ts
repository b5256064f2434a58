/**
 * Optimistic concurrency: every reply of one workspace, resource or annotation carries its version as
 * an ETag (and `version`); a change or deletion with a stale If-Match is a 412 with the current object
 * and writes nothing; two changes made from the same version at once: one wins, the other is a 412.
 */
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { eventually } from '../../test/support/process-client.js';
import { annotations, workspaceResources, workspaces } from '../platform/db/schema.js';
import { DIALECTS, addResource, annotate, as, createWorkspace } from './test-support/helpers.js';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`versions: ETag and If-Match (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    let workspaceId: string;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
      workspaceId = (await createWorkspace(t.app, owner, { name: 'Versioned' })).id;
    });
    afterAll(async () => t?.close());

    const resourceUrl = (id: string) => `/api/workspaces/${workspaceId}/resources/${id}`;
    const storedResource = async (id: string) =>
      (
        await t.app.ctx.db.select().from(workspaceResources).where(eq(workspaceResources.id, id))
      )[0];

    describe('ETag and version on each reply of one object', () => {
      it.each(DIALECTS)(
        'workspace: create, read and update carry "w<version>" (dialect %s)',
        async (dialect) => {
          const created = await t.app.inject({
            method: 'POST',
            url: '/api/workspaces',
            headers: as(owner, dialect),
            payload: { name: 'Tagged' },
          });
          expect(created.statusCode).toBe(201);
          expect(created.headers.etag).toBe('"w1"');
          const body = created.json();
          const workspace = dialect === 'B' ? body.workspace : body;
          expect(workspace.version).toBe(1);
          const read = await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${workspace.id}`,
            headers: as(owner, dialect),
          });
          expect(read.headers.etag).toBe('"w1"');
          const patched = await t.app.inject({
            method: 'PATCH',
            url: `/api/workspaces/${workspace.id}`,
            headers: as(owner, dialect),
            payload: { name: 'Renamed' },
          });
          expect(patched.statusCode).toBe(200);
          expect(patched.headers.etag).toBe('"w2"');
          expect((dialect === 'B' ? patched.json().workspace : patched.json()).version).toBe(2);
        },
      );

      it.each(DIALECTS)(
        'resource: add, update and append to notes carry "r<version>" (dialect %s)',
        async (dialect) => {
          const added = await t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${workspaceId}/resources`,
            headers: as(owner, dialect),
            payload: { title: `Etag ${dialect}` },
          });
          expect(added.statusCode).toBe(201);
          expect(added.headers.etag).toBe('"r1"');
          const resource = dialect === 'B' ? added.json().resource : added.json();
          expect(resource.version).toBe(1);
          const patched = await t.app.inject({
            method: 'PATCH',
            url: resourceUrl(resource.id),
            headers: as(owner, dialect),
            payload: { notes: 'first' },
          });
          expect(patched.headers.etag).toBe('"r2"');
          const appended = await t.app.inject({
            method: 'POST',
            url: `${resourceUrl(resource.id)}/notes`,
            headers: as(owner, dialect),
            payload: { text: 'more' },
          });
          expect(appended.statusCode).toBe(200);
          expect(appended.headers.etag).toBe('"r3"');
          expect((dialect === 'B' ? appended.json().resource : appended.json()).version).toBe(3);
        },
      );

      it('annotation: create and update carry "a<version>"', async () => {
        const resource = await addResource(t.app, owner, workspaceId, { title: 'Annotated' });
        const created = await t.app.inject({
          method: 'POST',
          url: `/api/resources/${resource.id}/annotations`,
          headers: owner.bearer,
          payload: { body: 'one' },
        });
        expect(created.headers.etag).toBe('"a1"');
        expect(created.json().version).toBe(1);
        const patched = await t.app.inject({
          method: 'PATCH',
          url: `/api/annotations/${created.json().id}`,
          headers: owner.bearer,
          payload: { body: 'two' },
        });
        expect(patched.headers.etag).toBe('"a2"');
        expect(patched.json().version).toBe(2);
      });

      it('bulk tag and move give the resources they change a new version', async () => {
        const [a, b] = [
          await addResource(t.app, owner, workspaceId, { title: 'Bulk A' }),
          await addResource(t.app, owner, workspaceId, { title: 'Bulk B' }),
        ];
        const tagged = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${workspaceId}/resources/bulk/tag`,
          headers: owner.bearer,
          payload: { resourceIds: [a.id], add: ['x'] },
        });
        expect(tagged.statusCode).toBe(200);
        expect((await storedResource(a.id))?.version).toBe(2);
        expect((await storedResource(b.id))?.version).toBe(1);
        const target = await createWorkspace(t.app, owner, { name: 'Target' });
        const moved = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${workspaceId}/resources/bulk/move`,
          headers: owner.bearer,
          payload: { resourceIds: [b.id], targetWorkspaceId: target.id },
        });
        expect(moved.json().moved).toEqual([b.id]);
        expect((await storedResource(b.id))?.version).toBe(2);
      });
    });

    describe('If-Match on changes', () => {
      it.each(DIALECTS)(
        'a stale If-Match on a resource is 412 with the current resource, and nothing is written (dialect %s)',
        async (dialect) => {
          const { id } = await addResource(t.app, owner, workspaceId, {
            title: `Stale ${dialect}`,
            notes: 'original',
          });
          await t.app.inject({
            method: 'PATCH',
            url: resourceUrl(id),
            headers: owner.bearer,
            payload: { notes: 'theirs' },
          });
          const res = await t.app.inject({
            method: 'PATCH',
            url: resourceUrl(id),
            headers: { ...as(owner, dialect), 'if-match': '"r1"' },
            payload: { notes: 'mine' },
          });
          expect(res.statusCode).toBe(412);
          expect(res.headers.etag).toBe('"r2"');
          expect(res.json()).toMatchObject({
            error: { code: 'PRECONDITION_FAILED', details: { field: 'if-match', reason: 'stale' } },
            current: { id, notes: 'theirs', version: 2 },
          });
          expect(await storedResource(id)).toMatchObject({ notes: 'theirs', version: 2 });
          const appended = await t.app.inject({
            method: 'POST',
            url: `${resourceUrl(id)}/notes`,
            headers: { ...as(owner, dialect), 'if-match': '"r1"' },
            payload: { text: 'appended' },
          });
          expect(appended.statusCode).toBe(412);
          expect(await storedResource(id)).toMatchObject({ notes: 'theirs', version: 2 });
        },
      );

      it('a matching If-Match writes and answers the new ETag; * matches any version; a list matches any of its tags', async () => {
        const { id } = await addResource(t.app, owner, workspaceId, { title: 'Matching' });
        const first = await t.app.inject({
          method: 'PATCH',
          url: resourceUrl(id),
          headers: { ...owner.bearer, 'if-match': '"r1"' },
          payload: { tags: ['a'] },
        });
        expect(first.statusCode).toBe(200);
        expect(first.headers.etag).toBe('"r2"');
        const any = await t.app.inject({
          method: 'PATCH',
          url: resourceUrl(id),
          headers: { ...owner.bearer, 'if-match': '*' },
          payload: { tags: ['b'] },
        });
        expect(any.headers.etag).toBe('"r3"');
        const listed = await t.app.inject({
          method: 'POST',
          url: `${resourceUrl(id)}/notes`,
          headers: { ...owner.bearer, 'if-match': '"r1", "r3"' },
          payload: { text: 'ok' },
        });
        expect(listed.statusCode).toBe(200);
        expect(listed.headers.etag).toBe('"r4"');
      });

      it("a weak tag or another kind's tag never matches; a malformed If-Match is a 400 naming the header", async () => {
        const { id } = await addResource(t.app, owner, workspaceId, { title: 'Strict' });
        for (const tag of ['W/"r1"', '"w1"', '"1"']) {
          const res = await t.app.inject({
            method: 'PATCH',
            url: resourceUrl(id),
            headers: { ...owner.bearer, 'if-match': tag },
            payload: { notes: 'x' },
          });
          expect(res.statusCode, tag).toBe(412);
        }
        const malformed = await t.app.inject({
          method: 'PATCH',
          url: resourceUrl(id),
          headers: { ...owner.bearer, 'if-match': 'r1' },
          payload: { notes: 'x' },
        });
        expect(malformed.statusCode).toBe(400);
        expect(malformed.json().error.details.field).toBe('if-match');
        expect((await storedResource(id))?.version).toBe(1);
      });

      it('workspace settings: stale If-Match is 412 with the current workspace; another user still gets a 404', async () => {
        const ws = await createWorkspace(t.app, owner, { name: 'Settings' });
        await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${ws.id}`,
          headers: owner.bearer,
          payload: { description: 'theirs' },
        });
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${ws.id}`,
          headers: { ...owner.cookieHeaders, 'if-match': '"w1"' },
          payload: { description: 'mine' },
        });
        expect(res.statusCode).toBe(412);
        expect(res.json().current).toMatchObject({
          id: ws.id,
          description: 'theirs',
          version: 2,
          role: 'owner',
        });
        const other = await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${ws.id}`,
          headers: { ...stranger.bearer, 'if-match': '"w1"' },
          payload: { description: 'no' },
        });
        expect(other.statusCode).toBe(404);
        // Resources coming and going are not a change of its settings.
        await addResource(t.app, owner, ws.id, { title: 'Not a settings change' });
        const ok = await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${ws.id}`,
          headers: { ...owner.bearer, 'if-match': '"w2"' },
          payload: { description: 'mine' },
        });
        expect(ok.statusCode).toBe(200);
      });

      it('annotation: stale If-Match on update and delete is 412 with the current annotation', async () => {
        const resource = await addResource(t.app, owner, workspaceId, {
          title: 'Annotation races',
        });
        const { id } = await annotate(t.app, owner, resource.id, { body: 'first' });
        await t.app.inject({
          method: 'PATCH',
          url: `/api/annotations/${id}`,
          headers: owner.bearer,
          payload: { body: 'theirs' },
        });
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/annotations/${id}`,
          headers: { ...owner.bearer, 'if-match': '"a1"' },
          payload: { body: 'mine' },
        });
        expect(res.statusCode).toBe(412);
        expect(res.json().current).toMatchObject({
          id,
          body: 'theirs',
          version: 2,
          authorName: owner.name,
        });
        const deleted = await t.app.inject({
          method: 'DELETE',
          url: `/api/annotations/${id}`,
          headers: { ...owner.bearer, 'if-match': '"a1"' },
        });
        expect(deleted.statusCode).toBe(412);
        expect(
          await t.app.ctx.db.select().from(annotations).where(eq(annotations.id, id)),
        ).toHaveLength(1);
      });

      it('deletes with a stale If-Match are 412 and the object is still there; with the current one they delete', async () => {
        const ws = await createWorkspace(t.app, owner, { name: 'Doomed' });
        const { id } = await addResource(t.app, owner, ws.id, { title: 'Doomed resource' });
        await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${ws.id}/resources/${id}`,
          headers: owner.bearer,
          payload: { notes: 'changed' },
        });
        await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${ws.id}`,
          headers: owner.bearer,
          payload: { name: 'Changed' },
        });
        const resourceGone = await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${ws.id}/resources/${id}`,
          headers: { ...owner.bearer, 'if-match': '"r1"' },
        });
        expect(resourceGone.statusCode).toBe(412);
        expect(resourceGone.json().current).toMatchObject({ id, version: 2 });
        expect(await storedResource(id)).toBeDefined();
        const workspaceGone = await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${ws.id}`,
          headers: { ...owner.bearer, 'if-match': '"w1"' },
        });
        expect(workspaceGone.statusCode).toBe(412);
        expect(
          await t.app.ctx.db.select().from(workspaces).where(eq(workspaces.id, ws.id)),
        ).toHaveLength(1);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${ws.id}/resources/${id}`,
              headers: { ...owner.bearer, 'if-match': '"r2"' },
            })
          ).statusCode,
        ).toBe(200);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${ws.id}`,
              headers: { ...owner.bearer, 'if-match': '"w2"' },
            })
          ).statusCode,
        ).toBe(200);
      });
    });

    describe('two changes from the same version at once', () => {
      it('exactly one is written, the other is a 412 naming the winner', async () => {
        const { id } = await addResource(t.app, owner, workspaceId, { title: 'Raced' });
        const change = (notes: string) =>
          t.app.inject({
            method: 'PATCH',
            url: resourceUrl(id),
            headers: { ...owner.bearer, 'if-match': '"r1"' },
            payload: { notes },
          });
        let holder: pg.Client | null = null;
        let answers: Array<Awaited<ReturnType<typeof change>>>;
        if (leg.postgres) {
          // Both requests are made to wait on a row lock held here, so that they really run together:
          // each passed its own load (at version 1) before either writes.
          holder = new pg.Client({ connectionString: t.store.databaseUrl });
          await holder.connect();
          await holder.query('begin');
          await holder.query('select 1 from workspace_resources where id = $1 for update', [id]);
          const pending = Promise.all([change('from A'), change('from B')]);
          // Counted as the requests queued behind this lock (directly, or behind the one ahead of them):
          // other test files share the database, and their waits are not these.
          const bothWaiting = await eventually(
            async () => {
              const { rows } = await holder!.query<{ pid: number; blockers: number[]; me: number }>(
                "select pid, pg_blocking_pids(pid) as blockers, pg_backend_pid() as me from pg_stat_activity where wait_event_type = 'Lock'",
              );
              const behind = new Set<number>(rows.length > 0 ? [rows[0]!.me] : []);
              for (let grew = true; grew;) {
                grew = false;
                for (const row of rows) {
                  if (!behind.has(row.pid) && row.blockers.some((pid) => behind.has(pid))) {
                    behind.add(row.pid);
                    grew = true;
                  }
                }
              }
              return behind.size - 1 === 2;
            },
            20_000,
            20,
          );
          expect(bothWaiting).toBe(true);
          await holder.query('commit');
          answers = await pending;
          await holder.end();
        } else {
          answers = await Promise.all([change('from A'), change('from B')]);
        }
        const statuses = answers.map((answer) => answer.statusCode).sort();
        expect(statuses).toEqual([200, 412]);
        const winner = answers.find((answer) => answer.statusCode === 200)!.json().resource;
        const loser = answers.find((answer) => answer.statusCode === 412)!.json();
        expect(loser.current).toMatchObject({ notes: winner.notes, version: 2 });
        expect(await storedResource(id)).toMatchObject({ notes: winner.notes, version: 2 });
      });
    });
  });
}
