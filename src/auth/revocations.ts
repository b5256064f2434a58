/**
 * Revoked sessions (refresh-token families). Access tokens are checked against this set on every
 * request without a database round trip: in Redis when configured (shared by all processes), else
 * in process memory, reloaded from the database at start so a restart does not revive a session.
 */
import type { Redis } from 'ioredis';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-tokens.js';

export interface RevocationList {
  revoke(sessionIds: string[]): Promise<void>;
  /** Revoked, as every process sees it (a Redis lookup when revocations are shared). */
  isRevoked(sessionId: string): Promise<boolean>;
  /** Revoked by this process, or reloaded at its start: known without a round trip. */
  isRevokedHere(sessionId: string): boolean;
  /**
   * When revocations are shared through Redis: the key whose presence marks the session revoked for
   * every process, so that a caller can fold the check into a Redis command of its own (request-auth
   * has the rate limiter check it with the user's count: see consumeUnlessFlagged).
   */
  sharedFlag?(sessionId: string): string;
}

export function createMemoryRevocationList(): RevocationList {
  const until = new Map<string, number>();
  let lastPrune = Date.now();
  const prune = (now: number) => {
    if (now - lastPrune < 60_000) return;
    lastPrune = now;
    for (const [id, expiry] of until) if (expiry <= now) until.delete(id);
  };
  const isRevokedHere = (id: string) => {
    const now = Date.now();
    prune(now);
    const expiry = until.get(id);
    return expiry !== undefined && expiry > now;
  };
  return {
    async revoke(ids) {
      const expiry = Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000;
      for (const id of ids) until.set(id, expiry);
    },
    isRevoked: async (id) => isRevokedHere(id),
    isRevokedHere,
  };
}

/** Revocations in Redis, and in `local` too: what this process revoked holds even while Redis is away. */
export function createRedisRevocationList(redis: Redis, local: RevocationList): RevocationList {
  const sharedFlag = (id: string) => `revoked-session:${id}`;
  return {
    async revoke(ids) {
      await local.revoke(ids);
      if (ids.length === 0) return;
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.set(sharedFlag(id), '1', 'EX', ACCESS_TOKEN_TTL_SECONDS);
      await pipeline.exec().catch(() => undefined);
    },
    async isRevoked(id) {
      if (local.isRevokedHere(id)) return true;
      try {
        return (await redis.exists(sharedFlag(id))) === 1;
      } catch {
        return false;
      }
    },
    isRevokedHere: (id) => local.isRevokedHere(id),
    sharedFlag,
  };
}
