/** Rate limits counted in Redis are shared by every server process (and fall back to memory); in memory they are per process. */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { uniqueEmail } from '../../test/support/factories.js';
import { createRateLimiter, type LimitState } from './rate-limit.js';
import { COMMAND_TIMEOUT_MS, createRedis, waitForRedis } from './redis.js';
import { ownRedisSkipReason, startOwnRedis, type OwnRedis } from '../../test/support/own-redis.js';
import { eventually } from '../../test/support/process-client.js';

const redisLeg = storeLegs()[1]!;

async function signinStatuses(apps: TestApp[], email: string, attempts: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const app = apps[i % apps.length]!.app;
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email, password: `wrong-${i}-pass` },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe.skipIf(redisLeg.skipReason)('rate limits in Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const env = {
      REDIS_URL: process.env.TEST_REDIS_URL!,
      RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL: '3',
    };
    const redisKeyPrefix = `rwtest:shared:${randomUUID()}:`;
    first = await buildTestApp({ env, redisKeyPrefix });
    second = await buildTestApp({ env, redisKeyPrefix });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('share one count between two server processes', async () => {
    expect(await signinStatuses([first, second], uniqueEmail('shared'), 4)).toEqual([
      401, 401, 401, 429,
    ]);
  });
});

const rules = { authenticated: { points: 3, durationSeconds: 3600 } };

describe.skipIf(redisLeg.skipReason)('counting in Redis', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = createRedis(process.env.TEST_REDIS_URL!, `rwtest:count:${randomUUID()}:`);
    expect(await waitForRedis(redis)).toBe(true);
  });
  afterAll(() => redis?.disconnect());

  it('holds the limit exactly between two processes', async () => {
    const twenty = { authenticated: { points: 20, durationSeconds: 3600 } };
    const processes = [createRateLimiter(twenty, redis), createRateLimiter(twenty, redis)];
    const outcomes: string[] = [];
    for (let i = 0; i < 22; i++) {
      outcomes.push(
        await processes[i % 2]!.consume('authenticated', 'u5').then(
          () => 'ok',
          (error: { code?: string }) => error.code ?? 'error',
        ),
      );
    }
    expect(outcomes).toEqual([...Array<string>(20).fill('ok'), 'RATE_LIMITED', 'RATE_LIMITED']);
  });
});

describe('counting with Redis away', () => {
  it('counts in memory while Redis does not answer', async () => {
    const unreachable = createRedis('redis://127.0.0.1:1', 'rwtest:unreachable:');
    try {
      const limiter = createRateLimiter(rules, unreachable);
      const states: LimitState[] = [];
      for (let i = 0; i < 3; i++) states.push(await limiter.consume('authenticated', 'u2'));
      expect(states.map((state) => state.remaining)).toEqual([2, 1, 0]);
      await expect(limiter.consume('authenticated', 'u2')).rejects.toMatchObject({
        code: 'RATE_LIMITED',
      });
    } finally {
      unreachable.disconnect();
    }
  });
});

const ownRedisSkip = ownRedisSkipReason();
if (ownRedisSkip) console.warn(ownRedisSkip);

describe.skipIf(ownRedisSkip)(
  'counting when Redis freezes (SIGSTOP on a redis-server of its own)',
  () => {
    let server: OwnRedis;
    let redis: Redis;
    beforeAll(async () => {
      server = await startOwnRedis();
      redis = createRedis(server.url);
      expect(await waitForRedis(redis)).toBe(true);
    });
    afterAll(async () => {
      redis?.disconnect();
      await server?.destroy();
    });

    it('goes on in memory within a second, and counts in Redis again once it answers', async () => {
      const limiter = createRateLimiter(
        { authenticated: { points: 1_000_000, durationSeconds: 3600 } },
        redis,
      );
      await limiter.consume('authenticated', 'frozen');
      expect(server.cli('get', 'rl:authenticated:frozen')).toBe('1');

      /** Counts for `ms`, a request every 5 ms as a busy server would: how long each waited. */
      const countFor = async (ms: number): Promise<number[]> => {
        const waits: number[] = [];
        const from = performance.now();
        while (performance.now() - from < ms) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          const started = performance.now();
          await limiter.consume('authenticated', 'frozen');
          waits.push(performance.now() - started);
        }
        return waits;
      };
      // The baseline, on this machine as loaded as it is now: the same loop while Redis answers.
      const answering = await countFor(1500);
      const slowestAnswering = Math.max(...answering);

      server.freeze();
      let frozen: number[];
      try {
        frozen = await countFor(3000);
      } finally {
        server.thaw();
      }
      // The first requests wait out one command deadline; once the connection is dropped none waits:
      // at most two waits of half a deadline beyond the slowest answered one, none of two deadlines,
      // and the loop goes on at a third of its answering pace or more (every request waiting out the
      // deadline would give it about 1/100th).
      const waitedForRedis = frozen.filter((ms) => ms >= slowestAnswering + COMMAND_TIMEOUT_MS / 2);
      expect(waitedForRedis.length).toBeLessThanOrEqual(2);
      expect(Math.max(...frozen)).toBeLessThan(slowestAnswering + 2 * COMMAND_TIMEOUT_MS);
      expect(frozen.length / 3000).toBeGreaterThan(answering.length / 1500 / 3);

      expect(await eventually(async () => redis.status === 'ready', 5000)).toBe(true);
      // (The command that timed out was already in the frozen server's socket: it ran on SIGCONT.)
      const before = Number(server.cli('get', 'rl:authenticated:frozen'));
      await limiter.consume('authenticated', 'frozen');
      expect(Number(server.cli('get', 'rl:authenticated:frozen'))).toBe(before + 1);
    });
  },
);

describe('rate limits in memory', () => {
  it('are counted per process', async () => {
    const env = { RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL: '3' };
    const first = await buildTestApp({ env });
    const second = await buildTestApp({ env });
    expect(await signinStatuses([first, second], uniqueEmail('local'), 4)).toEqual([
      401, 401, 401, 401,
    ]);
    await first.close();
    await second.close();
  });
});
