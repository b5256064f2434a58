/**
 * Whether a session (a refresh-token family) has ended, as every process must see it: PostgreSQL
 * holds the truth (the family's rows in refresh_tokens), and each process asks it. Redis plays no
 * part, so an outage or a restart of Redis cannot forget a sign-out.
 *
 * What is kept in memory is only what is safe to keep: an ended session stays ended (remembered for
 * an access token's lifetime, after which no token of it verifies anyway), and a live one is taken as
 * live for LIVE_FOR_MS after the database said so. A sign-out through another process is therefore
 * refused here within LIVE_FOR_MS; through this process, at once. Concurrent requests of one session
 * share one query.
 */
import { LRUCache } from 'lru-cache';
import type { Db } from '../platform/db/client.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-tokens.js';

/** How long the database's "this session holds" is believed without asking again. */
const LIVE_FOR_MS = 500;
/** Sessions remembered at once (each way); the least recently used is forgotten first. */
const REMEMBERED = 10_000;

export interface RevocationList {
  /** Sessions this process has just ended (their rows are revoked in the database): refused here at once. */
  revoke(sessionIds: string[]): Promise<void>;
  /** Whether the session has ended; throws (a 503) when the database cannot be asked. */
  isRevoked(sessionId: string): Promise<boolean>;
}

/** `ended(db, sessionId)`: true when the database says the session has ended or does not exist. */
export type SessionEndedQuery = (db: Db, sessionId: string) => Promise<boolean>;

export function createRevocationList(db: Db, ended: SessionEndedQuery): RevocationList {
  const endedHere = new LRUCache<string, true>({ max: REMEMBERED, ttl: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  const liveUntil = new LRUCache<string, true>({ max: REMEMBERED, ttl: LIVE_FOR_MS });
  const asking = new Map<string, Promise<boolean>>();

  const ask = (sessionId: string): Promise<boolean> => {
    let answer = asking.get(sessionId);
    if (!answer) {
      answer = ended(db, sessionId)
        .then((isEnded) => {
          if (isEnded) endedHere.set(sessionId, true);
          else liveUntil.set(sessionId, true);
          return isEnded;
        })
        .finally(() => asking.delete(sessionId));
      asking.set(sessionId, answer);
    }
    return answer;
  };

  return {
    async revoke(sessionIds) {
      for (const id of sessionIds) {
        endedHere.set(id, true);
        liveUntil.delete(id);
      }
    },
    async isRevoked(sessionId) {
      if (endedHere.has(sessionId)) return true;
      if (liveUntil.has(sessionId)) return false;
      return ask(sessionId);
    },
  };
}
