/**
 * The typed API client (openapi-fetch over the generated schema.d.ts). Same origin, session cookies.
 * One middleware: a 401 on a signed-in request refreshes the session once (POST /api/auth/refresh,
 * shared by concurrent requests) and retries; when that fails the app hears `sessionEnded`.
 * `unwrap` turns `{ data, error, response }` into the data or a thrown ApiError.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import { ApiError, apiErrorFrom } from './errors';
import type { paths } from './schema';

const REFRESH_PATH = '/api/auth/refresh';
/** Requests whose 401 means "wrong credentials" or "no session", not "refresh me". */
const NO_REFRESH = new Set(['/api/auth/signin', '/api/auth/signup', '/api/auth/signout', REFRESH_PATH, '/api/auth/update-password', '/api/auth/reset-password']);

type Listener = () => void;
const sessionEndedListeners = new Set<Listener>();
/** Called when a request found the session ended and a refresh could not renew it. */
export function onSessionEnded(listener: Listener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

let refreshing: Promise<boolean> | null = null;
/** One refresh at a time: concurrent 401s wait for the same one (the refresh token rotates on use). */
export function refreshSession(fetcher: typeof fetch = fetch): Promise<boolean> {
  refreshing ??= fetcher(REFRESH_PATH, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: '{}' })
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
    if (!(await refreshSession())) {
      for (const listener of sessionEndedListeners) listener();
      return undefined;
    }
    return fetch(original);
  },
  onError({ id }) {
    originals.delete(id);
    return undefined;
  },
};

export const api = createClient<paths>({ baseUrl: globalThis.location?.origin ?? '', credentials: 'include' });
api.use(refreshOnExpiry);

/** A multipart body of the parts named, for a `bodySerializer` (a File is sent with its name and type). */
export function multipartBody(parts: Record<string, Blob>): FormData {
  const form = new FormData();
  for (const [name, part] of Object.entries(parts)) form.append(name, part);
  return form;
}

/** The data of a successful reply, or the ApiError of a failed one (a network failure is an ApiError too). */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (failure) {
    throw new ApiError(0, 'NETWORK_ERROR', 'The service cannot be reached. Check your connection and try again.', { reason: (failure as Error).message });
  }
  const { data, error, response } = result;
  if (!response.ok) throw apiErrorFrom(response, error);
  return data as T;
}
