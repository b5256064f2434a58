/**
 * The Redis connection (when REDIS_URL is set). A Redis that does not answer is treated as one that
 * is gone, within about a second: every command has a deadline (COMMAND_TIMEOUT_MS), a connection
 * that sends nothing back for that long is dropped, and while there is no ready connection commands
 * fail at once instead of queueing, so that callers fall back (rate limits and caches to memory) and
 * health says so. ioredis keeps reconnecting (its ready check has the same deadline, so a frozen server is never
 * taken for a ready one); once Redis answers again it is used again.
 */
import { Redis } from 'ioredis';

/** How long a command may wait for its answer; a healthy Redis answers in well under a millisecond. */
export const COMMAND_TIMEOUT_MS = 500;

export function createRedis(url: string, keyPrefix = ''): Redis {
  const redis = new Redis(url, {
    keyPrefix,
    lazyConnect: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    // A frozen server (SIGSTOP, a stuck host) keeps its TCP connection open: with no answer in this
    // time the socket is destroyed, so the status leaves `ready` and callers stop sending (offline
    // queue off, rate-limiter-flexible's rejectIfRedisNotReady) instead of each waiting its deadline.
    socketTimeout: COMMAND_TIMEOUT_MS,
    // A command caught by a lost connection fails rather than waiting for the next one.
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    // Commands issued in the same tick (the rate-limit counts of concurrent requests) go out in one
    // write: fewer system calls on both ends (docs/performance.md).
    enableAutoPipelining: true,
  });
  // Connection errors are reported through health; without a listener ioredis would log each one.
  redis.on('error', () => undefined);
  return redis;
}

export async function waitForRedis(redis: Redis, timeoutMs = 3000): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
