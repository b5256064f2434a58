/**
 * The change log on both stores: every mutation of a workspace's contents records its change (one
 * table of cases, each a real request), nothing for a refused one; the activity log's pages, both
 * dialects and its bounds; pruning by age and by the per-workspace cap.
 */
import { and, desc, eq, gt, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema, BearerReply } from '../../../test/support/api-types.js';
import { buildTestApp, embeddedLeg, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { linkIn, mailWrittenBy } from '../../../test/support/outbox.js';
import { shareLinks, workspaceEvents } from '../../platform/db/schema.js';
import { makePagedPdf } from '../../summaries/test-support/pdfs.js';
import {
  addResource,
  annotate,
  createWorkspace,
  fakeResolver,
  pdfMultipart,
  shareWorkspace,
} from '../test-support/helpers.js';
import { pruneEvents } from './store.js';
import { registerEventPruning } from './pruning.js';
import type { JobQueue } from '../../platform/jobs.js';

interface Logged {
  type: string;
  workspaceId: string;
  actorId: string | null;
  resourceId: string | null;
  annotationId: string | null;
  userId: string | null;
  details: Record<string, unknown>;
}

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`workspace change log (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let editor: TestUser;
    let viewer: TestUser;
    let joiner: TestUser;
    let stranger: TestUser;
    let PDF: Buffer;
    beforeAll(async () => {
      PDF = Buffer.from(await makePagedPdf(['A page about change logs and the events they make.']));
      t = await buildTestApp({
        leg,
        env: { RATE_LIMIT_INVITATIONS_PER_HOUR: '1000' },
        build: { resolveResource: fakeResolver },
      });
      [owner, editor, viewer, joiner, stranger] = await Promise.all([
        buildUser(t.app, { name: 'Olive Owner' }),
        buildUser(t.app),
        buildUser(t.app),
        buildUser(t.app),
        buildUser(t.app),
      ]);
    });
    afterAll(async () => t?.close());

    const inject = async (
      by: TestUser,
      method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
      url: string,
      payload?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...by.bearer, ...headers },
        ...(payload === undefined ? {} : { payload: payload as string }),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
      return res;
    };
    const lastId = async () =>
      (
        await t.app.ctx.db
          .select({ id: workspaceEvents.id })
          .from(workspaceEvents)
          .orderBy(desc(workspaceEvents.id))
          .limit(1)
      )[0]?.id ?? 0;
    /** The changes people made after `after` (the service's own, a PDF's extraction, come when they come). */
    const loggedAfter = async (after: number): Promise<Logged[]> =>
      t.app.ctx.db
        .select({
          type: workspaceEvents.type,
          workspaceId: workspaceEvents.workspaceId,
          actorId: workspaceEvents.actorId,
          resourceId: workspaceEvents.resourceId,
          annotationId: workspaceEvents.annotationId,
          userId: workspaceEvents.userId,
          details: workspaceEvents.details,
        })
        .from(workspaceEvents)
        .where(and(gt(workspaceEvents.id, after), isNotNull(workspaceEvents.actorId)))
        .orderBy(workspaceEvents.id);

    it('every mutation of a workspace records its change, in its own transaction, with who did it and on what', async () => {
      const ws = (await createWorkspace(t.app, owner, { name: 'Logged' })).id;
      const other = (await createWorkspace(t.app, owner, { name: 'Elsewhere' })).id;
      await inject(owner, 'POST', `/api/workspaces/${ws}/members`, {
        email: editor.email,
        role: 'editor',
      });
      await inject(owner, 'POST', `/api/workspaces/${ws}/members`, {
        email: viewer.email,
        role: 'viewer',
      });
      const state: Record<string, string> = {};
      const partial = (expected: Partial<Logged>) =>
        expect.objectContaining(expected) as unknown as Logged;

      const cases: Array<{ name: string; act: () => Promise<unknown>; expect: () => Logged[] }> = [
        {
          name: 'workspace renamed',
          act: () => inject(owner, 'PATCH', `/api/workspaces/${ws}`, { name: 'Renamed' }),
          expect: () => [
            partial({
              type: 'workspace.updated',
              workspaceId: ws,
              actorId: owner.id,
              details: { name: 'Renamed', fields: ['name'] },
            }),
          ],
        },
        {
          name: 'resource added',
          act: async () =>
            (state.resource = (await addResource(t.app, editor, ws, { title: 'A paper' })).id),
          expect: () => [
            partial({
              type: 'resource.added',
              workspaceId: ws,
              actorId: editor.id,
              resourceId: state.resource,
              details: { title: 'A paper' },
            }),
          ],
        },
        {
          name: 'resource added by id (as saved from search)',
          act: async () =>
            (state.byId = (
              await addResource(t.app, editor, ws, { resourceId: '10.1038/nature14539' })
            ).id),
          expect: () => [
            partial({
              type: 'resource.added',
              resourceId: state.byId,
              details: { title: 'Deep learning' },
            }),
          ],
        },
        {
          name: 'resource changed',
          act: () =>
            inject(editor, 'PATCH', `/api/workspaces/${ws}/resources/${state.resource}`, {
              tags: ['x'],
            }),
          expect: () => [
            partial({
              type: 'resource.updated',
              resourceId: state.resource,
              details: { title: 'A paper', fields: ['tags'] },
            }),
          ],
        },
        {
          name: 'notes appended',
          act: () =>
            inject(editor, 'POST', `/api/workspaces/${ws}/resources/${state.resource}/notes`, {
              text: 'More',
            }),
          expect: () => [
            partial({
              type: 'resource.updated',
              resourceId: state.resource,
              details: { title: 'A paper', fields: ['notes'] },
            }),
          ],
        },
        {
          name: 'bulk tags',
          act: () =>
            inject(editor, 'POST', `/api/workspaces/${ws}/resources/bulk/tag`, {
              resourceIds: [state.resource, state.byId],
              add: ['y'],
            }),
          expect: () => [
            partial({
              type: 'resource.updated',
              resourceId: null,
              details: { count: 2, resourceIds: [state.resource, state.byId], fields: ['tags'] },
            }),
          ],
        },
        {
          name: 'PDF attached',
          act: () => {
            const upload = pdfMultipart('paper.pdf', PDF);
            return inject(
              editor,
              'PUT',
              `/api/workspaces/${ws}/resources/${state.resource}/pdf`,
              upload.payload,
              upload.headers,
            );
          },
          expect: () => [
            partial({
              type: 'pdf.updated',
              workspaceId: ws,
              actorId: editor.id,
              resourceId: state.resource,
              details: { state: 'attached', filename: 'paper.pdf' },
            }),
          ],
        },
        {
          name: 'PDF removed',
          act: () =>
            inject(editor, 'DELETE', `/api/workspaces/${ws}/resources/${state.resource}/pdf`),
          expect: () => [
            partial({
              type: 'pdf.updated',
              resourceId: state.resource,
              details: { state: 'removed' },
            }),
          ],
        },
        {
          name: 'resource made from a PDF',
          act: async () => {
            const upload = pdfMultipart('From a file.pdf', PDF);
            state.fromPdf = (
              await inject(
                editor,
                'POST',
                `/api/workspaces/${ws}/resources`,
                upload.payload,
                upload.headers,
              )
            ).json<BearerReply<'ResourceEnvelope'>>().resource.id;
          },
          expect: () => [
            partial({ type: 'resource.added', resourceId: state.fromPdf }),
            partial({
              type: 'pdf.updated',
              resourceId: state.fromPdf,
              details: { state: 'attached', filename: 'From a file.pdf' },
            }),
          ],
        },
        {
          name: 'import (one change per batch)',
          act: () =>
            inject(
              editor,
              'POST',
              `/api/workspaces/${ws}/import`,
              '@article{a, title={Imported one}, year={2020}}\n@article{b, title={Imported two}, year={2021}}\n',
              { 'content-type': 'application/x-bibtex' },
            ),
          expect: () => [
            partial({
              type: 'resource.added',
              resourceId: null,
              actorId: editor.id,
              details: { count: 2, via: 'import' },
            }),
          ],
        },
        {
          name: 'annotation added',
          act: async () =>
            (state.annotation = (
              await annotate(t.app, viewer, state.resource!, { body: 'mine' })
            ).id),
          expect: () => [
            partial({
              type: 'annotation.added',
              workspaceId: ws,
              actorId: viewer.id,
              resourceId: state.resource,
              annotationId: state.annotation,
            }),
          ],
        },
        {
          name: 'annotation changed',
          act: () =>
            inject(viewer, 'PATCH', `/api/annotations/${state.annotation}`, { body: 'changed' }),
          expect: () => [
            partial({
              type: 'annotation.updated',
              annotationId: state.annotation,
              resourceId: state.resource,
            }),
          ],
        },
        {
          name: 'annotation removed',
          act: () => inject(editor, 'DELETE', `/api/annotations/${state.annotation}`),
          expect: () => [
            partial({
              type: 'annotation.removed',
              actorId: editor.id,
              annotationId: state.annotation,
            }),
          ],
        },
        {
          name: 'resources moved to another workspace',
          act: () =>
            inject(owner, 'POST', `/api/workspaces/${ws}/resources/bulk/move`, {
              resourceIds: [state.byId],
              targetWorkspaceId: other,
            }),
          // Logged in workspace id order (the order the move locks them in).
          expect: () => {
            const removed = partial({
              type: 'resource.removed',
              workspaceId: ws,
              details: { count: 1, resourceIds: [state.byId], to: other },
            });
            const added = partial({
              type: 'resource.added',
              workspaceId: other,
              details: { count: 1, resourceIds: [state.byId], from: ws },
            });
            return ws < other ? [removed, added] : [added, removed];
          },
        },
        {
          name: 'resources removed in bulk',
          act: () =>
            inject(editor, 'POST', `/api/workspaces/${ws}/resources/bulk/remove`, {
              resourceIds: [state.fromPdf],
            }),
          expect: () => [
            partial({
              type: 'resource.removed',
              resourceId: null,
              details: { count: 1, resourceIds: [state.fromPdf] },
            }),
          ],
        },
        {
          name: 'resource removed',
          act: () => inject(editor, 'DELETE', `/api/workspaces/${ws}/resources/${state.resource}`),
          expect: () => [
            partial({
              type: 'resource.removed',
              resourceId: state.resource,
              details: { title: 'A paper' },
            }),
          ],
        },
        {
          name: 'share link created',
          act: async () => (state.share = (await shareWorkspace(t.app, editor, ws)).id),
          expect: () => [
            partial({
              type: 'share.updated',
              actorId: editor.id,
              details: {
                shareId: state.share,
                change: 'created',
                readOnly: true,
                allowJoin: false,
              },
            }),
          ],
        },
        {
          name: 'share link resumed',
          act: async () => {
            await t.app.ctx.db
              .update(shareLinks)
              .set({ pausedAt: new Date() })
              .where(eq(shareLinks.id, state.share!));
            await inject(owner, 'POST', `/api/workspaces/${ws}/share/${state.share}/resume`);
          },
          expect: () => [
            partial({
              type: 'share.updated',
              details: { shareId: state.share, change: 'resumed' },
            }),
          ],
        },
        {
          name: 'share link revoked',
          act: () => inject(owner, 'DELETE', `/api/workspaces/${ws}/share/${state.share}`),
          expect: () => [
            partial({
              type: 'share.updated',
              details: { shareId: state.share, change: 'revoked' },
            }),
          ],
        },
        {
          name: 'member role changed',
          act: () =>
            inject(owner, 'PATCH', `/api/workspaces/${ws}/members/${viewer.id}`, {
              role: 'editor',
            }),
          expect: () => [
            partial({
              type: 'member.updated',
              userId: viewer.id,
              details: expect.objectContaining({ role: 'editor' }),
            }),
          ],
        },
        {
          name: 'invitation accepted',
          act: async () => {
            const mail = await mailWrittenBy(t.dataDir, () =>
              inject(owner, 'POST', `/api/workspaces/${ws}/invitations`, {
                email: joiner.email,
                role: 'viewer',
              }),
            );
            const token = linkIn(mail, /http:\/\/app\.test\/invitations\/[A-Za-z0-9_-]+/)
              .split('/')
              .pop()!;
            await inject(joiner, 'POST', `/api/invitations/${token}/accept`);
          },
          expect: () => [
            partial({
              type: 'member.added',
              actorId: joiner.id,
              userId: joiner.id,
              details: expect.objectContaining({ role: 'viewer' }),
            }),
          ],
        },
        {
          name: 'member leaves',
          act: () => inject(joiner, 'DELETE', `/api/workspaces/${ws}/members/${joiner.id}`),
          expect: () => [
            partial({
              type: 'member.removed',
              actorId: joiner.id,
              userId: joiner.id,
              details: { left: true, name: joiner.name },
            }),
          ],
        },
        {
          name: 'joined through an editable share link',
          act: async () => {
            const link = (
              await inject(owner, 'POST', `/api/workspaces/${ws}/share`, { readOnly: false })
            ).json<ApiSchema<'ShareLink'>>();
            state.editable = link.id;
            await inject(joiner, 'POST', `/api/share/${link.token}/join`);
          },
          expect: () => [
            partial({
              type: 'share.updated',
              actorId: owner.id,
              details: {
                shareId: state.editable,
                change: 'created',
                readOnly: false,
                allowJoin: true,
              },
            }),
            partial({
              type: 'member.added',
              actorId: joiner.id,
              userId: joiner.id,
              // Invited as viewer by the owner, they come back no higher through an editable link (issue 33).
              details: { role: 'viewer', shareId: state.editable },
            }),
          ],
        },
        {
          name: 'member removed',
          act: () => inject(owner, 'DELETE', `/api/workspaces/${ws}/members/${viewer.id}`),
          expect: () => [
            partial({
              type: 'member.removed',
              actorId: owner.id,
              userId: viewer.id,
              details: { left: false, name: viewer.name },
            }),
          ],
        },
        {
          name: 'ownership transferred',
          act: () =>
            inject(owner, 'PATCH', `/api/workspaces/${ws}/members/${editor.id}`, { role: 'owner' }),
          expect: () => [
            partial({
              type: 'member.updated',
              actorId: owner.id,
              userId: editor.id,
              details: expect.objectContaining({ role: 'owner', previousOwnerId: owner.id }),
            }),
          ],
        },
        {
          name: 'workspace deleted',
          act: () => inject(editor, 'DELETE', `/api/workspaces/${ws}`),
          expect: () => [
            partial({
              type: 'workspace.deleted',
              workspaceId: ws,
              actorId: editor.id,
              details: { name: 'Renamed' },
            }),
          ],
        },
      ];

      for (const step of cases) {
        const before = await lastId();
        await step.act();
        expect(await loggedAfter(before), step.name).toEqual(step.expect());
      }
      // A deleted workspace keeps only the change that says so.
      expect(
        (
          await t.app.ctx.db
            .select({ type: workspaceEvents.type })
            .from(workspaceEvents)
            .where(eq(workspaceEvents.workspaceId, ws))
        ).map((row) => row.type),
      ).toEqual(['workspace.deleted']);
    });

    it("a PDF read in the background is logged as the service's own change (no actor)", async () => {
      const ws = (await createWorkspace(t.app, owner)).id;
      const resource = await addResource(t.app, owner, ws, { title: 'With a PDF' });
      const upload = pdfMultipart('paper.pdf', PDF);
      await inject(
        owner,
        'PUT',
        `/api/workspaces/${ws}/resources/${resource.id}/pdf`,
        upload.payload,
        upload.headers,
      );
      const settled = await t.app.pdfExtraction.settled(resource.id);
      const logged = await t.app.ctx.db
        .select({ actorId: workspaceEvents.actorId, details: workspaceEvents.details })
        .from(workspaceEvents)
        .where(and(eq(workspaceEvents.workspaceId, ws), eq(workspaceEvents.type, 'pdf.updated')))
        .orderBy(workspaceEvents.id);
      expect(settled?.extraction).toBe('ready');
      expect(logged.map((row) => [row.actorId, row.details.state])).toEqual([
        [owner.id, 'attached'],
        [null, 'ready'],
      ]);
    });

    it('a deleted account deletes its workspaces and leaves the others, both logged for the members left behind', async () => {
      const leaving = await buildUser(t.app);
      const own = (await createWorkspace(t.app, leaving, { name: 'Theirs' })).id;
      const shared = (await createWorkspace(t.app, owner, { name: 'Ours' })).id;
      await inject(owner, 'POST', `/api/workspaces/${shared}/members`, {
        email: leaving.email,
        role: 'editor',
      });
      await addResource(t.app, leaving, own, { title: 'Gone with it' });
      await inject(leaving, 'DELETE', '/api/account', { password: leaving.password });
      const logOf = async (workspaceId: string) =>
        await t.app.ctx.db
          .select({
            type: workspaceEvents.type,
            userId: workspaceEvents.userId,
            actorId: workspaceEvents.actorId,
            details: workspaceEvents.details,
          })
          .from(workspaceEvents)
          .where(eq(workspaceEvents.workspaceId, workspaceId))
          .orderBy(workspaceEvents.id);
      expect(await logOf(own)).toEqual([
        {
          type: 'workspace.deleted',
          userId: null,
          actorId: null,
          details: { accountDeleted: true },
        },
      ]);
      // The account is gone, its name stays in the log: "Ada left (account deleted)", not "The service removed a member".
      expect((await logOf(shared)).at(-1)).toEqual({
        type: 'member.removed',
        userId: leaving.id,
        actorId: null,
        details: { left: true, accountDeleted: true, name: leaving.name },
      });
    });

    it('a refused change logs nothing', async () => {
      const ws = (await createWorkspace(t.app, owner)).id;
      await addResource(t.app, owner, ws, { title: 'Once', url: 'https://example.org/once' });
      const before = await lastId();
      const duplicate = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${ws}/resources`,
        headers: owner.bearer,
        payload: { title: 'Twice', url: 'https://example.org/once' },
      });
      expect(duplicate.statusCode).toBe(409);
      const tooMany = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${ws}/resources/bulk/remove`,
        headers: owner.bearer,
        payload: { resourceIds: ['00000000-0000-4000-8000-000000000000'] },
      });
      expect(tooMany.statusCode).toBe(404);
      expect(await loggedAfter(before)).toEqual([]);
    });

    describe('GET /api/workspaces/{id}/activity', () => {
      let ws: string;
      let titles: string[];
      beforeAll(async () => {
        ws = (await createWorkspace(t.app, owner, { name: 'Busy' })).id;
        await inject(owner, 'POST', `/api/workspaces/${ws}/members`, {
          email: viewer.email,
          role: 'viewer',
        });
        titles = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'];
        for (const title of titles) await addResource(t.app, owner, ws, { title });
      });

      it('pages newest first with a cursor, no item twice; a viewer may read it; { activity, total, hasMore, nextCursor }', async () => {
        const seen: ApiSchema<'ActivityItem'>[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res = await inject(
            viewer,
            'GET',
            `/api/workspaces/${ws}/activity?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
          );
          const body = res.json<ApiSchema<'ActivityList'>>();
          expect(body.total).toBe(7);
          expect(body.hasMore).toBe(body.nextCursor !== null);
          seen.push(...body.activity);
          cursor = body.nextCursor;
          pages++;
        } while (cursor !== null);
        expect(pages).toBe(3);
        expect(seen.map((item) => item.details.title ?? item.details.role)).toEqual(
          [...titles].reverse().concat(['viewer']),
        );
        expect(new Set(seen.map((item) => item.id)).size).toBe(7);
        expect(seen[0]).toEqual({
          id: expect.stringMatching(/^\d+$/),
          type: 'resource.added',
          actor: { id: owner.id, name: 'Olive Owner' },
          at: expect.any(String),
          resourceId: expect.any(String),
          details: { title: 'Six' },
        });
      });

      it('cookie sessions get the same list shape, the cursor in the body and no paging header', async () => {
        type Page = ApiSchema<'ActivityList'>;
        const first = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws}/activity?limit=5`,
          headers: owner.cookieHeaders,
        });
        expect(first.statusCode).toBe(200);
        const firstPage = first.json<Page>();
        expect(firstPage).toMatchObject({ total: 7, hasMore: true });
        expect(firstPage.activity).toHaveLength(5);
        expect(firstPage.nextCursor).toMatch(/^\d+$/);
        expect(first.headers['x-next-cursor']).toBeUndefined();
        const last = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws}/activity?limit=5&cursor=${firstPage.nextCursor}`,
          headers: owner.cookieHeaders,
        });
        expect(last.json<Page>()).toMatchObject({ total: 7, hasMore: false, nextCursor: null });
        expect(last.json<Page>().activity).toHaveLength(2);
      });

      it('400 for a limit past 100 or a cursor that is not one, 404 for a non-member, 401 signed out', async () => {
        for (const query of ['limit=101', 'limit=0', 'cursor=abc', 'cursor=-1']) {
          const res = await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws}/activity?${query}`,
            headers: owner.bearer,
          });
          expect(res.statusCode, query).toBe(400);
          expect(res.json()).toMatchObject({
            error: { code: 'VALIDATION_ERROR', details: { field: query.split('=')[0] } },
          });
        }
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/workspaces/${ws}/activity`,
              headers: stranger.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (await t.app.inject({ method: 'GET', url: `/api/workspaces/${ws}/activity` })).statusCode,
        ).toBe(401);
      });
    });

    it("pruning drops changes past the retention and beyond a workspace's cap, oldest first", async () => {
      const ws = (await createWorkspace(t.app, owner)).id;
      for (const title of ['a', 'b', 'c', 'd', 'e']) await addResource(t.app, owner, ws, { title });
      const rows = await t.app.ctx.db
        .select({ id: workspaceEvents.id })
        .from(workspaceEvents)
        .where(eq(workspaceEvents.workspaceId, ws))
        .orderBy(workspaceEvents.id);
      await t.app.ctx.db
        .update(workspaceEvents)
        .set({ createdAt: new Date(Date.now() - 100 * 86_400_000) })
        .where(eq(workspaceEvents.id, rows[0]!.id));
      await pruneEvents(t.app.ctx.db, new Date(Date.now() - 90 * 86_400_000), 1_000_000);
      const afterAge = await t.app.ctx.db
        .select({ id: workspaceEvents.id })
        .from(workspaceEvents)
        .where(eq(workspaceEvents.workspaceId, ws))
        .orderBy(workspaceEvents.id);
      expect(afterAge.map((row) => row.id)).toEqual(rows.slice(1).map((row) => row.id));
      // The cap counts every workspace's rows: a cap of 2 keeps this one's newest two.
      await pruneEvents(t.app.ctx.db, new Date(0), 2);
      const afterCap = await t.app.ctx.db
        .select({ id: workspaceEvents.id })
        .from(workspaceEvents)
        .where(eq(workspaceEvents.workspaceId, ws))
        .orderBy(workspaceEvents.id);
      expect(afterCap.map((row) => row.id)).toEqual(rows.slice(-2).map((row) => row.id));
    });

    it('prunes on the job queue: a periodic job of events.prune drops changes past the retention', async () => {
      const periodic: Array<{ queue: string; seconds: number; run: () => Promise<void> }> = [];
      const queue = {
        every: (name: string, seconds: number, handler: () => Promise<void>) =>
          periodic.push({ queue: name, seconds, run: handler }),
      } as unknown as JobQueue;
      registerEventPruning({ db: t.app.ctx.db, queue, retentionDays: 90, log: t.app.log });
      expect(periodic.map(({ queue: name, seconds }) => [name, seconds])).toEqual([
        ['events.prune', 600],
      ]);
      const ws = (await createWorkspace(t.app, owner)).id;
      for (const title of ['old', 'new']) await addResource(t.app, owner, ws, { title });
      const ids = async () =>
        (
          await t.app.ctx.db
            .select({ id: workspaceEvents.id })
            .from(workspaceEvents)
            .where(eq(workspaceEvents.workspaceId, ws))
            .orderBy(workspaceEvents.id)
        ).map((row) => row.id);
      const [oldest, ...rest] = await ids();
      await t.app.ctx.db
        .update(workspaceEvents)
        .set({ createdAt: new Date(Date.now() - 91 * 86_400_000) })
        .where(eq(workspaceEvents.id, oldest!));
      await periodic[0]!.run();
      expect(await ids()).toEqual(rest);
    });
  });
}
