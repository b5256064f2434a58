/**
 * A sign-out is refused by every process within a second, through outages and restarts of Redis and a
 * restart of PostgreSQL. A process believes a live session for LIVE_FOR_MS (5 s) without asking, so
 * a refusal within the second is the sign-out heard on the database's channel. Two real server
 * processes share a PostgreSQL cluster and a redis-server of the test's own (so that Redis can be
 * killed and restarted empty, and PostgreSQL restarted).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_FOR_MS } from '../../src/auth/revocations.js';
import { LISTENER_NAME } from '../../src/platform/db/client.js';
import {
  ownPostgresSkipReason,
  startOwnPostgres,
  type OwnPostgres,
} from '../support/own-postgres.js';
import { ownRedisSkipReason, startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { ask, eventually, signUpAndIn, type ProcessUser } from '../support/process-client.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

const skipReason = ownPostgresSkipReason() ?? ownRedisSkipReason();
if (skipReason) console.warn(skipReason);

describe.skipIf(skipReason)(
  'sign-out across two processes through Redis outages and restarts',
  () => {
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
      (JSON.parse((await ask(`${server.url}/api/health`)).body) as { services: { redis: string } })
        .services.redis;

    /** Signs `user` out through A; resolves with how long B took to refuse the token (or fails past a second). */
    async function signOutThroughA(user: ProcessUser): Promise<number> {
      expect(LIVE_FOR_MS).toBeGreaterThan(2000);
      expect(
        (await ask(`${a.url}/api/auth/signout`, { method: 'POST', headers: user.bearer })).status,
      ).toBe(200);
      const signedOutAt = Date.now();
      expect(await sessionStatus(a, user)).toBe(401);
      expect(await eventually(async () => (await sessionStatus(b, user)) === 401, 1000, 20)).toBe(
        true,
      );
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
      expect(await eventually(async () => (await redisState(b)) === 'disconnected', 3000)).toBe(
        true,
      );
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
      expect(
        await eventually(
          async () =>
            (await redisState(a)) === 'connected' && (await redisState(b)) === 'connected',
          5000,
        ),
      ).toBe(true);
      await expectRefusedForASecond(b, user);
      await expectRefusedForASecond(a, user);

      // A session that was not signed out carries on through the same restart.
      const other = await signUpAndIn(a.url);
      expect(await sessionStatus(b, other)).toBe(200);
    }, 60_000);

    it('after a PostgreSQL restart, a sign-out through A is heard by B again (its listening connection comes back)', async () => {
      await postgres.restart('fast');
      const ready = async (server: ServerProcess) =>
        (await ask(`${server.url}/api/health/ready`)).status === 200;
      expect(await eventually(async () => (await ready(a)) && (await ready(b)), 15_000)).toBe(true);
      // Signed in, and believed live by B, once both processes answer again.
      let user: ProcessUser | null = null;
      expect(
        await eventually(async () => {
          user ??= await signUpAndIn(a.url).catch(() => null);
          return user !== null && (await sessionStatus(b, user)) === 200;
        }, 10_000),
      ).toBe(true);
      // The listening connections reconnect a second after they are lost (until then a process asks the
      // database on every request): once both listen again, B believes the session and must hear the sign-out.
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      const listening = async () =>
        (
          await admin.query<{ n: number }>(
            'select count(*)::int as n from pg_stat_activity where application_name = $1',
            [LISTENER_NAME],
          )
        ).rows[0]?.n === 2;
      const listeningAgain = await eventually(listening, 10_000);
      await admin.end();
      expect(listeningAgain).toBe(true);
      expect(await sessionStatus(b, user!)).toBe(200);
      expect(await signOutThroughA(user!)).toBeLessThan(1000);
    }, 60_000);
  },
);
