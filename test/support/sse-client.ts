/**
 * A server-sent-events reader for tests, over a real connection (fetch): the events as they arrive,
 * parsed as an EventSource would, and ways to await them (no sleeps).
 */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export interface SseConnection {
  status: number;
  /** Every event received so far, in order. */
  events: SseEvent[];
  /** The raw text received so far (retry and comment lines included). */
  text(): string;
  /** Resolves with the events received once `count` events matching `filter` have come (rejects after `withinMs`). */
  waitFor(
    count: number,
    filter?: (event: SseEvent) => boolean,
    withinMs?: number,
  ): Promise<SseEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openSse(
  url: string,
  headers: Record<string, string> = {},
): Promise<SseConnection> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  let raw = '';
  let buffer = '';
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of waiters) waiter();
  };
  let finished = false;
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        const text = decoder.decode(chunk as Uint8Array, { stream: true });
        raw += text;
        buffer += text;
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const event: SseEvent = { event: 'message', data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon === 0) continue;
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') event.id = value;
            else if (field === 'event') event.event = value;
            else if (field === 'data') {
              event.data = hasData ? `${event.data}\n${value}` : value;
              hasData = true;
            }
          }
          if (hasData) events.push(event);
        }
        notify();
      }
    } catch {
      // Aborted by close(), or the connection was cut.
    } finally {
      finished = true;
      notify();
    }
  })();
  return {
    status: response.status,
    events,
    text: () => raw,
    waitFor(count, filter = () => true, withinMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const matching = events.filter(filter);
          if (matching.length >= count) {
            cleanup();
            resolve(matching);
          } else if (finished) {
            cleanup();
            reject(
              new Error(
                `The stream ended after ${matching.length} of ${count} events: ${raw.slice(-500)}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `${events.filter(filter).length} of ${count} events within ${withinMs} ms: ${raw.slice(-500)}`,
            ),
          );
        }, withinMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    ended,
    close: () => controller.abort(),
  };
}
