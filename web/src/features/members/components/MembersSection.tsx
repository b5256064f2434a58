/**
 * A workspace's members (GET …/members): each with name, e-mail and role. The owner invites by e-mail
 * with a role, sees the invitations still waiting (and revokes them), changes a member's role, hands
 * ownership over (after a confirmation: the owner becomes an editor) and removes a member (after a
 * confirmation). Any other member may leave (after a confirmation), and lands on the workspace list.
 * Every refusal of the service (403, 409, 429) is shown as its sentence.
 */
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { describeError } from '../../../api/errors';
import { useSession } from '../../../lib/session';
import { FormAlert, TextField } from '../../../components/Field';
import { ErrorState, LoadingState } from '../../../components/States';
import { SubmitButton } from '../../../components/SubmitButton';
import { useToast } from '../../../components/Toasts';
import { formError, submitWith, useZodForm } from '../../../lib/form';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ROLE_LABELS, useAbilities } from '../../../lib/workspace-role';
import {
  useChangeRole,
  useInvitations,
  useInvite,
  useLeaveWorkspace,
  useMembers,
  useRemoveMember,
  useRevokeInvitation,
  type GrantedRole,
  type Member,
} from '../hooks/use-members';
import '../members.css';

const InviteForm = z.object({
  email: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter an e-mail address'),
      z.maxLength(254, 'An e-mail address has at most 254 characters'),
      z.email('Enter a valid e-mail address'),
    ),
  role: z.enum(['editor', 'viewer']),
});

function RoleSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: GrantedRole;
  onChange: (role: GrantedRole) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value === 'viewer' ? 'viewer' : 'editor')}
      >
        <option value="editor">Editor: adds and changes resources</option>
        <option value="viewer">Viewer: reads, exports and annotates</option>
      </select>
    </div>
  );
}

