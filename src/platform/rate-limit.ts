/**
 * Rate limits (spec §8) on one mechanism: fixed windows counted in-process by default, or in Redis
 * when REDIS_URL is set so that every server process shares one count. If Redis stops answering,
 * counting goes on in memory (rate-limiter-flexible's insurance limiter) rather than failing requests.
 * The count of signed-in requests (consumeUnlessFlagged) reaches Redis in batches, exactly near the limit.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
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
   * and the answer is 'flagged'. For a bucket hit by every request of a signed-in user, so Redis is
   * not asked each time (see SharedTally): the flag is seen, and the count reaches Redis, within
   * SHARED_FRESH_MS; near the limit every request is asked about, so the limit holds exactly.
   * Without Redis, or while it fails, there is no flag to see: the caller keeps its own copy of what
   * it flags, and the count falls back to memory as `consume`'s does.
   */
  consumeUnlessFlagged(name: string, key: string, flag: string): Promise<LimitState | 'flagged'>;
  /** Forgets the count of `key` (e.g. after a successful sign-in). */
  reset(name: string, key: string): Promise<void>;
  /** Takes back one point `consume` counted for `key` (a sign-in that succeeded: only failures count). */
  refund(name: string, key: string): Promise<void>;
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

/**
 * What this process knows of one (bucket, key, flag) in Redis, so that a user's requests do not each
 * wait for a Redis round trip (on the benchmark's signed-in routes that wait halved throughput, bench/).
 * For SHARED_FRESH_MS after Redis was asked, requests are answered from here and counted in `pending`;
 * the pending ones are added to Redis every SHARED_FLUSH_MS, each addition asking again (flag, count).
 * A request goes to Redis itself, with the pending ones, when what is known is older, or when fewer
 * than the headroom would remain: near the limit the count is Redis's own, so it holds exactly. What
 * this process has counted but not yet added is lost if it stops or Redis fails (at most one flush).
 */
interface SharedTally {
  id: string;
  bucket: Bucket;
  key: string;
  flag: string;
  flagged: boolean;
  /** The count in Redis when last asked, and when its window ends (epoch ms). */
  counted: number;
  windowEndsAt: number;
  askedAt: number;
  /** Requests counted here since, not yet added to Redis. */
  pending: number;
}

const SHARED_FRESH_MS = 100;
const SHARED_FLUSH_MS = 50;
/** Keys (signed-in sessions) remembered at once; the least recently used is forgotten first. */
const SHARED_TALLIES = 10_000;

/** How many points must remain for a request to be counted here first: a tenth of the limit, at least 10. */
function headroomOf(rule: LimitRule): number {
  return Math.max(10, Math.ceil(rule.points / 10));
}

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

  const tallies = new LRUCache<string, SharedTally>({ max: SHARED_TALLIES });
  const unflushed = new Set<SharedTally>();
  let flushTimer: NodeJS.Timeout | null = null;

  /** Adds `points` to the count in Redis unless the flag is set, and keeps what Redis answers. */
  async function ask(tally: SharedTally, points: number): Promise<[number, number]> {
    const { rule, limiter } = tally.bucket;
    const answer = await (countUnlessFlagged as CountUnlessFlagged)(tally.flag, limiter.getKey(tally.key), String(points), String(rule.durationSeconds));
    const [consumed, msBeforeNext] = answer;
    const now = Date.now();
    tally.askedAt = now;
    tally.flagged = consumed < 0;
    if (!tally.flagged) {
      tally.counted = consumed;
      tally.windowEndsAt = now + msBeforeNext;
    }
    return answer;
  }

  function flush(): void {
    flushTimer = null;
    for (const tally of unflushed) {
      const points = tally.pending;
      tally.pending = 0;
      ask(tally, points).catch(() => tallies.delete(tally.id));
    }
    unflushed.clear();
  }

  return {
    consume(name, key) {
      const { rule, limiter } = get(name);
      return consumeFrom(rule, limiter, key);
    },
    async consumeUnlessFlagged(name, key, flag) {
      const bucket = get(name);
      const { rule, memory } = bucket;
      // As rate-limiter-flexible does (rejectIfRedisNotReady): no command is tried while Redis is not ready.
      if (!countUnlessFlagged || redis?.status !== 'ready') return consumeFrom(rule, memory, key);
      const id = `${name}\u0000${key}\u0000${flag}`;
      const now = Date.now();
      let tally = tallies.get(id);
      if (tally && now - tally.askedAt < SHARED_FRESH_MS && (tally.flagged || now < tally.windowEndsAt)) {
        if (tally.flagged) return 'flagged';
        if (rule.points - (tally.counted + tally.pending + 1) >= headroomOf(rule)) {
          tally.pending += 1;
          unflushed.add(tally);
          flushTimer ??= setTimeout(flush, SHARED_FLUSH_MS).unref();
          return stateOf(rule, tally.counted + tally.pending, tally.windowEndsAt - now);
        }
      }
      if (!tally) {
        tally = { id, bucket, key, flag, flagged: false, counted: 0, windowEndsAt: 0, askedAt: 0, pending: 0 };
        tallies.set(id, tally);
      }
      // This request, with those counted here since the last flush.
      const points = 1 + tally.pending;
      tally.pending = 0;
      unflushed.delete(tally);
      let answer: [number, number];
      try {
        answer = await ask(tally, points);
      } catch {
        tallies.delete(id);
        return consumeFrom(rule, memory, key);
      }
      const [consumed, msBeforeNext] = answer;
      if (consumed < 0) return 'flagged';
      if (consumed > rule.points) throw limitExceeded(rule, msBeforeNext);
      return stateOf(rule, consumed, msBeforeNext);
    },
    async reset(name, key) {
      const bucket = get(name);
      for (const tally of tallies.values()) if (tally.bucket === bucket && tally.key === key) tallies.delete(tally.id);
      await bucket.limiter.delete(key);
    },
    async refund(name, key) {
      await get(name).limiter.reward(key, 1);
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
