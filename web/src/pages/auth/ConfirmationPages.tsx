/**
 * E-mail confirmation (EMAIL_CONFIRMATION=required): after sign-up, "check your inbox" naming the
 * address, with a way to have the link sent again; and where the link lands, saying what it did
 * (the service redirects to /auth/confirmed?status=…, one of a fixed set).
 */
import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { describeError } from '../../api/errors';
import { safeNext, useSession } from '../../lib/session';
import { Page } from '../../components/Page';
import { LoadingState } from '../../components/States';

function ResendConfirmation() {
  const resend = useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/resend-confirmation')),
  });
  return (
    <div className="stack">
      <button
        type="button"
        className="button"
        disabled={resend.isPending}
        onClick={() => resend.mutate()}
      >
        {resend.isPending ? 'Sending…' : 'Send the link again'}
      </button>
      <p role="status" className={resend.isError ? 'field-error' : 'muted'}>
        {resend.isSuccess ? resend.data.message : resend.isError ? describeError(resend.error) : ''}
      </p>
    </div>
  );
}

export function CheckInboxPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  if (session.isPending) return <LoadingState label="Checking your session…" />;
  const email = session.data?.email;
  return (
    <Page title="Check your inbox" narrow>
      {email ? (
        <>
          <p className="form-notice" role="status">
            We sent a confirmation link to <strong className="break-anywhere">{email}</strong>. Open
            it to confirm your address; the link works for 24 hours.
          </p>
          <p>
            You can use Research Workspace meanwhile. No mail? Look in your spam folder, or have it
            sent again.
          </p>
          <ResendConfirmation />
          <p className="form-links">
            <Link to={next}>Continue to Research Workspace</Link>
          </p>
        </>
      ) : (
        <p>
          <Link to="/auth/signin">Sign in</Link> to have the confirmation link sent again.
        </p>
      )}
    </Page>
  );
}

const OUTCOMES = {
  confirmed: {
    title: 'Your e-mail address is confirmed',
    text: 'Thank you: your address is confirmed.',
  },
  already_confirmed: {
    title: 'Your address was already confirmed',
    text: 'This link was used before, or your address was confirmed another way. Nothing else to do.',
  },
  expired: {
    title: 'This confirmation link has expired',
    text: 'Links work for 24 hours. Have a new one sent, and open the newest.',
  },
  invalid: {
    title: 'This confirmation link is not valid',
    text: 'It may be incomplete: open the link from the mail again, or have a new one sent.',
  },
} as const;

function outcomeOf(status: string | null): keyof typeof OUTCOMES {
  return status === 'confirmed' || status === 'already_confirmed' || status === 'expired'
    ? status
    : 'invalid';
}

export function ConfirmedPage() {
  const [params] = useSearchParams();
  const session = useSession();
  const outcome = outcomeOf(params.get('status'));
  const { title, text } = OUTCOMES[outcome];
  const signedIn = Boolean(session.data);
  const done = outcome === 'confirmed' || outcome === 'already_confirmed';
  return (
    <Page title={title} narrow>
      <p className={done ? 'form-notice' : undefined} role="status">
        {text}
      </p>
      {!done && signedIn && <ResendConfirmation />}
      <p className="form-links">
        {signedIn ? (
          <Link to="/dashboard">Go to search</Link>
        ) : (
          <Link to="/auth/signin">Sign in</Link>
        )}
      </p>
    </Page>
  );
}
