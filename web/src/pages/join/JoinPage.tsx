/**
 * Joining a workspace through its share link (`/join/:token`, public; the share page links here for a
 * signed-in visitor who is not a member yet). Signed in: Join (POST /api/share/{token}/join) opens the
 * workspace, as editor through an editable link, as viewer through a read-only one; someone already a
 * member keeps their role. Signed out: sign in or create an account, each coming back here (`next=`).
 * A revoked, paused or expired link says so; so does the service's refusal (403), by its reason: a
 * read-only link its owner did not open to joining (its public page still reads), or someone the owner
 * removed (only a new invitation lets them back).
 */
import { useNavigate, useParams } from 'react-router';
import { ApiError, describeError, isNotFound } from '../../api/errors';
import { useSession } from '../../lib/session';
import { JoinOrSignIn, UnusableLink } from '../../components/JoinParts';
import { Page } from '../../components/Page';
import { LoadingState } from '../../components/States';
import { useToast } from '../../components/Toasts';
import { useJoinShareLink } from '../../features/members/hooks/use-members';
import { ROLE_LABELS } from '../../lib/workspace-role';
import '../../features/features.css';

/** A token the service makes (43 characters of base64url); anything else is not sent. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function Join({ token }: { token: string }) {
  const session = useSession();
  const join = useJoinShareLink(token);
  const navigate = useNavigate();
  const toast = useToast();
  const here = `/join/${token}`;

  if (session.isPending) return <LoadingState label="Checking who you are…" />;
  if (join.error != null && isNotFound(join.error)) return <Unusable />;
  const refusal = refusalOf(join.error);
  if (refusal === 'join_not_allowed') return <NotJoinable token={token} />;
  if (refusal === 'removed')
    return (
      <UnusableLink
        title="You cannot join this workspace through a link"
        reason="Its owner removed you from it. You can join it again only through a new invitation from them."
      />
    );
  return (
    <div className="card">
      <p>
        Someone shared a workspace with you. Through a <strong>Can edit</strong> link you join it as
        an editor (add, change and remove its resources); through a <strong>Can view</strong> link
        its owner opened to joining, as a viewer. If you are in it already, your role stays as it
        is.
      </p>
      <JoinOrSignIn
        email={session.data?.email}
        returnTo={here}
        label="Join this workspace"
        pending={join.isPending}
        onJoin={() =>
          join.mutate(undefined, {
            onSuccess: (workspace) => {
              toast(`You are in ${workspace.name} as ${ROLE_LABELS[workspace.role].toLowerCase()}`);
              void navigate(`/workspaces/${workspace.id}`, { replace: true });
            },
          })
        }
        error={join.error == null ? null : describeError(join.error)}
      />
    </div>
  );
}

/** The reason of the service's 403 to a join, when it gave one this page explains. */
function refusalOf(error: unknown): 'join_not_allowed' | 'removed' | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  const reason = error.details.reason;
  return reason === 'join_not_allowed' || reason === 'removed' ? reason : null;
}

function NotJoinable({ token }: { token: string }) {
  return (
    <UnusableLink
      title="This link does not let you join"
      reason="It lets anyone read the workspace, but its owner has not opened it to joining. Ask the owner for an invitation if you need to be a member."
    >
      <p>
        {/* The public page is the service's (same origin: /share/* is not the app's). */}
        <a href={`/share/${token}`}>Read the shared workspace</a>
      </p>
    </UnusableLink>
  );
}

function Unusable() {
  return (
    <UnusableLink
      title="This link cannot be used to join"
      reason="It was revoked or has expired, or the address is incomplete. Ask whoever shared it for a new one."
    />
  );
}

export function JoinPage() {
  const { token = '' } = useParams();
  return (
    <Page title="Join a shared workspace">
      {TOKEN.test(token) ? <Join token={token} /> : <Unusable />}
    </Page>
  );
}
