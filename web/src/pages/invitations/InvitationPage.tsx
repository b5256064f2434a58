/**
 * An invitation's link (`/invitations/:token`, public): says who invites whom to which workspace as what
 * (GET /api/invitations/{token}); a link used, revoked, expired or unknown says so. Signed out: sign in
 * or create an account, each coming back here (`next=`); signed in: Join (POST …/accept) opens the
 * workspace.
 */
import { Link, useNavigate, useParams } from 'react-router';
import { describeError, isNotFound } from '../../api/errors';
import { useSession } from '../../app/session';
import { FormAlert } from '../../components/Field';
import { Page } from '../../components/Page';
import { ErrorState, LoadingState } from '../../components/States';
import { useToast } from '../../components/Toasts';
import { useAcceptInvitation, useInvitationPreview } from '../../features/members/use-members';
import '../../features/features.css';

/** A token the service could hold (InvitationTokenParams): anything else is not asked about. */
const TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

function Invitation({ token }: { token: string }) {
  const preview = useInvitationPreview(token);
  const session = useSession();
  const accept = useAcceptInvitation(token);
  const navigate = useNavigate();
  const toast = useToast();
  const here = encodeURIComponent(`/invitations/${token}`);

  if (preview.isPending || session.isPending) return <LoadingState label="Reading the invitation…" />;
  if (preview.isError && isNotFound(preview.error)) return <Unusable />;
  if (preview.isError) return <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />;
  const { inviterName, workspaceName, role } = preview.data;
  return (
    <div className="card">
      <p className="invitation-offer">
        {inviterName} invited you to <strong>{workspaceName}</strong> as {role === 'editor' ? 'an editor' : 'a viewer'}.
      </p>
      {session.data ? (
        <>
          <p>You are signed in as {session.data.email}.</p>
          <button
            type="button"
            className="button button-primary"
            disabled={accept.isPending}
            onClick={() =>
              accept.mutate(undefined, {
                onSuccess: (joined) => {
                  toast(`You joined ${workspaceName}`);
                  void navigate(`/workspaces/${joined.workspaceId}`, { replace: true });
                },
              })
            }
          >
            {accept.isPending ? 'Joining…' : 'Join'}
          </button>
          {accept.error != null && <FormAlert>{isNotFound(accept.error) ? 'This invitation can no longer be used: it was used, revoked or has expired.' : describeError(accept.error)}</FormAlert>}
        </>
      ) : (
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
      )}
    </div>
  );
}

function Unusable() {
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">This invitation cannot be used</p>
      <p>It has been used already, revoked or has expired, or the link is incomplete. Ask whoever invited you for a new one.</p>
      <p>
        <Link to="/">Go to the front page</Link>
      </p>
    </div>
  );
}

export function InvitationPage() {
  const { token = '' } = useParams();
  return <Page title="Invitation">{TOKEN.test(token) ? <Invitation token={token} /> : <Unusable />}</Page>;
}
