/** What the member and invitation routes do, each a named step; member changes of a workspace run one at a time (its row locked). */
import { deleteFeedsOf } from '../feeds/store.js';
import type { Db, Tx } from '../../platform/db/client.js';
import { hashToken, randomToken } from '../../platform/crypto.js';
import type { MemberRole } from '../../platform/db/schema.js';
import { ApiError, conflict, notFound } from '../../platform/errors.js';
import { composeMail, type MailMessage, type Mailer } from '../../platform/mail/index.js';
import { recordChange } from '../events/record.js';
import { isWellFormedShareToken } from '../commands.js';
import { ROLE_RANK, type Actor, type Role } from '../policy.js';
import { findWorkspaceByShareToken } from '../share-links/store.js';
import { MEMBER_LIMITS } from './schemas.js';
import {
  claimInvitation,
  countMembers,
  countPendingInvitations,
  deleteMember,
  findAccount,
  findDecision,
  findMember,
  findUserIdByEmail,
  insertInvitation,
  insertMember,
  lockWorkspace,
  recordGrantedRole,
  recordRemoval,
  setMemberRole,
  setOwner,
  type InvitationRow,
  type MemberRow,
} from './store.js';

const memberNotFound = () => notFound('Member');
const removedRefusal = (field: string) =>
  new ApiError(
    'AUTHORIZATION_ERROR',
    'The owner removed you from this workspace: you can join it again only through a new invitation from them',
    { field, reason: 'removed' },
  );
const tooMany = (field = 'email') =>
  conflict(`A workspace has at most ${MEMBER_LIMITS.members} members, its owner included`, {
    field,
    reason: 'too_many_members',
  });

/** Adds the account with this e-mail address as editor or viewer. */
export async function addMember(
  db: Db,
  workspaceId: string,
  actor: Actor,
  email: string,
  role: MemberRole,
): Promise<MemberRow> {
  const userId = await findUserIdByEmail(db, email);
  if (!userId)
    throw new ApiError(
      'NOT_FOUND',
      'No account uses this e-mail address; send an invitation instead',
      { field: 'email', reason: 'no_account' },
    );
  return db.transaction(async (tx) => {
    const workspace = await lockWorkspace(tx, workspaceId);
    if (!workspace) throw notFound('Workspace');
    if (workspace.ownerId === userId)
      throw conflict('This person owns the workspace', {
        field: 'email',
        reason: 'already_member',
      });
    if ((await countMembers(tx, workspaceId)) + 1 >= MEMBER_LIMITS.members) throw tooMany();
    if (!(await insertMember(tx, { workspaceId, userId, role, addedBy: actor.id })))
      throw conflict('This person is already a member', {
        field: 'email',
        reason: 'already_member',
      });
    await recordGrantedRole(tx, workspaceId, userId, role);
    const member = await findMember(tx, workspaceId, userId);
    if (!member) throw memberNotFound();
    await recordChange(tx, {
      type: 'member.added',
      workspaceId,
      actorId: actor.id,
      userId,
      details: { name: member.name, role },
    });
    return member;
  });
}

/**
 * Gives a member another role. `owner` transfers ownership, in one transaction: the member becomes the
 * owner (`workspaces.owner_id`) and the previous owner an editor.
 */
export async function changeMemberRole(
  db: Db,
  workspaceId: string,
  actor: Actor,
  userId: string,
  role: Role,
): Promise<MemberRow> {
  return db.transaction(async (tx) => {
    const workspace = await lockWorkspace(tx, workspaceId);
    if (!workspace) throw notFound('Workspace');
    if (workspace.ownerId === userId)
      throw conflict('The owner stays owner until they transfer ownership to another member', {
        field: 'role',
        reason: 'owner',
      });
    if (!(await findMember(tx, workspaceId, userId))) throw memberNotFound();
    if (role === 'owner') {
      // Checked again under the lock: a transfer that raced this one has already moved the ownership.
      if (workspace.ownerId !== actor.id)
        throw new ApiError('AUTHORIZATION_ERROR', 'Only the owner may transfer ownership');
      await deleteMember(tx, workspaceId, userId);
      await setOwner(tx, workspaceId, userId);
      await insertMember(tx, {
        workspaceId,
        userId: workspace.ownerId,
        role: 'editor',
        addedBy: userId,
      });
      await recordGrantedRole(tx, workspaceId, workspace.ownerId, 'editor');
      const owner = await findAccount(tx, userId);
      if (!owner) throw memberNotFound();
      await recordChange(tx, {
        type: 'member.updated',
        workspaceId,
        actorId: actor.id,
        userId,
        details: { name: owner.name, role: 'owner', previousOwnerId: workspace.ownerId },
      });
      return { userId, ...owner, role: 'owner', addedBy: null, addedAt: new Date() };
    }
    await setMemberRole(tx, workspaceId, userId, role);
    await recordGrantedRole(tx, workspaceId, userId, role);
    const member = await findMember(tx, workspaceId, userId);
    if (!member) throw memberNotFound();
    await recordChange(tx, {
      type: 'member.updated',
      workspaceId,
      actorId: actor.id,
      userId,
      details: { name: member.name, role },
    });
    return member;
  });
}

