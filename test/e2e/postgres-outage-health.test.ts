/**
 * During a PostgreSQL outage (a cluster of the test's own, stopped) health follows within a second or
 * two, readiness answers 503 while liveness answers 200, requests that need the database answer 503
 * SERVICE_UNAVAILABLE (logged as a warning, without a stack), and everything comes back with the
 * database.
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
import { LIVE_FOR_MS } from '../../src/auth/revocations.js';

const skipReason = ownPostgresSkipReason();
if (skipReason) console.warn(skipReason);

interface LogLine {
  level: number;
  msg: string;
  err?: { stack?: string };
  backend?: string;
}

describe.skipIf(skipReason)('health and requests during a PostgreSQL outage', () => {
  let postgres: OwnPostgres;
  let server: ServerProcess;
  let user: ProcessUser;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    const env = {
      DATABASE_URL: await postgres.createDatabase('rw_outage'),
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
    };
    server = await startServerProcess({ env });
    user = await signUpAndIn(server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    postgres?.destroy();
  });

  const health = async () =>
    JSON.parse((await ask(`${server.url}/api/health`)).body) as {
      status: string;
      services: Record<string, string>;
    };
  const logLinesSince = (offset: number): LogLine[] =>
    server
      .output()
      .slice(offset)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);

  it('readiness 503 and health degraded within two seconds, requests 503 without error logs, all back after', async () => {
    expect(await health()).toMatchObject({
      status: 'ok',
      services: { database: 'connected', mail: 'outbox' },
    });
    expect((await ask(`${server.url}/api/health/ready`)).status).toBe(200);
    expect((await ask(`${server.url}/api/workspaces`, { headers: user.bearer })).status).toBe(200);
    const logOffset = server.output().length;

    await postgres.stop('fast');
    const stoppedAt = Date.now();
    // No request meets the outage first: the monitor alone must notice it.
    expect(
      await eventually(async () => (await health()).services.database === 'disconnected', 2000, 50),
    ).toBe(true);
    expect(Date.now() - stoppedAt).toBeLessThan(2000);
    expect((await health()).status).toBe('degraded');
    const ready = await ask(`${server.url}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect((JSON.parse(ready.body) as { error: { code: string } }).error.code).toBe(
      'SERVICE_UNAVAILABLE',
    );
    const live = await ask(`${server.url}/api/health/live`);
    expect(live.status).toBe(200);
    expect(JSON.parse(live.body)).toEqual({ status: 'alive' });
    // (/api/health itself stays 200, for clients that read it: its `status` says degraded.)
    expect((await ask(`${server.url}/api/health`)).status).toBe(200);

    // A process that has lost its listening connection believes no session holds without asking, so the
    // request needs the database (asked until it says so, within a bound).
    const needsDatabase = async () =>
      (await ask(`${server.url}/api/workspaces`, { headers: user.bearer })).status === 503;
    expect(await eventually(needsDatabase, LIVE_FOR_MS + 5_000, 50)).toBe(true);
    for (const path of ['/api/workspaces', '/api/profile']) {
      const res = await ask(`${server.url}${path}`, { headers: user.bearer });
      expect(res.status, res.body).toBe(503);
      expect((JSON.parse(res.body) as { error: { code: string } }).error.code).toBe(
        'SERVICE_UNAVAILABLE',
      );
    }
    const signin = await ask(`${server.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(signin.status).toBe(503);

    // The process writes its log lines asynchronously: one per 503 above, soon.
    const warningsOf = (lines: LogLine[]) =>
      lines.filter((line) => line.level === 40 && line.msg === 'service unavailable');
    expect(
      await eventually(async () => warningsOf(logLinesSince(logOffset)).length >= 3, 2000, 50),
    ).toBe(true);
    const lines = logLinesSince(logOffset);
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
    expect(lines.some((line) => JSON.stringify(line).includes('"stack"'))).toBe(false);
    expect(warningsOf(lines).every((line) => line.backend === 'database')).toBe(true);
    // The driver's reason is logged, never the failed query's parameters (an e-mail address here).
    expect(server.output().slice(logOffset)).not.toContain(user.email);

    await postgres.start();
    expect(
      await eventually(
        async () => (await ask(`${server.url}/api/health/ready`)).status === 200,
        5000,
        100,
      ),
    ).toBe(true);
    expect(await health()).toMatchObject({ status: 'ok', services: { database: 'connected' } });
    expect((await ask(`${server.url}/api/workspaces`, { headers: user.bearer })).status).toBe(200);
  }, 60_000);
});
