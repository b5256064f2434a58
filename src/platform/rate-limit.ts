/**
 * Rate limits (spec §8) on one mechanism: fixed windows counted in-process by default, or in Redis
 * when REDIS_URL is set so that every server process shares one count. If Redis stops answering,
 * counting goes on in memory (rate-limiter-flexible's insurance limiter) rather than failing requests.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimited } from './errors.js';

export interface LimitRule {
  points: number;
  durationSeconds: number;
}

export interface LimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for `key` in bucket `name`; throws a 429 ApiError (with Retry-After) past the limit. */
  consume(name: string, key: string): Promise<LimitState>;
  /** Forgets the count of `key` (e.g. after a successful sign-in). */
  reset(name: string, key: string): Promise<void>;
}

export function createRateLimiter(rules: Record<string, LimitRule>, redis?: Redis, prefix = 'rl'): RateLimiter {
  const limiters = new Map<string, { rule: LimitRule; limiter: RateLimiterAbstract }>();
  for (const [name, rule] of Object.entries(rules)) {
    const memory = new RateLimiterMemory({ points: rule.points, duration: rule.durationSeconds, keyPrefix: `${prefix}:${name}` });
    const limiter = redis
      ? new RateLimiterRedis({
          storeClient: redis,
          points: rule.points,
          duration: rule.durationSeconds,
          keyPrefix: `${prefix}:${name}`,
          insuranceLimiter: memory,
          rejectIfRedisNotReady: true,
        })
      : memory;
    limiters.set(name, { rule, limiter });
  }
  const get = (name: string) => {
    const entry = limiters.get(name);
    if (!entry) throw new Error(`Unknown rate-limit bucket: ${name}`);
    return entry;
  };
  return {
    async consume(name, key) {
      const { rule, limiter } = get(name);
      try {
        const res = await limiter.consume(key);
        return { limit: rule.points, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) {
          const error = rateLimited(outcome.msBeforeNext / 1000);
          Object.assign(error.headers ?? {}, {
            'ratelimit-limit': String(rule.points),
            'ratelimit-remaining': '0',
            'ratelimit-reset': String(Math.ceil(outcome.msBeforeNext / 1000)),
          });
          throw error;
        }
        throw outcome;
      }
    },
    async reset(name, key) {
      await get(name).limiter.delete(key);
    },
  };
}

export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(Math.max(0, state.remaining)),
    'ratelimit-reset': String(state.resetSeconds),
  };
}
