/**
 * A Redis that stops answering (SIGSTOP on a redis-server of the test's own) is treated as gone
 * within about a second: signed-in requests keep completing, health says so, and once Redis answers
 * again it is used again. A Redis that cannot be reached at start is named in a warning.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownRedisSkipReason, startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import {
  ask,
  eventually,
  signUpAndIn,
  type Answer,
  type ProcessUser,
} from '../support/process-client.js';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { COMMAND_TIMEOUT_MS } from '../../src/platform/redis.js';

const skipReason = ownRedisSkipReason();
if (skipReason) console.warn(skipReason);

describe.skipIf(skipReason)('a frozen Redis', () => {
  let redis: OwnRedis;
  let server: ServerProcess;
  let user: ProcessUser;
  let userId: string;

  beforeAll(async () => {
    redis = await startOwnRedis();
    // The hourly limit raised: a fast machine answers more than 1,000 requests in the four frozen seconds.
    const env = {
      REDIS_URL: redis.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_AUTHENTICATED_PER_HOUR: '1000000',
    };
    server = await startServerProcess({ env });
    user = await signUpAndIn(server.url);
    const session = await ask(`${server.url}/api/auth/session`, { headers: user.bearer });
    userId = (JSON.parse(session.body) as { user: { id: string } }).user.id;
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await redis?.destroy();
  });

  const redisState = async () =>
    (JSON.parse((await ask(`${server.url}/api/health`)).body) as { services: { redis: string } })
      .services.redis;
  const countInRedis = () => Number(redis.cli('get', `rw:rl:authenticated:${userId}`) || 0);

  it('does not hold up signed-in requests, shows in health within about a second, and is used again once thawed', async () => {
    expect(await redisState()).toBe('connected');
    const counted = countInRedis();
    expect((await ask(`${server.url}/api/workspaces`, { headers: user.bearer })).status).toBe(200);
    expect(countInRedis()).toBe(counted + 1);

    /** Four clients of one user asking for `ms`, one request after another: every answer. */
    const askFor = async (ms: number): Promise<Answer[]> => {
      const from = Date.now();
      const asked: Answer[] = [];
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (Date.now() - from < ms)
            asked.push(await ask(`${server.url}/api/workspaces`, { headers: user.bearer }, 3000));
        }),
      );
      return asked;
    };
    // The baseline, on this machine as loaded as it is now: the same clients while Redis answers.
    const slowestAnswering = Math.max(...(await askFor(1500)).map((a) => a.ms));

    redis.freeze();
    const frozenAt = Date.now();
    let healthSawItAfter = Number.POSITIVE_INFINITY;
    const answers: Answer[] = [];
    try {
      // The four clients for four seconds, and health asked alongside.
      const clients = askFor(4000).then((asked) => answers.push(...asked));
      const watcher = (async () => {
        while (Date.now() - frozenAt < 4000 && healthSawItAfter === Number.POSITIVE_INFINITY) {
          if ((await redisState()) === 'disconnected') healthSawItAfter = Date.now() - frozenAt;
          else await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      await Promise.all([clients, watcher]);
    } finally {
      redis.thaw();
    }

    expect(
      answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body.slice(0, 120)}`),
    ).toEqual([]);
    // Every answer within two command deadlines of the slowest one while Redis answered.
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(
      slowestAnswering + 2 * COMMAND_TIMEOUT_MS,
    );
    expect(answers.length).toBeGreaterThan(40);
    expect(healthSawItAfter).toBeLessThan(2000);

    expect(await eventually(async () => (await redisState()) === 'connected', 5000)).toBe(true);
    const before = countInRedis();
    expect((await ask(`${server.url}/api/workspaces`, { headers: user.bearer })).status).toBe(200);
    expect(countInRedis()).toBe(before + 1);
  }, 60_000);
});

describe.skipIf(skipReason)('a Redis that is unreachable at start', () => {
  it('is named in a warning, and the service starts and answers', async () => {
    const nothing = await freePort();
    const server = await startServerProcess({
      env: { REDIS_URL: `redis://127.0.0.1:${nothing}`, LOG_LEVEL: 'info' },
    });
    try {
      const health = JSON.parse((await ask(`${server.url}/api/health`)).body) as {
        services: Record<string, string>;
      };
      expect(health.services).toMatchObject({
        redis: 'disconnected',
        database: 'connected',
        mail: 'outbox',
      });
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string });
      const warning = lines.find((line) => line.level === 40 && /redis/i.test(line.msg));
      expect(warning?.msg).toMatch(/unreachable/i);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