function InviteMemberForm({ workspaceId }: { workspaceId: string }) {
  const form = useZodForm(InviteForm, { defaultValues: { email: '', role: 'editor' } });
  const invite = useInvite(workspaceId);
  const toast = useToast();
  const { errors, isSubmitting } = form.formState;
  const role = form.watch('role');
  const submit = submitWith(form, ['email'], async (values) => {
    await invite.mutateAsync(values);
    toast(`Invitation sent to ${values.email}`);
    form.reset({ email: '', role: values.role });
  });
  return (
    <form
      className="inline-form members-invite"
      aria-label="Invite someone"
      onSubmit={(event) => void submit(event)}
    >
      <TextField
        label="E-mail address to invite"
        type="email"
        autoComplete="off"
        maxLength={254}
        {...form.register('email')}
        error={errors.email?.message}
      />
      <RoleSelect
        label="Role"
        value={role === 'viewer' ? 'viewer' : 'editor'}
        onChange={(next) => form.setValue('role', next)}
      />
      <SubmitButton pending={isSubmitting} pendingLabel="Inviting…">
        Invite
      </SubmitButton>
      {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
    </form>
  );
}

function PendingInvitations({ workspaceId }: { workspaceId: string }) {
  const invitations = useInvitations(workspaceId);
  const revoke = useRevokeInvitation(workspaceId);
  const toast = useToast();
  if (invitations.isPending) return <LoadingState label="Loading the invitations…" />;
  if (invitations.isError)
    return <ErrorState error={invitations.error} onRetry={() => void invitations.refetch()} />;
  const pending = invitations.data.invitations.filter(
    (invitation) => invitation.status === 'pending',
  );
  return (
    <>
      <h3>Invitations waiting for an answer</h3>
      {pending.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="members-list">
          {pending.map((invitation) => (
            <li key={invitation.id} className="member">
              <div className="member-who">
                <span className="member-email">{invitation.email}</span>
                <span className="muted">
                  invited as {ROLE_LABELS[invitation.role].toLowerCase()}
                </span>
              </div>
              <button
                type="button"
                className="button button-small button-danger"
                aria-label={`Revoke the invitation to ${invitation.email}`}
                disabled={revoke.isPending}
                onClick={() =>
                  revoke.mutate(invitation.id, {
                    onSuccess: () => toast(`Invitation to ${invitation.email} revoked`),
                  })
                }
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {revoke.error != null && <FormAlert>{describeError(revoke.error)}</FormAlert>}
    </>
  );
}

/**
 * A member's role: choosing in the list changes nothing until `Change role` (arrow keys on a closed
 * select change its value at each press; a request for each would be a surprise).
 */
function MemberRoleForm({
  member,
  role,
  pending,
  onChange,
}: {
  member: Member;
  role: GrantedRole;
  pending: boolean;
  onChange: (role: GrantedRole) => void;
}) {
  const [chosen, setChosen] = useState<GrantedRole>(role);
  return (
    <form
      className="member-role"
      onSubmit={(event) => {
        event.preventDefault();
        onChange(chosen);
      }}
    >
      <RoleSelect label={`Role of ${member.name}`} value={chosen} onChange={setChosen} />
      {chosen !== role && (
        <button type="submit" className="button button-small button-primary" disabled={pending}>
          {pending ? 'Changing…' : 'Change role'}
        </button>
      )}
    </form>
  );
}

type Pending = { kind: 'remove' | 'transfer'; member: Member } | { kind: 'leave' };

export function MembersSection({
  workspaceId,
  workspaceName,
}: {
  workspaceId: string;
  workspaceName: string;
}) {
  const members = useMembers(workspaceId);
  const session = useSession();
  const can = useAbilities();
  const changeRole = useChangeRole(workspaceId);
  const remove = useRemoveMember(workspaceId);
  const leave = useLeaveWorkspace(workspaceId);
  const toast = useToast();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const me = session.data?.id;

  const close = () => {
    setConfirming(null);
    remove.reset();
    leave.reset();
    changeRole.reset();
  };
  const confirm = () => {
    if (!confirming) return;
    if (confirming.kind === 'transfer') {
      const { member } = confirming;
      changeRole.mutate(
        { userId: member.userId, role: 'owner' },
        {
          onSuccess: () => {
            toast(`${member.name} is now the owner`);
            setConfirming(null);
          },
        },
      );
    } else if (confirming.kind === 'remove') {
      const { member } = confirming;
      remove.mutate(member.userId, {
        onSuccess: () => {
          toast(`Removed ${member.name}`);
          setConfirming(null);
        },
      });
    } else if (me) {
      leave.mutate(me, {
        onSuccess: () => {
          toast(`You left ${workspaceName}`);
          void navigate('/workspaces', { replace: true });
        },
      });
    }
  };
  const dialog =
    confirming?.kind === 'transfer'
      ? {
          title: `Make ${confirming.member.name} the owner?`,
          body: `${confirming.member.name} becomes the owner of ${workspaceName}; you become an editor and can no longer manage members, links or the workspace itself.`,
          label: 'Make owner',
          pendingLabel: 'Transferring…',
          error: changeRole.error,
        }
      : confirming?.kind === 'remove'
        ? {
            title: `Remove ${confirming.member.name}?`,
            body: `${confirming.member.name} can no longer open ${workspaceName}. What they added stays.`,
            label: 'Remove',
            pendingLabel: 'Removing…',
            error: remove.error,
          }
        : {
            title: `Leave ${workspaceName}?`,
            body: 'You can no longer open it unless someone invites you again. What you added stays.',
            label: 'Leave',
            pendingLabel: 'Leaving…',
            error: leave.error,
          };

  return (
    <section aria-labelledby="members-heading" className="card members">
      <h2 id="members-heading">Members</h2>
      {members.isPending && <LoadingState label="Loading the members…" />}
      {members.isError && (
        <ErrorState error={members.error} onRetry={() => void members.refetch()} />
      )}
      {members.data && (
        <ul className="members-list">
          {members.data.members.map((member) => (
            <li key={member.userId} className="member">
              <div className="member-who">
                <span className="member-name">
                  {member.name}
                  {member.userId === me && ' (you)'}
                </span>
                {/* Addresses come to the owner only (the service leaves them out for the others). */}
                {member.email !== undefined && <span className="member-email">{member.email}</span>}
              </div>
              {can.manageMembers && member.role !== 'owner' ? (
                <div className="row-actions">
                  <MemberRoleForm
                    member={member}
                    role={member.role}
                    pending={changeRole.isPending}
                    onChange={(role) =>
                      changeRole.mutate(
                        { userId: member.userId, role },
                        {
                          onSuccess: () =>
                            toast(
                              `${member.name} is now ${role === 'editor' ? 'an editor' : 'a viewer'}`,
                            ),
                        },
                      )
                    }
                  />
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => setConfirming({ kind: 'transfer', member })}
                  >
                    Make owner…
                  </button>
                  <button
                    type="button"
                    className="button button-small button-danger"
                    aria-label={`Remove ${member.name}…`}
                    onClick={() => setConfirming({ kind: 'remove', member })}
                  >
                    Remove…
                  </button>
                </div>
              ) : (
                <span className="badge">{ROLE_LABELS[member.role]}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {changeRole.error != null && confirming === null && (
        <FormAlert>{describeError(changeRole.error)}</FormAlert>
      )}
      {can.manageMembers ? (
        <>
          <h3>Invite someone</h3>
          <InviteMemberForm workspaceId={workspaceId} />
          <PendingInvitations workspaceId={workspaceId} />
        </>
      ) : (
        <p>
          <button
            type="button"
            className="button button-danger"
            onClick={() => setConfirming({ kind: 'leave' })}
          >
            Leave workspace…
          </button>
        </p>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={dialog.title}
        pending={remove.isPending || leave.isPending || changeRole.isPending}
        error={dialog.error}
        onCancel={close}
        onConfirm={confirm}
        confirmLabel={dialog.label}
        pendingLabel={dialog.pendingLabel}
      >
        {dialog.body}
      </ConfirmDialog>
    </section>
  );
}
