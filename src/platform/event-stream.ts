/**
 * Server-sent events (the summary stream, the search stream), made safe for a browser's EventSource. An
 * EventSource reconnects by itself whenever the server closes the connection, even after the last
 * event, and a reconnect is a new request: a new summary, counted against the user's hourly limit. So
 * every event carries an id, the stream asks for a long reconnection delay (`retry:`), and the last
 * event of a stream (`done` or `error`) has the id `end`: a reconnect that carries it in
 * `Last-Event-ID` is answered 204, which tells an EventSource to stop for good. Clients should close
 * the EventSource on `done` and `error` anyway.
 *
 * The body is a stream handed to Fastify (not a hijacked reply), so the reply's own headers and hooks
 * apply: refreshed session cookies, CORS and the rate-limit headers reach the client (item 3).
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** Asked of the client: wait an hour before reconnecting a stream that was cut (the default is ~3 s). */
export const STREAM_RETRY_MS = 3_600_000;
/** The id of a stream's last event (`done` or `error`). */
export const FINAL_EVENT_ID = 'end';

/** Whether a request is an EventSource's reconnect after a finished stream (its `Last-Event-ID`). */
export function reconnectsAfterEnd(lastEventId: string | string[] | undefined): boolean {
  return lastEventId === FINAL_EVENT_ID;
}

export class EventStream {
  /** What Fastify sends as the body. */
  readonly body = new PassThrough();
  private sent = 0;

  /** `retryMs`: the reconnection delay asked of the client; `firstId`: an id the client resumes from until an event gives another. */
  constructor(retryMs = STREAM_RETRY_MS, firstId?: string) {
    // Written at once: Fastify sends the headers with the first bytes, so the client sees the stream open.
    this.write(`retry: ${retryMs}\n${firstId === undefined ? '' : `id: ${firstId}\n`}\n`);
  }

  /** How many bytes wait for a slow client to read them. */
  get backlog(): number {
    return this.body.writableLength;
  }

  /** False once the stream is finished or the client has gone. */
  get open(): boolean {
    return !this.body.writableEnded && !this.body.destroyed;
  }

  /** One event; its data is JSON (which has no line breaks, so it cannot end the event early). */
  send(event: string, data: unknown): void {
    this.sent++;
    this.write(`id: ${this.sent}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** One event with an id of the caller's (a log's, which a reconnect resumes from). */
  sendWithId(id: string, event: string, data: unknown): void {
    this.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** The last event (`done` or `error`), then the end of the stream. Later calls do nothing. */
  finish(event: 'done' | 'error', data: unknown): void {
    this.write(`id: ${FINAL_EVENT_ID}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    this.end();
  }

  /** A comment line: keeps proxies from closing a quiet connection. */
  keepAlive(comment = 'keep-alive'): void {
    this.write(`: ${comment}\n\n`);
  }

  end(): void {
    if (this.open) this.body.end();
  }

  private write(text: string): void {
    if (this.open) this.body.write(text);
  }
}

/** A new stream sent as `reply`'s body, with the headers every event stream answers with. */
export function openEventStream(reply: FastifyReply, stream = new EventStream()): EventStream {
  void reply.headers({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    // One stream per connection: nothing lingers on it once the stream ends (and shutdown is not held up).
    connection: 'close',
    'x-accel-buffering': 'no',
  });
  void reply.send(stream.body);
  return stream;
}
