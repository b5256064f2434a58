/**
 * One search streamed from GET /api/search/stream through an EventSource: `provider` events (each
 * provider's status and the merged page so far) go to `onPage` as they arrive; the promise settles
 * with `done`, the reply GET /api/search gives, or fails with the `error` event (a 429 as ApiError, in
 * the words every refusal uses). The stream is closed on `done`, on `error` and when `signal` aborts
 * (a newer search, the page left): the server then stops asking. A connection that fails before any
 * event is tried once more after refreshing the session (an expired access cookie answers 401, which
 * an EventSource cannot read), as the summary stream is.
 */
import { refreshSession } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { components, paths } from '../../api/schema';
import { eventData } from '../../lib/event-data';

export type SearchReply = components['schemas']['SearchReply'];
export type SearchParameters = NonNullable<
  paths['/api/search/stream']['get']['parameters']['query']
>;

const isReply = (value: unknown): value is SearchReply =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as SearchReply).results) &&
  Array.isArray((value as SearchReply).providers);

/** The `error` event as an error the app's states describe (describeError). */
function streamError(data: unknown): Error {
  const { message, code, retryAfter } = (typeof data === 'object' && data !== null ? data : {}) as {
    message?: unknown;
    code?: unknown;
    retryAfter?: unknown;
  };
  const text =
    typeof message === 'string' && message.trim() !== '' ? message : 'The search failed.';
  if (code === 'RATE_LIMITED') {
    const seconds =
      typeof retryAfter === 'number' && Number.isSafeInteger(retryAfter) && retryAfter > 0
        ? retryAfter
        : null;
    return new ApiError(429, 'RATE_LIMITED', text, {}, seconds);
  }
  if (code === 'VALIDATION_ERROR') return new ApiError(400, 'VALIDATION_ERROR', text);
  return new Error(text);
}

export function streamSearch(
  parameters: SearchParameters,
  onPage: (page: SearchReply) => void,
  signal?: AbortSignal,
): Promise<SearchReply> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters))
    if (value !== undefined) params.set(name, String(value));
  const url = `/api/search/stream?${params.toString()}`;
  return new Promise<SearchReply>((resolve, reject) => {
    let source: EventSource | null = null;
    let received = false;
    let retried = false;
    const close = () => {
      source?.close();
      source = null;
    };
    const fail = (error: Error) => {
      close();
      reject(error);
    };
    signal?.addEventListener(
      'abort',
      () => fail(new DOMException('The search was replaced', 'AbortError')),
      { once: true },
    );
    const open = () => {
      if (signal?.aborted) return;
      const stream = new EventSource(url, { withCredentials: true });
      source = stream;
      stream.addEventListener('provider', (event) => {
        received = true;
        const page = (eventData(event) as { page?: unknown } | null)?.page;
        if (isReply(page)) onPage(page);
      });
      stream.addEventListener('done', (event) => {
        received = true;
        const reply = eventData(event);
        close();
        if (isReply(reply)) resolve(reply);
        else reject(new Error('The search answered with something the app cannot read.'));
      });
      stream.addEventListener('error', (event) => {
        // The server's `error` event carries data; a failed connection is a plain Event.
        if (event instanceof MessageEvent && typeof event.data === 'string')
          return fail(streamError(eventData(event)));
        close();
        if (signal?.aborted) return;
        if (!received && !retried) {
          retried = true;
          void refreshSession().then(() => open());
          return;
        }
        reject(
          new ApiError(
            0,
            'NETWORK_ERROR',
            'The search could not reach the service or was cut off. Try again in a moment.',
          ),
        );
      });
    };
    open();
  });
}
