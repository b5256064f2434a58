/**
 * Revoked sessions (refresh-token families). Access tokens are checked against this set on every
 * request without a database round trip: in Redis when configured (shared by all processes), else
 * in process memory, reloaded from the database at start so a restart does not revive a session.
 */
import type { Redis } from 'ioredis';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-tokens.js';

export interface RevocationList {
  revoke(sessionIds: string[]): Promise<void>;
  isRevoked(sessionId: string): Promise<boolean>;
}

export function createMemoryRevocationList(): RevocationList {
  const until = new Map<string, number>();
  let lastPrune = Date.now();
  const prune = (now: number) => {
    if (now - lastPrune < 60_000) return;
    lastPrune = now;
    for (const [id, expiry] of until) if (expiry <= now) until.delete(id);
  };
  return {
    async revoke(ids) {
      const expiry = Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000;
      for (const id of ids) until.set(id, expiry);
    },
    async isRevoked(id) {
      const now = Date.now();
      prune(now);
      const expiry = until.get(id);
      return expiry !== undefined && expiry > now;
    },
  };
}

export function createRedisRevocationList(redis: Redis, fallback: RevocationList): RevocationList {
  const key = (id: string) => `revoked-session:${id}`;
  return {
    async revoke(ids) {
      await fallback.revoke(ids);
      if (ids.length === 0) return;
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.set(key(id), '1', 'EX', ACCESS_TOKEN_TTL_SECONDS);
      await pipeline.exec().catch(() => undefined);
    },
    async isRevoked(id) {
      try {
        return (await redis.exists(key(id))) === 1 || (await fallback.isRevoked(id));
      } catch {
        return fallback.isRevoked(id);
      }
    },
  };
}
