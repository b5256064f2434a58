/** What the pages that join a workspace through a link (an invitation's, a share link's) say alike. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { FormAlert } from './Field';

/**
 * Signed in (`email`): who, and the button that joins (`label`, "Joining…" while `pending`), with why
 * it failed under it; signed out: sign in or create an account first, coming back to `returnTo`.
 */
export function JoinOrSignIn({
  email,
  returnTo,
  label,
  pending,
  onJoin,
  error,
}: {
  email: string | undefined;
  returnTo: string;
  label: string;
  pending: boolean;
  onJoin: () => void;
  error: ReactNode;
}) {
  if (email === undefined) return <SignInToJoin returnTo={returnTo} />;
  return (
    <>
      <p>You are signed in as {email}.</p>
      <button type="button" className="button button-primary" disabled={pending} onClick={onJoin}>
        {pending ? 'Joining…' : label}
      </button>
      {error != null && <FormAlert>{error}</FormAlert>}
    </>
  );
}

/** Signed out: sign in or create an account, each coming back to `returnTo` (`next=`). */
function SignInToJoin({ returnTo }: { returnTo: string }) {
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
