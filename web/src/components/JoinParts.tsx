/** What the pages that join a workspace through a link (an invitation's, a share link's) say alike. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** Signed out: sign in or create an account, each coming back to `returnTo` (`next=`). */
export function SignInToJoin({ returnTo }: { returnTo: string }) {
  const here = encodeURIComponent(returnTo);
  return (
    <>
      <p>Sign in, or create an account, to join. You come back here afterwards.</p>
      <div className="row-actions">
        <Link className="button button-primary" to={`/auth/signin?next=${here}`}>
          Sign in
        </Link>
        <Link className="button" to={`/auth/signup?next=${here}`}>
          Create an account
        </Link>
      </div>
    </>
  );
}

/** A link that cannot be used (any more): why, in `reason`, what else it still gives (`children`), and a way out. */
export function UnusableLink({
  title,
  reason,
  children,
}: {
  title: string;
  reason: string;
  children?: ReactNode;
}) {
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{title}</p>
      <p>{reason}</p>
      {children}
      <p>
        <Link to="/">Go to the front page</Link>
      </p>
    </div>
  );
}
