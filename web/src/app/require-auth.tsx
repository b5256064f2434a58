/** The guard of protected pages: a visitor without a session goes to sign in, and comes back after. */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { SessionEndCode } from '../api/client';
import { ErrorState, LoadingState } from '../components/States';
import { sessionEndedBecause, useSession } from '../lib/session';

function signInPathFor(
  location: { pathname: string; search: string; hash: string },
  ended: SessionEndCode | null,
): string {
  const next = `next=${encodeURIComponent(location.pathname + location.search + location.hash)}`;
  return `/auth/signin?${next}${ended ? `&ended=${ended}` : ''}`;
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <LoadingState label="Checking your session…" />;
  if (session.isError)
    return <ErrorState error={session.error} onRetry={() => void session.refetch()} />;
  if (!session.data)
    return <Navigate to={signInPathFor(location, sessionEndedBecause())} replace />;
  return <>{children}</>;
}
