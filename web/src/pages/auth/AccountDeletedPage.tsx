/** Where a deleted account's visitor lands, signed out: what happened, and where to go from here. */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { SESSION_KEY } from '../../lib/session';
import { Page } from '../../components/Page';

export function AccountDeletedPage() {
  const queryClient = useQueryClient();
  const justDeleted = (useLocation().state as { deleted?: boolean } | null)?.deleted === true;
  useEffect(() => {
    if (!justDeleted) return;
    // The service cleared the cookies: nothing cached of the account may show again.
    queryClient.setQueryData(SESSION_KEY, null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
  }, [justDeleted, queryClient]);
  return (
    <Page title="Your account was deleted" narrow>
      <p className="form-notice" role="status">
        Your account and everything in it were deleted, and you are signed out. Its share links no
        longer open anything. We sent a last e-mail to confirm it.
      </p>
      <p>
        You can sign up again with the same address at any time; it starts a new, empty account.
      </p>
      <p className="form-links">
        <Link to="/auth/signup">Create a new account</Link> <Link to="/auth/signin">Sign in</Link>
      </p>
    </Page>
  );
}
