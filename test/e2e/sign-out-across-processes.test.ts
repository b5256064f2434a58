/**
 * A sign-out is refused by every process within a second, through outages and restarts of Redis. Two
 * real server processes share a PostgreSQL cluster and a redis-server of the test's own (so that Redis
 * can be killed and restarted empty).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownPostgresSkipReason, startOwnPostgres, type OwnPostgres } from '../support/own-postgres.js';
import { ownRedisSkipReason, startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { ask, eventually, signUpAndIn, type ProcessUser } from '../support/process-client.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

const skipReason = ownPostgresSkipReason() ?? ownRedisSkipReason();
if (skipReason) console.warn(skipReason);

describe.skipIf(skipReason)('sign-out across two processes through Redis outages and restarts', () => {
  let postgres: OwnPostgres;
  let redis: OwnRedis;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    redis = await startOwnRedis();
    const env = {
      DATABASE_URL: await postgres.createDatabase('rw_signout'),
      REDIS_URL: redis.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
    };
    [a, b] = [await startServerProcess({ env }), await startServerProcess({ env })];
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((server) => server.stop('SIGKILL')));
    await redis?.destroy();
    postgres?.destroy();
  });

  const sessionStatus = async (server: ServerProcess, user: ProcessUser) =>
    (await ask(`${server.url}/api/auth/session`, { headers: user.bearer })).status;

  const redisState = async (server: ServerProcess) =>
    (JSON.parse((await ask(`${server.url}/api/health`)).body) as { services: { redis: string } }).services.redis;

  /** Signs `user` out through A; resolves with how long B took to refuse the token (or fails past a second). */
  async function signOutThroughA(user: ProcessUser): Promise<number> {
    expect((await ask(`${a.url}/api/auth/signout`, { method: 'POST', headers: user.bearer })).status).toBe(200);
    const signedOutAt = Date.now();
    expect(await sessionStatus(a, user)).toBe(401);
    expect(await eventually(async () => (await sessionStatus(b, user)) === 401, 1000, 20)).toBe(true);
    return Date.now() - signedOutAt;
  }

  /** B keeps refusing for a while (a second of asking). */
  async function expectRefusedForASecond(server: ServerProcess, user: ProcessUser) {
    const until = Date.now() + 1000;
    while (Date.now() < until) {
      expect(await sessionStatus(server, user)).toBe(401);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('signed out through A while Redis is down: B refuses within a second, and still once Redis is back', async () => {
    const user = await signUpAndIn(a.url);
    expect(await sessionStatus(b, user)).toBe(200);

    await redis.kill();
    expect(await eventually(async () => (await redisState(b)) === 'disconnected', 3000)).toBe(true);
    expect(await sessionStatus(b, user)).toBe(200);
    expect(await signOutThroughA(user)).toBeLessThan(1000);

    await redis.start();
    expect(await eventually(async () => (await redisState(b)) === 'connected', 5000)).toBe(true);
    await expectRefusedForASecond(b, user);
  }, 60_000);

  it('a Redis restart without persistence does not re-admit a session that was signed out', async () => {
    const user = await signUpAndIn(a.url);
    expect(await sessionStatus(b, user)).toBe(200);
    expect(await signOutThroughA(user)).toBeLessThan(1000);

    await redis.kill();
    await redis.start();
    expect(redis.cli('dbsize')).toBe('0');
    expect(await eventually(async () => (await redisState(a)) === 'connected' && (await redisState(b)) === 'connected', 5000)).toBe(true);
    await expectRefusedForASecond(b, user);
    await expectRefusedForASecond(a, user);

    // A session that was not signed out carries on through the same restart.
    const other = await signUpAndIn(a.url);
    expect(await sessionStatus(b, other)).toBe(200);
  }, 60_000);
});