/** Removes a member, or lets one leave (`userId` is the actor's own); the owner cannot leave. */
export async function removeMember(
  db: Db,
  workspaceId: string,
  ownerId: string,
  userId: string,
  actor: Actor,
): Promise<void> {
  if (userId === ownerId)
    throw conflict(
      'The owner cannot leave the workspace; transfer ownership to another member first',
      { field: 'userId', reason: 'owner' },
    );
  await db.transaction(async (tx) => {
    if (!(await deleteMember(tx, workspaceId, userId))) throw memberNotFound();
    // Their bibliography feeds stop with their membership (and do not come back if they rejoin).
    await deleteFeedsOf(tx, workspaceId, userId);
    // The owner's removal is remembered, so that no share link re-admits them (leaving is not).
    if (userId !== actor.id) await recordRemoval(tx, workspaceId, userId);
    // Named as member.added and member.updated are: the log says who, even once the account is gone.
    const removed = await findAccount(tx, userId);
    await recordChange(tx, {
      type: 'member.removed',
      workspaceId,
      actorId: actor.id,
      userId,
      details: { left: userId === actor.id, name: removed?.name ?? '' },
    });
  });
}

export interface InvitationDeps {
  db: Db;
  mailer: Mailer;
  appOrigin: string;
}

function invitationMail(
  to: string,
  inviterName: string,
  workspaceName: string,
  role: MemberRole,
  link: string,
): MailMessage {
  return composeMail({
    purpose: 'invitation',
    to,
    subject: `Invitation to "${workspaceName}"`,
    blocks: [
      `${inviterName} invites you to the workspace "${workspaceName}" ` +
        `as ${role === 'editor' ? 'an editor' : 'a viewer'}. The link works once ` +
        `and for ${MEMBER_LIMITS.invitationDays} days.`,
      [{ text: 'Open the invitation', href: link }],
      `If you do not know ${inviterName}, you can ignore this message.`,
    ],
  });
}

/** Records an invitation (its token hashed) and mails its single-use link to the app's `/invitations/{token}` page. */
export async function inviteMember(
  deps: InvitationDeps,
  workspace: { id: string; name: string },
  inviter: Actor & { name: string },
  email: string,
  role: MemberRole,
): Promise<InvitationRow> {
  const existing = await findUserIdByEmail(deps.db, email);
  if (
    existing &&
    (existing === inviter.id || (await findMember(deps.db, workspace.id, existing)))
  ) {
    throw conflict('This person is already a member', { field: 'email', reason: 'already_member' });
  }
  if ((await countPendingInvitations(deps.db, workspace.id)) >= MEMBER_LIMITS.pendingInvitations) {
    throw conflict(
      `A workspace has at most ${MEMBER_LIMITS.pendingInvitations} invitations waiting for an answer; revoke one first`,
      { field: 'email', reason: 'too_many_invitations' },
    );
  }
  const token = randomToken(32);
  const invitation = await insertInvitation(deps.db, {
    workspaceId: workspace.id,
    email,
    role,
    invitedBy: inviter.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + MEMBER_LIMITS.invitationDays * 86_400_000),
  });
  const link = new URL(`/invitations/${token}`, deps.appOrigin).toString();
  await deps.mailer.send(invitationMail(email, inviter.name, workspace.name, role, link));
  return invitation;
}

