/**
 * Who is signed in: GET /api/auth/session through TanStack Query (null when signed out; not asked at
 * all without the service's `signed_in` hint cookie), and the guard of protected pages: a visitor
 * without a session goes to /auth/signin?next=<where they were>, and comes back there after signing
 * in; when the session ended under an open page, with `&ended=<why>` for the sign-in page to say
 * (the guard itself is the app's: app/require-auth.tsx).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, mayHaveSession, onSessionEnded, unwrap, type SessionEndCode } from '../api/client';
import { ApiError } from '../api/errors';
import type { paths } from '../api/schema';

export type SessionUser =
  paths['/api/auth/session']['get']['responses'][200]['content']['application/json']['user'];
export const SESSION_KEY = ['session'] as const;

export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<SessionUser | null> => {
      if (!mayHaveSession()) return null;
      try {
        return (await unwrap(api.GET('/api/auth/session'))).user;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/** Why the session of this tab last ended under an open page (said on the sign-in page it goes to). */
let endedBecause: SessionEndCode | null = null;
export const sessionEndedBecause = (): SessionEndCode | null => endedBecause;

/**
 * Forgets the session, and every cached reply, when a request finds it ended: whoever signs in next on
 * this tab (perhaps someone else at a shared computer) starts from their own data, not the cached
 * profile or workspaces of the previous user.
 */
export function useSessionEndedReset(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSessionEnded((reason) => {
        endedBecause = reason;
        queryClient.setQueryData(SESSION_KEY, null);
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
      }),
    [queryClient],
  );
}

/**
 * Where to go after signing in: a same-site path from `next`, else the dashboard. The server's rule
 * for OAuth (src/auth/oauth/return-path.ts): one leading `/`, and no backslash, whitespace or control
 * character (a browser drops tabs and newlines and reads a backslash as `/`, so `/\t/host` would be `//host`).
 */
export function safeNext(next: string | null): string {
  if (
    !next ||
    next.length > 2000 ||
    !next.startsWith('/') ||
    next.startsWith('//') ||
    /[\s\\\p{Cc}]/u.test(next)
  )
    return '/dashboard';
  return next;
}
