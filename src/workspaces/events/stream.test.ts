/**
 * The workspace event stream over a real connection (the app listening on a port), on both stores:
 * live changes, a resume after Last-Event-ID with no gap and no duplicate, `reset` for an id the log
 * no longer holds, the limits, and the end of a stream whose member is removed or signs out.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { openSse, type SseEvent } from '../../../test/support/sse-client.js';
import { workspaceEvents } from '../../platform/db/schema.js';
import { addResource, createWorkspace } from '../test-support/helpers.js';
import { ChangeEventData } from './schemas.js';
import { eq } from 'drizzle-orm';

const changes = (event: SseEvent) => event.event === 'change';
/** An event's data, checked against its published schema (exactly: no field it does not name). */
const dataOf = (event: SseEvent) => ChangeEventData.strict().parse(JSON.parse(event.data));

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`workspace event stream (${leg.name})`, () => {
    let t: TestApp;
    let base: string;
    let owner: TestUser;
    let viewer: TestUser;
    let stranger: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg, env: { EVENT_STREAMS_PER_USER: '3' } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      [owner, viewer, stranger] = await Promise.all([
        buildUser(t.app, { name: 'Olive Owner' }),
        buildUser(t.app),
        buildUser(t.app),
      ]);
    });
    afterAll(async () => t?.close());

    async function sharedWorkspace(): Promise<string> {
      const { id } = await createWorkspace(t.app, owner, { name: 'Live list' });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${id}/members`,
        headers: owner.bearer,
        payload: { email: viewer.email, role: 'viewer' },
      });
      expect(res.statusCode).toBe(201);
      return id;
    }
    const stream = (user: TestUser, workspaceId: string, headers: Record<string, string> = {}) =>
      openSse(`${base}/api/workspaces/${workspaceId}/events`, { ...user.bearer, ...headers });

    it('a viewer hears a change as it commits: retry first, then the change with its id and actor', async () => {
      const id = await sharedWorkspace();
      const sse = await stream(viewer, id);
      try {
        expect(sse.status).toBe(200);
        const added = await addResource(t.app, owner, id, { title: 'Heard live' });
        const [event] = await sse.waitFor(1, changes);
        expect(sse.text().startsWith('retry: 2000\n')).toBe(true);
        const data = dataOf(event!);
        expect(event!.id).toBe(data.id);
        expect(data).toEqual({
          id: expect.stringMatching(/^\d+$/),
          workspaceId: id,
          type: 'resource.added',
          actor: { id: owner.id, name: 'Olive Owner' },
          resourceId: added.id,
          at: expect.any(String),
        });
      } finally {
        sse.close();
      }
    });

    it('a reconnect with Last-Event-ID replays what it missed, in order, then live ones: no gap, no duplicate', async () => {
      const id = await sharedWorkspace();
      const first = await stream(viewer, id);
      await addResource(t.app, owner, id, { title: 'One' });
      const [seen] = await first.waitFor(1, changes);
      first.close();
      const missed = [];
      for (const title of ['Two', 'Three', 'Four'])
        missed.push((await addResource(t.app, owner, id, { title })).id);
      const resumed = await stream(viewer, id, { 'last-event-id': seen!.id! });
      try {
        const live = (await addResource(t.app, owner, id, { title: 'Five' })).id;
        const events = await resumed.waitFor(4, changes);
        expect(events.map((event) => dataOf(event).resourceId)).toEqual([...missed, live]);
        const ids = events.map((event) => Number(event.id));
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        expect(ids[0]).toBeGreaterThan(Number(seen!.id));
      } finally {
        resumed.close();
      }
      // The query form, for clients that cannot set the header.
      const byQuery = await openSse(
        `${base}/api/workspaces/${id}/events?lastEventId=${seen!.id}`,
        viewer.bearer,
      );
      try {
        expect(
          (await byQuery.waitFor(4, changes)).map((event) => dataOf(event).resourceId),
        ).toEqual([...missed, expect.any(String)]);
      } finally {
        byQuery.close();
      }
    });

    it('an id the log no longer holds gets one reset event, then live changes', async () => {
      const id = await sharedWorkspace();
      await addResource(t.app, owner, id, { title: 'Old' });
      const [oldest] = await t.app.ctx.db
        .select({ id: workspaceEvents.id })
        .from(workspaceEvents)
        .where(eq(workspaceEvents.workspaceId, id))
        .orderBy(workspaceEvents.id)
        .limit(1);
      await t.app.ctx.db.delete(workspaceEvents).where(eq(workspaceEvents.id, oldest!.id));
      const sse = await stream(viewer, id, { 'last-event-id': String(oldest!.id) });
      try {
        const [reset] = await sse.waitFor(1, (event) => event.event === 'reset');
        expect(reset!.data).toBe('{}');
        await addResource(t.app, owner, id, { title: 'After the reset' });
        expect(dataOf((await sse.waitFor(1, changes))[0]!).type).toBe('resource.added');
        expect(sse.events.filter((event) => event.event === 'reset')).toHaveLength(1);
      } finally {
        sse.close();
      }
    });

    it('the stream of a member who is removed sends that change and ends; their next request is a 404', async () => {
      const id = await sharedWorkspace();
      const sse = await stream(viewer, id);
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/workspaces/${id}/members/${viewer.id}`,
        headers: owner.bearer,
      });
      expect(res.statusCode).toBe(200);
      await sse.ended;
      expect(
        sse.events.filter(changes).map((event) => [dataOf(event).type, dataOf(event).userId]),
      ).toEqual([['member.removed', viewer.id]]);
      expect((await stream(viewer, id)).status).toBe(404);
    });

    it('the stream ends when the workspace is deleted, and when the session signs out', async () => {
      const id = await sharedWorkspace();
      const owners = await stream(owner, id);
      const session = await buildUser(t.app);
      const own = await createWorkspace(t.app, session);
      const signedOut = await stream(session, own.id);
      expect(
        (
          await t.app.inject({
            method: 'DELETE',
            url: `/api/workspaces/${id}`,
            headers: owner.bearer,
          })
        ).statusCode,
      ).toBe(200);
      await owners.ended;
      expect(owners.events.filter(changes).map((event) => dataOf(event).type)).toEqual([
        'workspace.deleted',
      ]);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: session.bearer }))
          .statusCode,
      ).toBe(200);
      await signedOut.ended;
    });

    it('404 for a non-member, 401 signed out, 429 past the streams a user may open', async () => {
      const id = await sharedWorkspace();
      expect((await stream(stranger, id)).status).toBe(404);
      expect((await openSse(`${base}/api/workspaces/${id}/events`)).status).toBe(401);
      const open = await Promise.all([0, 1, 2].map(() => stream(viewer, id)));
      try {
        expect(open.map((sse) => sse.status)).toEqual([200, 200, 200]);
        const refused = await fetch(`${base}/api/workspaces/${id}/events`, {
          headers: viewer.bearer,
        });
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      } finally {
        for (const sse of open) sse.close();
      }
    });
  });
}
