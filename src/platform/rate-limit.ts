/**
 * Rate limits (docs/design.md, Limits) on one mechanism: fixed windows counted in-process by default,
 * or in Redis when REDIS_URL is set so that every server process shares one count. If Redis stops
 * answering (platform/redis.ts: noticed within about a second, also when it hangs), counting goes on in
 * memory (rate-limiter-flexible's insurance limiter) rather than failing requests, and goes back to
 * Redis once it answers again.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimited, type ApiError } from './errors.js';

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
  /**
   * For limits that count only failures: throws the 429 when `key` has used up its points, and
   * counts nothing (a request refused, or one that will succeed, must not use any up).
   */
  check(name: string, key: string): Promise<LimitState>;
  /** Counts one failure for `key`, refusing nothing (`check` refuses the next request). */
  countFailure(name: string, key: string): Promise<void>;
}

interface Bucket {
  rule: LimitRule;
  limiter: RateLimiterAbstract;
}

function stateOf(rule: LimitRule, consumed: number, msBeforeNext: number): LimitState {
  return {
    limit: rule.points,
    remaining: Math.max(rule.points - consumed, 0),
    resetSeconds: Math.ceil(msBeforeNext / 1000),
  };
}

function limitExceeded(rule: LimitRule, msBeforeNext: number): ApiError {
  const error = rateLimited(msBeforeNext / 1000);
  Object.assign(error.headers ?? {}, {
    'ratelimit-limit': String(rule.points),
    'ratelimit-remaining': '0',
    'ratelimit-reset': String(Math.ceil(msBeforeNext / 1000)),
  });
  return error;
}

/** One point from a rate-limiter-flexible limiter, its rejection turned into our 429. */
async function consumeFrom(
  rule: LimitRule,
  limiter: RateLimiterAbstract,
  key: string,
): Promise<LimitState> {
  try {
    const res = await limiter.consume(key);
    return stateOf(rule, res.consumedPoints, res.msBeforeNext);
  } catch (outcome) {
    if (outcome instanceof RateLimiterRes) throw limitExceeded(rule, outcome.msBeforeNext);
    throw outcome;
  }
}

export function createRateLimiter(
  rules: Record<string, LimitRule>,
  redis?: Redis,
  prefix = 'rl',
): RateLimiter {
  const buckets = new Map<string, Bucket>();
  for (const [name, rule] of Object.entries(rules)) {
    const memory = new RateLimiterMemory({
      points: rule.points,
      duration: rule.durationSeconds,
      keyPrefix: `${prefix}:${name}`,
    });
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
    buckets.set(name, { rule, limiter });
  }
  const get = (name: string) => {
    const bucket = buckets.get(name);
    if (!bucket) throw new Error(`Unknown rate-limit bucket: ${name}`);
    return bucket;
  };

  return {
    consume(name, key) {
      const { rule, limiter } = get(name);
      return consumeFrom(rule, limiter, key);
    },
    async reset(name, key) {
      await get(name).limiter.delete(key);
    },
    async check(name, key) {
      const { rule, limiter } = get(name);
      const counted = await limiter.get(key);
      if (!counted) return stateOf(rule, 0, rule.durationSeconds * 1000);
      if (counted.consumedPoints >= rule.points) throw limitExceeded(rule, counted.msBeforeNext);
      return stateOf(rule, counted.consumedPoints, counted.msBeforeNext);
    },
    async countFailure(name, key) {
      await get(name).limiter.penalty(key, 1);
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
