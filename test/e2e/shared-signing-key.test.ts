/**
 * Two built processes on one PostgreSQL database without JWT_SECRET: they sign with one key, made by
 * whichever started first and kept in the database, so each accepts the tokens the other mints. A
 * process restarted later finds the same key. The key appears in no output.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/app.js';
import { ask, signUpAndIn } from '../support/process-client.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { storeLegSkipReason } from '../support/skip-reasons.js';

const skipReason = storeLegSkipReason();

describe.skipIf(skipReason)('two processes on one PostgreSQL database without JWT_SECRET', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    const env = { DATABASE_URL: scratch.url, LOG_LEVEL: 'info' };
    // Started together: both may try to create the key at once.
    [a, b] = await Promise.all([startServerProcess({ env }), startServerProcess({ env })]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((server) => server.stop('SIGKILL')));
    await scratch?.drop();
  });

  const sessionStatus = async (server: ServerProcess, authorization: string) =>
    (await ask(`${server.url}/api/auth/session`, { headers: { authorization } })).status;

  it('each accepts the access tokens the other signs', async () => {
    const throughA = await signUpAndIn(a.url);
    const throughB = await signUpAndIn(b.url);
    expect(await sessionStatus(b, throughA.bearer.authorization)).toBe(200);
    expect(await sessionStatus(a, throughB.bearer.authorization)).toBe(200);
  });

  it('a process started later signs with the same key, which no process logs', async () => {
    const c = await startServerProcess({ env: { DATABASE_URL: scratch.url, LOG_LEVEL: 'debug' } });
    try {
      const throughC = await signUpAndIn(c.url);
      expect(await sessionStatus(a, throughC.bearer.authorization)).toBe(200);
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      const { rows } = await client.query<{ value: string }>('select value from service_secrets');
      await client.end();
      expect(rows).toHaveLength(1);
      for (const server of [a, b, c]) expect(server.output()).not.toContain(rows[0]!.value);
    } finally {
      await c.stop('SIGKILL');
    }
  }, 120_000);
});