/**
 * Joins the invitation's workspace. The token is the credential (it was mailed to the address
 * invited); the accepting account's own address need not match. Single use, race-safe: the claim is
 * one conditional update, so of two accepts at once one joins and the other is a 404. Someone
 * already a member keeps the role they have.
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  actor: Actor,
): Promise<{ workspaceId: string; role: Role }> {
  return db.transaction(async (tx) => {
    const invitation = await claimInvitation(tx, hashToken(token), actor.id);
    if (!invitation) throw notFound('Invitation');
    const { workspaceId } = invitation;
    const kept = await roleKept(tx, workspaceId, actor, () => notFound('Invitation'));
    if (kept) return { workspaceId, role: kept };
    // An invitation sent before the owner removed this person does not undo the removal (the claim rolls back).
    const decision = await findDecision(tx, workspaceId, actor.id);
    if (decision?.removedAt && invitation.createdAt <= decision.removedAt)
      throw removedRefusal('token');
    await addJoiner(tx, actor, {
      workspaceId,
      role: invitation.role,
      addedBy: invitation.invitedBy,
      details: { invitedBy: invitation.invitedBy },
      full: () => tooMany(),
    });
    // The owner's invitation is a decision of theirs: the role it gives is the one they last gave.
    await recordGrantedRole(tx, workspaceId, actor.id, invitation.role);
    return { workspaceId, role: invitation.role };
  });
}

/**
 * Joins the workspace of a live share link that allows joining: editor through an editable link,
 * viewer through a read-only one the owner opened to joining (docs/api.md, Roles). Someone already in it,
 * the owner too, keeps the role they have: a link never raises nor lowers one. The owner's decisions
 * hold: someone the owner removed is refused (403 `removed`) until they accept a new invitation, and
 * nobody joins with more than the role the owner last gave them (a demoted editor who leaves comes back
 * through an editable link as viewer). A read-only link that does not allow joining is a 403
 * `join_not_allowed`; a revoked, paused, expired or unknown link is a 404, as its page is. Revoking a
 * link stops new joins only; who joined through it stays.
 */
export async function joinByShareLink(
  db: Db,
  token: string,
  actor: Actor,
): Promise<{ workspaceId: string; role: Role }> {
  if (!isWellFormedShareToken(token)) throw notFound('Share link');
  const tokenHash = hashToken(token);
  return db.transaction(async (tx) => {
    const shared = await findWorkspaceByShareToken(tx, tokenHash, new Date());
    if (!shared) throw notFound('Share link');
    const { link } = shared;
    const { workspaceId } = link;
    const kept = await roleKept(tx, workspaceId, actor, () => notFound('Share link'));
    if (kept) return { workspaceId, role: kept };
    if (!link.allowJoin)
      throw new ApiError(
        'AUTHORIZATION_ERROR',
        'This link lets people read the workspace, not join it; ask its owner for an invitation',
        { field: 'token', reason: 'join_not_allowed' },
      );
    const decision = await findDecision(tx, workspaceId, actor.id);
    if (decision?.removedAt) throw removedRefusal('token');
    const linkRole: MemberRole = link.readOnly ? 'viewer' : 'editor';
    const granted = decision?.grantedRole;
    const role: MemberRole =
      granted && ROLE_RANK[granted] < ROLE_RANK[linkRole] ? granted : linkRole;
    await addJoiner(tx, actor, {
      workspaceId,
      role,
      // Added by whoever made the link (null for links older than that record, or its maker's account deleted).
      addedBy: link.createdBy,
      shareLinkId: link.id,
      details: { shareId: link.id },
      full: () => tooMany('token'),
    });
    return { workspaceId, role };
  });
}

/*
 * The two steps both ways of joining (an invitation, a share link) share, each in the transaction that
 * checked the credential; between them, each way applies its own rules.
 */

/**
 * Locks the workspace (member changes one at a time) and says the role its owner or a member already
 * has, which joining keeps (it never raises nor lowers one); null for anyone else. `gone`: the error
 * when the workspace was deleted meanwhile.
 */
async function roleKept(
  tx: Tx,
  workspaceId: string,
  actor: Actor,
  gone: () => ApiError,
): Promise<Role | null> {
  const workspace = await lockWorkspace(tx, workspaceId);
  if (!workspace) throw gone();
  if (workspace.ownerId === actor.id) return 'owner';
  return (await findMember(tx, workspaceId, actor.id))?.role ?? null;
}

/** Adds the joiner as a member within the member limit (`full`: the error past it), and logs it. */
async function addJoiner(
  tx: Tx,
  actor: Actor,
  joining: {
    workspaceId: string;
    role: MemberRole;
    addedBy: string | null;
    /** The link joined through, kept on the member's row. */
    shareLinkId?: string;
    /** What the change log says of the credential, beside the role. */
    details: Record<string, unknown>;
    full: () => ApiError;
  },
): Promise<void> {
  const { workspaceId, role } = joining;
  if ((await countMembers(tx, workspaceId)) + 1 >= MEMBER_LIMITS.members) throw joining.full();
  await insertMember(tx, {
    workspaceId,
    userId: actor.id,
    role,
    addedBy: joining.addedBy,
    ...(joining.shareLinkId ? { shareLinkId: joining.shareLinkId } : {}),
  });
  await recordChange(tx, {
    type: 'member.added',
    workspaceId,
    actorId: actor.id,
    userId: actor.id,
    details: { role, ...joining.details },
  });
}
