/**
 * The open event streams of this process, fed by ONE listen on the change log's channel (record.ts):
 * a notification carries only `<workspaceId>:<eventId>`, and each stream of that workspace then reads
 * the rows after the last id it sent, in order. Reading "after my last id" rather than "the id
 * notified" is what makes a stream gapless and duplicate-free whatever arrives when: the notifications
 * heard while a stream replays its backlog, a burst of them, or none at all while the listening
 * connection was lost — when it listens again, every stream reads what it missed from the log, so a
 * PostgreSQL restart loses nothing that was committed.
 *
 * Bounded: at most `perUser` streams of one user and `perProcess` in all (429 and 503 beyond), and a
 * client that does not read is cut off once MAX_BACKLOG_BYTES wait for it (it reconnects and resumes).
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { SESSION_ENDED_CHANNEL } from '../../auth/index.js';
import type { Database } from '../../platform/db/client.js';
import { rateLimited, serviceUnavailable } from '../../platform/errors.js';
import { EventStream, openEventStream } from '../../platform/event-stream.js';
import { presentChangeEvent } from './presenters.js';
import { EVENTS_CHANNEL } from './record.js';
import { eventsAfter, holdsEvent, latestEventId, type EventRow } from './store.js';

/** Asked of an EventSource: reconnect 2 s after the stream is cut. */
export const EVENTS_RETRY_MS = 2000;
/** A comment line this often keeps proxies from closing a quiet stream. */
export const HEARTBEAT_MS = 25_000;
/** Events read from the log per query. */
const READ_BATCH = 200;
/** Unread bytes a client may leave waiting before its stream is ended. */
const MAX_BACKLOG_BYTES = 1024 * 1024;
/** A stream refused for the per-user limit is told to try again after this many seconds. */
const RETRY_AFTER_SECONDS = 30;

export interface StreamLimits {
  perUser: number;
  perProcess: number;
}

export interface OpenStream {
  workspaceId: string;
  userId: string;
  sessionId: string | null;
  /** The client's `Last-Event-ID` (header or query); null for a first connection. */
  lastEventId: string | null;
}

interface Subscriber extends Omit<OpenStream, 'lastEventId'> {
  stream: EventStream | null;
  /** The id of the last event sent (or the point the stream started from). */
  lastId: number;
  reading: boolean;
  /** A notification came while reading: read again. */
  again: boolean;
}

export interface StreamHub {
  /** Answers `reply` with the workspace's stream (the caller has authorized the user); 429/503 when full. */
  open(reply: FastifyReply, request: OpenStream): Promise<void>;
  /** Ends every stream (the server is closing). */
  close(): void;
  /** Streams open now (tests, metrics). */
  size(): number;
}

/** A `Last-Event-ID` as a log id; null when it cannot be one (then the client resets). */
function logIdOf(text: string): number | null {
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

export function createStreamHub(
  database: Pick<Database, 'db' | 'listen'>,
  limits: StreamLimits,
  log: Pick<FastifyBaseLogger, 'warn'>,
): StreamHub {
  const { db } = database;
  const subscribers = new Set<Subscriber>();
  let listening = false;
  let heartbeat: NodeJS.Timeout | undefined;

  const remove = (sub: Subscriber) => {
    subscribers.delete(sub);
    sub.stream?.end();
    if (subscribers.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  };

  /** Whether the stream ends after this event: its user lost access to the workspace. */
  const endsStream = (sub: Subscriber, row: EventRow) =>
    row.type === 'workspace.deleted' ||
    (row.type === 'member.removed' && row.userId === sub.userId);

  /** Sends the workspace's events after the subscriber's last id, until the log has no more. */
  const catchUp = async (sub: Subscriber): Promise<void> => {
    if (!sub.stream) return;
    if (sub.reading) {
      sub.again = true;
      return;
    }
    sub.reading = true;
    try {
      do {
        sub.again = false;
        let rows: EventRow[];
        do {
          rows = await eventsAfter(db, sub.workspaceId, sub.lastId, READ_BATCH);
          for (const row of rows) {
            if (!subscribers.has(sub)) return;
            sub.stream.sendWithId(String(row.id), 'change', presentChangeEvent(row));
            sub.lastId = row.id;
            if (endsStream(sub, row)) {
              remove(sub);
              return;
            }
          }
          if (sub.stream.backlog > MAX_BACKLOG_BYTES) {
            remove(sub);
            return;
          }
        } while (rows.length === READ_BATCH);
      } while (sub.again && subscribers.has(sub));
    } catch (error) {
      // The next notification, or the listening connection's return, reads again from the same id.
      log.warn(
        { err: error, workspaceId: sub.workspaceId },
        'Could not read the workspace change log for an event stream',
      );
    } finally {
      sub.reading = false;
    }
  };

  const startListening = () => {
    if (listening) return;
    listening = true;
    database.listen(EVENTS_CHANNEL, {
      message: (payload) => {
        const workspaceId = payload.slice(0, payload.indexOf(':'));
        for (const sub of subscribers) if (sub.workspaceId === workspaceId) void catchUp(sub);
      },
      // Back (or listening for the first time): whatever was committed meanwhile was not heard.
      listening: (heard) => {
        if (heard) for (const sub of subscribers) void catchUp(sub);
      },
    });
    database.listen(SESSION_ENDED_CHANNEL, {
      message: (sessionId) => {
        for (const sub of subscribers)
          if (sub.sessionId !== null && sub.sessionId === sessionId) remove(sub);
      },
      listening: () => undefined,
    });
  };

  return {
    async open(reply, request) {
      if (subscribers.size >= limits.perProcess)
        throw serviceUnavailable('Too many live event streams on this server; try again shortly');
      let ofUser = 0;
      for (const sub of subscribers) if (sub.userId === request.userId) ofUser++;
      if (ofUser >= limits.perUser) throw rateLimited(RETRY_AFTER_SECONDS);
      startListening();
      // Subscribed before the log is read: a change committed meanwhile is read too (by id, once).
      const sub: Subscriber = {
        workspaceId: request.workspaceId,
        userId: request.userId,
        sessionId: request.sessionId,
        stream: null,
        lastId: 0,
        reading: false,
        again: false,
      };
      subscribers.add(sub);
      reply.raw.once('close', () => remove(sub));
      try {
        const latest = await latestEventId(db, request.workspaceId);
        const asked = request.lastEventId === null ? null : logIdOf(request.lastEventId);
        const resumes =
          asked !== null &&
          (asked === latest || (await holdsEvent(db, request.workspaceId, asked)));
        sub.lastId = resumes ? asked : latest;
        sub.stream = openEventStream(
          reply,
          new EventStream(EVENTS_RETRY_MS, !resumes && latest > 0 ? String(latest) : undefined),
        );
        // The log no longer holds what came after the client's last event: it must reload everything.
        if (request.lastEventId !== null && !resumes)
          sub.stream.sendWithId(String(latest), 'reset', {});
      } catch (error) {
        remove(sub);
        throw error;
      }
      if (!subscribers.has(sub)) {
        sub.stream.end();
        return;
      }
      heartbeat ??= setInterval(() => {
        for (const each of subscribers) each.stream?.keepAlive('ping');
      }, HEARTBEAT_MS).unref();
      await catchUp(sub);
    },
    close() {
      for (const sub of [...subscribers]) remove(sub);
    },
    size: () => subscribers.size,
  };
}
