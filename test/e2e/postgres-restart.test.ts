/**
 * A PostgreSQL restart (or pg_terminate_backend) while writes hold pooled connections. Two real server
 * processes on a cluster of the test's own: both stay up, the requests caught by the restart answer 503
 * SERVICE_UNAVAILABLE (never 500, never a cut connection), and writes succeed again once PostgreSQL is
 * back.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ownPostgresSkipReason,
  startOwnPostgres,
  type OwnPostgres,
} from '../support/own-postgres.js';
import {
  ask,
  eventually,
  signUpAndIn,
  type Answer,
  type ProcessUser,
} from '../support/process-client.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

const skipReason = ownPostgresSkipReason();
if (skipReason) console.warn(skipReason);

describe.skipIf(skipReason)('a PostgreSQL restart under writes (two processes)', () => {
  let postgres: OwnPostgres;
  let servers: ServerProcess[] = [];
  let user: ProcessUser;
  let workspaceId: string;
  /** Numbers each write across loads, so that no resource is a duplicate of an earlier one (409). */
  let writes = 0;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    const databaseUrl = await postgres.createDatabase('rw_restart');
    const env = {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_AUTHENTICATED_PER_HOUR: '1000000',
    };
    servers = [await startServerProcess({ env }), await startServerProcess({ env })];
    user = await signUpAndIn(servers[0]!.url);
    const created = await ask(`${servers[0]!.url}/api/workspaces`, {
      method: 'POST',
      headers: { ...user.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Restart' }),
    });
    expect(created.status).toBe(201);
    workspaceId = (JSON.parse(created.body) as { workspace: { id: string } }).workspace.id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    postgres?.destroy();
  });

  /** Writes through both processes, `concurrency` at a time, until `stop()`; every answer kept. */
  /** Waits (bounded) until `count` more answers of the load have come back. */
  function answersArrive(answers: Answer[], count: number): Promise<boolean> {
    const target = answers.length + count;
    return eventually(async () => answers.length >= target, 20_000, 20);
  }

  function writeLoad(concurrency: number) {
    const answers: Answer[] = [];
    let running = true;
    const worker = async (w: number) => {
      while (running) {
        const server = servers[w % servers.length]!;
        const i = writes++;
        // A resource add runs in a transaction that locks the workspace row; a workspace create is a plain insert.
        const request =
          i % 2 === 0
            ? {
                path: `/api/workspaces/${workspaceId}/resources`,
                body: { title: `Paper ${i}`, url: `https://example.org/${i}` },
              }
            : { path: '/api/workspaces', body: { name: `W ${i}` } };
        answers.push(
          await ask(`${server.url}${request.path}`, {
            method: 'POST',
            headers: { ...user.bearer, 'content-type': 'application/json' },
            body: JSON.stringify(request.body),
          }),
        );
      }
    };
    const workers = Array.from({ length: concurrency }, (_, w) => worker(w));
    return {
      answers,
      async stop() {
        running = false;
        await Promise.all(workers);
      },
    };
  }

  const writesWork = (server: ServerProcess) =>
    eventually(
      async () => {
        const answer = await ask(`${server.url}/api/workspaces`, {
          method: 'POST',
          headers: { ...user.bearer, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'After' }),
        });
        return answer.status === 201;
      },
      15_000,
      200,
    );

  function expectOnly201Or503(answers: Answer[]) {
    const unexpected = answers.filter((a) => a.status !== 201 && a.status !== 503);
    expect(unexpected.map((a) => `${a.status} ${a.body.slice(0, 200)}`)).toEqual([]);
    for (const a of answers.filter((x) => x.status === 503)) {
      expect((JSON.parse(a.body) as { error: { code: string } }).error.code).toBe(
        'SERVICE_UNAVAILABLE',
      );
    }
  }

  it('pg_ctl restart -m fast: both processes stay up, in-flight writes answer 503, writes work again after', async () => {
    const load = writeLoad(8);
    expect(await answersArrive(load.answers, 16)).toBe(true);
    await postgres.restart('fast');
    expect(await answersArrive(load.answers, 16)).toBe(true);
    await load.stop();

    for (const server of servers)
      expect(server.child.exitCode, server.output().slice(-2000)).toBeNull();
    // The restart did catch writes: some answered 503, and the others went through.
    expect(load.answers.some((a) => a.status === 503)).toBe(true);
    expect(load.answers.some((a) => a.status === 201)).toBe(true);
    expectOnly201Or503(load.answers);
    for (const server of servers) expect(await writesWork(server)).toBe(true);
  }, 90_000);

  it('pg_terminate_backend on every connection: both processes stay up and write again', async () => {
    const load = writeLoad(8);
    expect(await answersArrive(load.answers, 16)).toBe(true);
    expect(await postgres.terminateBackends('rw_restart')).toBeGreaterThan(0);
    expect(await answersArrive(load.answers, 16)).toBe(true);
    await load.stop();

    for (const server of servers)
      expect(server.child.exitCode, server.output().slice(-2000)).toBeNull();
    expectOnly201Or503(load.answers);
    for (const server of servers) expect(await writesWork(server)).toBe(true);
  }, 90_000);
});
