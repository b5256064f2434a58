/** Rate limits counted in Redis are shared by every server process; in memory they are per process. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { uniqueEmail } from '../../test/support/factories.js';

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
