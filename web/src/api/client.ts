/**
 * The typed API client (openapi-fetch over the generated schema.d.ts). Same origin, session cookies.
 * Two middlewares: a 401 on a signed-in request refreshes the session once (POST /api/auth/refresh,
 * shared by concurrent requests) and retries, and when that fails the app hears `sessionEnded`; then
 * any failure, an error reply or no reply at all, is thrown as an ApiError (status, code, message,
 * Retry-After), so every caller and every query sees one kind of error.
 * `queries` are TanStack Query hooks over the client (openapi-react-query): their data is typed by
 * the path and method from schema.d.ts, with no casts. `unwrap` gives a plain call's data.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import createQueryClient from 'openapi-react-query';
import { ApiError, apiErrorFrom } from './errors';
import type { paths } from './schema';

const REFRESH_PATH = '/api/auth/refresh';
/** Requests whose 401 means "wrong credentials" or "no session", not "refresh me". */
const NO_REFRESH = new Set([
  '/api/auth/signin',
  '/api/auth/signup',
  '/api/auth/signout',
  REFRESH_PATH,
  '/api/auth/update-password',
  '/api/auth/reset-password',
]);

/**
 * Why a session ended, as the app words it on the sign-in page: the service's `details.reason` of an
 * ended session's 401 (src/auth/sessions.ts), `cookies` when a signed-in request came without any
 * session cookie (cleared, or the browser dropped them). A fixed set: the sign-in page's `ended`
 * parameter is read through `sessionEndCode`, so an address cannot make it say anything else.
 */
const SESSION_END_CODES = [
  'signed_out',
  'password_changed',
  'reused',
  'expired',
  'cookies',
  'unknown',
] as const;
export type SessionEndCode = (typeof SESSION_END_CODES)[number];

export function sessionEndCode(value: unknown): SessionEndCode | null {
  return SESSION_END_CODES.find((code) => code === value) ?? null;
}

/**
 * Whether the service's `signed_in` hint cookie is there (set and cleared with the session cookies,
 * which scripts cannot read): without it there is no session to ask about, and asking would only
 * fail with a 401 that the browser's console shows.
 */
export function mayHaveSession(cookies: string = globalThis.document?.cookie ?? ''): boolean {
  return cookies.split(/;\s*/).includes('signed_in=1');
}

type Listener = (reason: SessionEndCode) => void;
const sessionEndedListeners = new Set<Listener>();
/** Called when a request found the session ended and a refresh could not renew it, or another tab signed out. */
export function onSessionEnded(listener: Listener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

function sessionEnded(reason: SessionEndCode): void {
  for (const listener of sessionEndedListeners) listener(reason);
}

/** The other tabs of this browser hear a sign-out at once (their cookies went with it). */
const tabs =
  typeof BroadcastChannel === 'undefined'
    ? null
    : new BroadcastChannel('research-workspace-session');
tabs?.addEventListener('message', (event: MessageEvent) => {
  if (event.data === 'signed_out') sessionEnded('signed_out');
});
export function tellOtherTabsSignedOut(): void {
  tabs?.postMessage('signed_out');
}

/** The service's reason in an ended session's 401, if it gave one. */
async function endReasonIn(response: Response): Promise<SessionEndCode | null> {
  try {
    const body = (await response.clone().json()) as { error?: { details?: { reason?: unknown } } };
    return sessionEndCode(body.error?.details?.reason);
  } catch {
    return null;
  }
}

let refreshing: Promise<boolean> | null = null;
/** One refresh at a time: concurrent 401s wait for the same one (the refresh token rotates on use). */
export function refreshSession(fetcher: typeof fetch = fetch): Promise<boolean> {
  refreshing ??= fetcher(REFRESH_PATH, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
    .then((response) => response.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

const originals = new Map<string, Request>();

const refreshOnExpiry: Middleware = {
  onRequest({ request, id }) {
    // A copy to send again after a refresh (the body of the first is consumed).
    if (!NO_REFRESH.has(new URL(request.url).pathname)) originals.set(id, request.clone());
    return undefined;
  },
  async onResponse({ response, id }) {
    const original = originals.get(id);
    originals.delete(id);
    if (response.status !== 401 || !original) return undefined;
    // The service already tried the refresh cookie (request-auth.ts): a reason means the session is over.
    const reason = await endReasonIn(response);
    if (reason || !(await refreshSession())) {
      sessionEnded(reason ?? 'cookies');
      return undefined;
    }
    try {
      return await fetch(original);
    } catch (failure) {
      throw networkError(failure);
    }
  },
  onError({ id }) {
    originals.delete(id);
    return undefined;
  },
};

function networkError(failure: unknown): ApiError {
  const reason = failure instanceof Error ? failure.message : String(failure);
  return new ApiError(
    0,
    'NETWORK_ERROR',
    'The service cannot be reached. Check your connection and try again.',
    { reason },
  );
}

/** Error replies and network failures as thrown ApiErrors (a cancelled request stays an AbortError). */
const failuresAsApiError: Middleware = {
  async onResponse({ response }) {
    if (response.ok) return undefined;
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page): apiErrorFrom words it from the status.
    }
    throw apiErrorFrom(response, body);
  },
  onError({ error }) {
    if (error instanceof Error && error.name === 'AbortError') return undefined;
    return networkError(error);
  },
};

export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? '',
  credentials: 'include',
});
// Response middlewares run last-registered first: a 401 is refreshed and retried before it counts as a failure.
api.use(failuresAsApiError, refreshOnExpiry);

/**
 * Query hooks and query options over `api`. Their `error` is typed as the API's error envelope, but
 * `failuresAsApiError` throws before openapi-fetch reads one: what arrives is always an ApiError.
 */
export const queries = createQueryClient(api);

/**
 * A multipart body of the files in `body`, each under its field's name, for a `bodySerializer` (a File
 * is sent with its name and type). `unknown`, because an operation that takes JSON or multipart types
 * its body as the union of the two; only the Blob fields are sent.
 */
export function multipartBody(body: unknown): FormData {
  const form = new FormData();
  if (typeof body !== 'object' || body === null) return form;
  for (const [name, part] of Object.entries(body))
    if (part instanceof Blob) form.append(name, part);
  return form;
}

/** The data of a successful reply (a failed one was thrown as an ApiError by the middleware). */
export async function unwrap<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data, response } = await call;
  // Every operation the app calls answers with a body; an empty one is the server's fault.
  if (data === undefined)
    throw new ApiError(
      response.status,
      'INTERNAL_ERROR',
      `The server answered ${response.status} without a body.`,
    );
  return data;
}
