/**
 * Rate limits (spec §8) on one mechanism: fixed windows counted in-process by default, or in Redis
 * when REDIS_URL is set so that every server process shares one count. If Redis stops answering,
 * counting goes on in memory (rate-limiter-flexible's insurance limiter) rather than failing requests.
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
  /**
   * Counts one request as `consume` does, unless the Redis key `flag` is set: then nothing is counted
   * and the answer is 'flagged'. With Redis the check and the count are one script, so one round trip.
   * Without Redis, or while it fails, there is no flag to see: the caller keeps its own copy of what
   * it flags, and the count falls back to memory as `consume`'s does.
   */
  consumeUnlessFlagged(name: string, key: string, flag: string): Promise<LimitState | 'flagged'>;
  /** Forgets the count of `key` (e.g. after a successful sign-in). */
  reset(name: string, key: string): Promise<void>;
}

/**
 * rate-limiter-flexible's fixed window (its own script: start the window if there is none, add the
 * points, read the time left), on the same key, behind a check of KEYS[1]. So `consume`, `reset` and
 * this share one count.
 */
const COUNT_UNLESS_FLAGGED = `
if redis.call('exists', KEYS[1]) == 1 then return {-1, 0} end
redis.call('set', KEYS[2], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[2], ARGV[1])
local ttl = redis.call('pttl', KEYS[2])
if ttl == -1 then
  redis.call('expire', KEYS[2], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}`;

type CountUnlessFlagged = (flag: string, counter: string, points: string, seconds: string) => Promise<[number, number]>;

interface Bucket {
  rule: LimitRule;
  limiter: RateLimiterAbstract;
  memory: RateLimiterMemory;
}

function stateOf(rule: LimitRule, consumed: number, msBeforeNext: number): LimitState {
  return { limit: rule.points, remaining: Math.max(rule.points - consumed, 0), resetSeconds: Math.ceil(msBeforeNext / 1000) };
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
async function consumeFrom(rule: LimitRule, limiter: RateLimiterAbstract, key: string): Promise<LimitState> {
  try {
    const res = await limiter.consume(key);
    return stateOf(rule, res.consumedPoints, res.msBeforeNext);
  } catch (outcome) {
    if (outcome instanceof RateLimiterRes) throw limitExceeded(rule, outcome.msBeforeNext);
    throw outcome;
  }
}

export function createRateLimiter(rules: Record<string, LimitRule>, redis?: Redis, prefix = 'rl'): RateLimiter {
  const buckets = new Map<string, Bucket>();
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
    buckets.set(name, { rule, limiter, memory });
  }
  let countUnlessFlagged: CountUnlessFlagged | null = null;
  if (redis) {
    redis.defineCommand('rwCountUnlessFlagged', { numberOfKeys: 2, lua: COUNT_UNLESS_FLAGGED });
    const commands = redis as unknown as { rwCountUnlessFlagged: CountUnlessFlagged };
    countUnlessFlagged = (...args) => commands.rwCountUnlessFlagged(...args);
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
    async consumeUnlessFlagged(name, key, flag) {
      const { rule, limiter, memory } = get(name);
      // As rate-limiter-flexible does (rejectIfRedisNotReady): no command is tried while Redis is not ready.
      if (!countUnlessFlagged || redis?.status !== 'ready') return consumeFrom(rule, memory, key);
      let counted: [number, number];
      try {
        counted = await countUnlessFlagged(flag, limiter.getKey(key), '1', String(rule.durationSeconds));
      } catch {
        return consumeFrom(rule, memory, key);
      }
      const [consumed, msBeforeNext] = counted;
      if (consumed < 0) return 'flagged';
      if (consumed > rule.points) throw limitExceeded(rule, msBeforeNext);
      return stateOf(rule, consumed, msBeforeNext);
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
