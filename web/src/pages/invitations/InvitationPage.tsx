/**
 * An invitation's link (`/invitations/:token`, public): says who invites whom to which workspace as what
 * (GET /api/invitations/{token}); a link used, revoked, expired or unknown says so. Signed out: sign in
 * or create an account, each coming back here (`next=`); signed in: Join (POST …/accept) opens the
 * workspace.
 */
import { useNavigate, useParams } from 'react-router';
import { describeError, isNotFound } from '../../api/errors';
import { useSession } from '../../lib/session';
import { JoinOrSignIn, UnusableLink } from '../../components/JoinParts';
import { Page } from '../../components/Page';
import { ErrorState, LoadingState } from '../../components/States';
import { useToast } from '../../components/Toasts';
import {
  useAcceptInvitation,
  useInvitationPreview,
} from '../../features/members/hooks/use-members';
import '../../features/features.css';

/** A token the service could hold (InvitationTokenParams): anything else is not asked about. */
const TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

function Invitation({ token }: { token: string }) {
  const preview = useInvitationPreview(token);
  const session = useSession();
  const accept = useAcceptInvitation(token);
  const navigate = useNavigate();
  const toast = useToast();
  const here = `/invitations/${token}`;

  if (preview.isPending || session.isPending)
    return <LoadingState label="Reading the invitation…" />;
  if (preview.isError && isNotFound(preview.error)) return <Unusable />;
  if (preview.isError)
    return <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />;
  const { inviterName, workspaceName, role } = preview.data;
  return (
    <div className="card">
      <p className="invitation-offer">
        {inviterName} invited you to <strong>{workspaceName}</strong> as{' '}
        {role === 'editor' ? 'an editor' : 'a viewer'}.
      </p>
      <JoinOrSignIn
        email={session.data?.email}
        returnTo={here}
        label="Join"
        pending={accept.isPending}
        onJoin={() =>
          accept.mutate(undefined, {
            onSuccess: (joined) => {
              toast(`You joined ${workspaceName}`);
              void navigate(`/workspaces/${joined.workspaceId}`, { replace: true });
            },
          })
        }
        error={
          accept.error == null
            ? null
            : isNotFound(accept.error)
              ? 'This invitation can no longer be used: it was used, revoked or has expired.'
              : describeError(accept.error)
        }
      />
    </div>
  );
}

function Unusable() {
  return (
    <UnusableLink
      title="This invitation cannot be used"
      reason="It has been used already, revoked or has expired, or the link is incomplete. Ask whoever invited you for a new one."
    />
  );
}

export function InvitationPage() {
  const { token = '' } = useParams();
  return (
    <Page title="Invitation">
      {TOKEN.test(token) ? <Invitation token={token} /> : <Unusable />}
    </Page>
  );
}
