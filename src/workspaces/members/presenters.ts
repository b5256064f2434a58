/** The shapes of member and invitation replies. */
import type { InvitationRow, MemberRow } from './store.js';

/** A member; their e-mail address only when the reader may see it (the owner: POLICY workspace.readMemberEmails). */
export function presentMember(row: MemberRow, withEmail: boolean) {
  return {
    userId: row.userId,
    name: row.name,
    ...(withEmail ? { email: row.email } : {}),
    role: row.role,
    addedBy: row.addedBy,
    addedAt: row.addedAt.toISOString(),
  };
}

function invitationStatus(row: InvitationRow, now: Date) {
  if (row.acceptedAt) return 'accepted' as const;
  if (row.revokedAt) return 'revoked' as const;
  return row.expiresAt > now ? ('pending' as const) : ('expired' as const);
}

export function presentInvitation(row: InvitationRow, now = new Date()) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy,
    status: invitationStatus(row, now),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}
