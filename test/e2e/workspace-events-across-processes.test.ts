/**
 * Workspace change events across two built server processes on one PostgreSQL cluster of the test's
 * own: a change made through A reaches a stream open on B within a second; a stream cut and resumed
 * with Last-Event-ID misses nothing; a PostgreSQL restart while B streams loses no committed change
 * (B's listening connection comes back and its stream reads what it missed from the log).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ownPostgresSkipReason,
  startOwnPostgres,
  type OwnPostgres,
} from '../support/own-postgres.js';
import { ask, eventually, signUpAndIn, type ProcessUser } from '../support/process-client.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { openSse, type SseConnection, type SseEvent } from '../support/sse-client.js';

const skipReason = ownPostgresSkipReason();
if (skipReason) console.warn(skipReason);

const changes = (event: SseEvent) => event.event === 'change';
const resourceOf = (event: SseEvent) =>
  (JSON.parse(event.data) as { resourceId?: string }).resourceId;

describe.skipIf(skipReason)('workspace events across two processes on one PostgreSQL', () => {
  let postgres: OwnPostgres;
  let a: ServerProcess;
  let b: ServerProcess;
  let user: ProcessUser;
  let workspaceId: string;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    const env = {
      DATABASE_URL: await postgres.createDatabase('rw_events'),
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
    };
    [a, b] = await Promise.all([startServerProcess({ env }), startServerProcess({ env })]);
    user = await signUpAndIn(a.url);
    const created = await ask(`${a.url}/api/workspaces`, {
      method: 'POST',
      headers: { ...user.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Across processes' }),
    });
    expect(created.status).toBe(201);
    workspaceId = (JSON.parse(created.body) as { workspace: { id: string } }).workspace.id;
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((server) => server.stop('SIGKILL')));
    postgres?.destroy();
  });

  /** Adds a resource through `server`; its id, or null when the server could not (the database restarting). */
  async function addThrough(server: ServerProcess, title: string): Promise<string | null> {
    const res = await ask(`${server.url}/api/workspaces/${workspaceId}/resources`, {
      method: 'POST',
      headers: { ...user.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    return res.status === 201
      ? (JSON.parse(res.body) as { resource: { id: string } }).resource.id
      : null;
  }
  const streamOn = (
    server: ServerProcess,
    headers: Record<string, string> = {},
  ): Promise<SseConnection> =>
    openSse(`${server.url}/api/workspaces/${workspaceId}/events`, { ...user.bearer, ...headers });

  it('a change made through A reaches a stream on B within a second', async () => {
    const sse = await streamOn(b);
    try {
      expect(sse.status).toBe(200);
      const started = Date.now();
      const id = await addThrough(a, 'Made on A');
      const [event] = await sse.waitFor(1, changes, 1000);
      expect(resourceOf(event!)).toBe(id);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      sse.close();
    }
  });

  it('a stream cut and resumed on B with Last-Event-ID misses nothing and repeats nothing', async () => {
    const first = await streamOn(b);
    await addThrough(a, 'Seen');
    const [seen] = await first.waitFor(1, changes);
    first.close();
    const missed: Array<string | null> = [];
    for (const title of ['Missed 1', 'Missed 2', 'Missed 3'])
      missed.push(await addThrough(a, title));
    const resumed = await streamOn(b, { 'last-event-id': seen!.id! });
    try {
      const live = await addThrough(a, 'Live');
      expect((await resumed.waitFor(4, changes)).map(resourceOf)).toEqual([...missed, live]);
      // One more: a change sent twice would sit before it.
      const next = await addThrough(a, 'Live again');
      expect((await resumed.waitFor(5, changes)).map(resourceOf)).toEqual([...missed, live, next]);
    } finally {
      resumed.close();
    }
  });

  it('a PostgreSQL restart while B streams loses no committed change: those made right after it arrive, in order', async () => {
    const sse = await streamOn(b);
    try {
      const before = await addThrough(a, 'Before the restart');
      await sse.waitFor(1, changes);
      await postgres.restart('fast');
      // Made as soon as A can write again, while B's listening connection is still coming back.
      const after: string[] = [];
      expect(
        await eventually(async () => {
          const id = await addThrough(a, `After the restart ${after.length + 1}`);
          if (id) after.push(id);
          return after.length === 3;
        }, 20_000),
      ).toBe(true);
      const events = await sse.waitFor(4, changes, 10_000);
      // The restart did cut B's listening connection (the sign-out listener on it says so).
      expect(b.output()).toContain('Lost the listening connection');
      expect(events.map(resourceOf)).toEqual([before, ...after]);
      const ids = events.map((event) => Number(event.id));
      expect(new Set(ids).size).toBe(ids.length);
      // B hears live changes again too.
      const later = await addThrough(a, 'Later');
      expect((await sse.waitFor(5, changes, 2000)).map(resourceOf).at(-1)).toBe(later);
    } finally {
      sse.close();
    }
  }, 60_000);
});
