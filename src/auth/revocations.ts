/**
 * Whether a session (a refresh-token family) has ended, as every process must see it: PostgreSQL
 * holds the truth (the family's rows in refresh_tokens), and each process asks it. Redis plays no
 * part, so an outage or a restart of Redis cannot forget a sign-out.
 *
 * What is kept in memory is only what is safe to keep: an ended session stays ended (remembered for
 * an access token's lifetime, after which no token of it verifies anyway), and a live one is taken as
 * live for LIVE_FOR_MS after the database said so, and only while this process hears the others. A
 * process that ends a session says so on the database's `session_ended` channel, which tells every
 * listening process as the statement commits; each forgets the session it believed live the moment
 * it hears, so a sign-out is refused by every process once the notification reaches it (milliseconds
 * after the sign-out is answered, not before: docs/operations.md, Sign-out across processes), with no batching or polling delay.
 * While a process cannot hear (its listening connection lost and not yet back) it believes nothing
 * and asks the database on every request. Only a session ended without the service (its rows revoked
 * by hand) waits out LIVE_FOR_MS. Concurrent requests of one session share one query.
 */
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../platform/db/client.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-tokens.js';

/** How long the database's "this session holds" is believed without asking again, while hearing the channel. */
export const LIVE_FOR_MS = 5000;
/** Sessions remembered at once (each way); the least recently used is forgotten first. */
const REMEMBERED = 10_000;
/** The channel on which a process says which sessions it has ended. */
export const SESSION_ENDED_CHANNEL = 'session_ended';

export interface RevocationList {
  /** Sessions just ended (their rows are revoked in the database): refused here at once, and said on the channel. */
  revoke(sessionIds: string[]): Promise<void>;
  /** Whether the session has ended; throws (a 503) when the database cannot be asked. */
  isRevoked(sessionId: string): Promise<boolean>;
}

/** `ended(db, sessionId)`: true when the database says the session has ended or does not exist. */
export type SessionEndedQuery = (db: Db, sessionId: string) => Promise<boolean>;

export function createRevocationList(
  database: Pick<Database, 'db' | 'listen'>,
  ended: SessionEndedQuery,
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
): RevocationList {
  const { db } = database;
  const endedHere = new LRUCache<string, true>({
    max: REMEMBERED,
    ttl: ACCESS_TOKEN_TTL_SECONDS * 1000,
  });
  const liveUntil = new LRUCache<string, true>({ max: REMEMBERED, ttl: LIVE_FOR_MS });
  const asking = new Map<string, Promise<boolean>>();
  let hearing = false;
  /** Whether this process ever listened: the first listen is no return worth a log line. */
  let hasHeard = false;
  /** Counts the changes of `hearing`: an answer asked for across one may predate an ending not heard. */
  let hearingChanges = 0;

  const end = (sessionId: string) => {
    endedHere.set(sessionId, true);
    liveUntil.delete(sessionId);
  };
  database.listen(SESSION_ENDED_CHANNEL, {
    message: end,
    listening: (heard, why) => {
      // Whatever was believed may have ended unheard meanwhile.
      liveUntil.clear();
      // Said once per loss and once per return, not at every failed attempt to listen again.
      if (hearing && !heard) {
        log.warn(
          { channel: SESSION_ENDED_CHANNEL, reason: why?.message },
          'Lost the listening connection to the database: sign-outs in other processes are not heard; every request asks the database until it is back',
        );
      } else if (!hearing && heard && hasHeard) {
        log.info(
          { channel: SESSION_ENDED_CHANNEL },
          'Listening to the database again: sign-outs in other processes are heard at once',
        );
      }
      if (heard) hasHeard = true;
      hearing = heard;
      hearingChanges += 1;
    },
  });

  const ask = (sessionId: string): Promise<boolean> => {
    let answer = asking.get(sessionId);
    if (!answer) {
      const changesBefore = hearingChanges;
      answer = ended(db, sessionId)
        .then((isEnded) => {
          if (isEnded) endedHere.set(sessionId, true);
          else if (hearing && hearingChanges === changesBefore) liveUntil.set(sessionId, true);
          return isEnded;
        })
        .finally(() => asking.delete(sessionId));
      asking.set(sessionId, answer);
    }
    return answer;
  };

  return {
    async revoke(sessionIds) {
      if (sessionIds.length === 0) return;
      for (const id of sessionIds) end(id);
      const ids = sql.join(
        sessionIds.map((id) => sql`(${id})`),
        sql`, `,
      );
      await db.execute(
        sql`select pg_notify(${SESSION_ENDED_CHANNEL}, id) from (values ${ids}) as ended(id)`,
      );
    },
    async isRevoked(sessionId) {
      if (endedHere.has(sessionId)) return true;
      if (hearing && liveUntil.has(sessionId)) return false;
      return ask(sessionId);
    },
  };
}
