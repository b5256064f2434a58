/** Rate limits counted in Redis are shared by every server process (and fall back to memory); in memory they are per process. */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { uniqueEmail } from '../../test/support/factories.js';
import { createRateLimiter, type LimitState } from './rate-limit.js';
import { createRedis, waitForRedis } from './redis.js';

const redisLeg = storeLegs()[1]!;

async function signinStatuses(apps: TestApp[], email: string, attempts: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const app = apps[i % apps.length]!.app;
    const res = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: `wrong-${i}-pass` } });
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe.skipIf(redisLeg.skipReason)('rate limits in Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: process.env.TEST_REDIS_URL!, RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL: '3' };
    const redisKeyPrefix = `rwtest:shared:${randomUUID()}:`;
    first = await buildTestApp({ env, redisKeyPrefix });
    second = await buildTestApp({ env, redisKeyPrefix });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('share one count between two server processes', async () => {
    expect(await signinStatuses([first, second], uniqueEmail('shared'), 4)).toEqual([401, 401, 401, 429]);
  });
});

const rules = { authenticated: { points: 3, durationSeconds: 3600 } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(redisLeg.skipReason)('counting unless a flag is set, in Redis', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = createRedis(process.env.TEST_REDIS_URL!, `rwtest:flag:${randomUUID()}:`);
    expect(await waitForRedis(redis)).toBe(true);
  });
  afterAll(() => redis?.disconnect());

  it('counts nothing while the flag is set, and shares one count with consume', async () => {
    const limiter = createRateLimiter(rules, redis);
    await redis.set('flag:on', '1');
    expect(await limiter.consumeUnlessFlagged('authenticated', 'u1', 'flag:on')).toBe('flagged');
    expect(await limiter.consumeUnlessFlagged('authenticated', 'u1', 'flag:on')).toBe('flagged');
    const first = (await limiter.consumeUnlessFlagged('authenticated', 'u1', 'flag:off')) as LimitState;
    expect(first).toMatchObject({ limit: 3, remaining: 2 });
    expect(first.resetSeconds).toBeGreaterThan(3590);
    expect(await limiter.consume('authenticated', 'u1')).toMatchObject({ remaining: 1 });
    expect(await limiter.consumeUnlessFlagged('authenticated', 'u1', 'flag:off')).toMatchObject({ remaining: 0 });
    await expect(limiter.consumeUnlessFlagged('authenticated', 'u1', 'flag:off')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    // A flagged request is refused for its flag, not counted, even past the limit.
    expect(await limiter.consumeUnlessFlagged('authenticated', 'u1', 'flag:on')).toBe('flagged');
    await limiter.reset('authenticated', 'u1');
    expect(await limiter.consumeUnlessFlagged('authenticated', 'u1', 'flag:off')).toMatchObject({ remaining: 2 });
  });

  it('answers most requests without Redis, and adds them to the count in Redis within moments', async () => {
    const limiter = createRateLimiter({ authenticated: { points: 1000, durationSeconds: 3600 } }, redis);
    const states: LimitState[] = [];
    for (let i = 0; i < 30; i++) states.push((await limiter.consumeUnlessFlagged('authenticated', 'u3', 'flag:u3')) as LimitState);
    expect(states.map((state) => state.remaining)).toEqual(Array.from({ length: 30 }, (_, i) => 999 - i));
    expect(Number(await redis.get('rl:authenticated:u3'))).toBeLessThan(30);
    await sleep(150);
    expect(Number(await redis.get('rl:authenticated:u3'))).toBe(30);
  });

  it('starts again from nothing after a reset, also for what this process was counting itself', async () => {
    const limiter = createRateLimiter({ authenticated: { points: 1000, durationSeconds: 3600 } }, redis);
    for (let i = 0; i < 5; i++) await limiter.consumeUnlessFlagged('authenticated', 'u6', 'flag:u6');
    await limiter.reset('authenticated', 'u6');
    expect(await limiter.consumeUnlessFlagged('authenticated', 'u6', 'flag:u6')).toMatchObject({ remaining: 999 });
  });

  it('sees within moments a flag set by another process', async () => {
    const limiter = createRateLimiter({ authenticated: { points: 1000, durationSeconds: 3600 } }, redis);
    expect(await limiter.consumeUnlessFlagged('authenticated', 'u4', 'flag:u4')).toMatchObject({ remaining: 999 });
    await redis.set('flag:u4', '1');
    await sleep(150);
    expect(await limiter.consumeUnlessFlagged('authenticated', 'u4', 'flag:u4')).toBe('flagged');
    expect(Number(await redis.get('rl:authenticated:u4'))).toBe(1);
  });

  it('holds the limit exactly between two processes', async () => {
    const twenty = { authenticated: { points: 20, durationSeconds: 3600 } };
    const processes = [createRateLimiter(twenty, redis), createRateLimiter(twenty, redis)];
    const outcomes: string[] = [];
    for (let i = 0; i < 22; i++) {
      outcomes.push(
        await processes[i % 2]!.consumeUnlessFlagged('authenticated', 'u5', 'flag:u5').then(
          () => 'ok',
          (error: { code?: string }) => error.code ?? 'error',
        ),
      );
    }
    expect(outcomes).toEqual([...Array<string>(20).fill('ok'), 'RATE_LIMITED', 'RATE_LIMITED']);
  });
});

describe('counting unless a flag is set, with Redis away', () => {
  it('counts in memory while Redis does not answer', async () => {
    const unreachable = createRedis('redis://127.0.0.1:1', 'rwtest:unreachable:');
    try {
      const limiter = createRateLimiter(rules, unreachable);
      const states = [];
      for (let i = 0; i < 3; i++) states.push(await limiter.consumeUnlessFlagged('authenticated', 'u2', 'flag:any'));
      expect(states.map((state) => (state as LimitState).remaining)).toEqual([2, 1, 0]);
      await expect(limiter.consumeUnlessFlagged('authenticated', 'u2', 'flag:any')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    } finally {
      unreachable.disconnect();
    }
  });
});

describe('rate limits in memory', () => {
  it('are counted per process', async () => {
    const env = { RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL: '3' };
    const first = await buildTestApp({ env });
    const second = await buildTestApp({ env });
    expect(await signinStatuses([first, second], uniqueEmail('local'), 4)).toEqual([401, 401, 401, 401]);
    await first.close();
    await second.close();
  });
});
