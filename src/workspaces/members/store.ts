/** Queries of members and invitations. Rows out; shaping is the presenters' job. */
import { and, asc, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client.js';
import {
  users,
  workspaceInvitations,
  workspaceMemberDecisions,
  workspaceMembers,
  workspaces,
  type MemberRole,
} from '../../platform/db/schema.js';
import type { Role } from '../policy.js';
import type { Page } from '../store.js';

export interface MemberRow {
  userId: string;
  name: string;
  email: string;
  role: Role;
  addedBy: string | null;
  addedAt: Date;
}
export type InvitationRow = typeof workspaceInvitations.$inferSelect;

/** The owner first, then the others in the order they joined. */
export async function listMembers(
  db: Db,
  workspaceId: string,
  page: Page,
): Promise<{ rows: MemberRow[]; total: number }> {
  const [owner] = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      addedAt: workspaces.createdAt,
    })
    .from(workspaces)
    .innerJoin(users, eq(users.id, workspaces.ownerId))
    .where(eq(workspaces.id, workspaceId));
  const others = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: workspaceMembers.role,
      addedBy: workspaceMembers.addedBy,
      addedAt: workspaceMembers.createdAt,
    })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(workspaceMembers.createdAt), asc(workspaceMembers.userId));
  const all: MemberRow[] = [
    ...(owner ? [{ ...owner, role: 'owner' as const, addedBy: null }] : []),
    ...others,
  ];
  return { rows: all.slice(page.offset, page.offset + page.limit), total: all.length };
}

export async function findMember(
  db: Db | Tx,
  workspaceId: string,
  userId: string,
): Promise<MemberRow | null> {
  const [row] = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: workspaceMembers.role,
      addedBy: workspaceMembers.addedBy,
      addedAt: workspaceMembers.createdAt,
    })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return row ?? null;
}

export async function findAccount(
  db: Db | Tx,
  userId: string,
): Promise<{ name: string; email: string } | null> {
  const [row] = await db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id ?? null;
}

/** Members other than the owner. */
export async function countMembers(db: Db | Tx, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  return row?.total ?? 0;
}

/** The workspace row locked for the rest of the transaction: member changes of one workspace happen one at a time. */
export async function lockWorkspace(
  tx: Tx,
  workspaceId: string,
): Promise<{ ownerId: string } | null> {
  const [row] = await tx
    .select({ ownerId: workspaces.ownerId })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .for('update');
  return row ?? null;
}

/** Adds a member (`shareLinkId`: the link they joined through); false when they already were one. */
export async function insertMember(
  tx: Tx,
  values: {
    workspaceId: string;
    userId: string;
    role: MemberRole;
    addedBy: string | null;
    shareLinkId?: string;
  },
): Promise<boolean> {
  const inserted = await tx
    .insert(workspaceMembers)
    .values(values)
    .onConflictDoNothing()
    .returning({ userId: workspaceMembers.userId });
  return inserted.length > 0;
}

export async function setMemberRole(
  tx: Tx,
  workspaceId: string,
  userId: string,
  role: MemberRole,
): Promise<boolean> {
  const updated = await tx
    .update(workspaceMembers)
    .set({ role })
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    .returning({ userId: workspaceMembers.userId });
  return updated.length > 0;
}

export async function deleteMember(
  db: Db | Tx,
  workspaceId: string,
  userId: string,
): Promise<boolean> {
  const deleted = await db
    .delete(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    .returning({ userId: workspaceMembers.userId });
  return deleted.length > 0;
}

export async function setOwner(tx: Tx, workspaceId: string, ownerId: string): Promise<void> {
  await tx
    .update(workspaces)
    .set({ ownerId, version: sql`${workspaces.version} + 1`, updatedAt: new Date() })
    .where(eq(workspaces.id, workspaceId));
}

// ---- invitations ----

const pending = (now: Date) =>
  and(
    isNull(workspaceInvitations.acceptedAt),
    isNull(workspaceInvitations.revokedAt),
    gt(workspaceInvitations.expiresAt, now),
  );

export async function insertInvitation(
  db: Db,
  values: typeof workspaceInvitations.$inferInsert,
): Promise<InvitationRow> {
  const [row] = await db.insert(workspaceInvitations).values(values).returning();
  if (!row) throw new Error('Invitation insert returned no row');
  return row;
}

export async function countPendingInvitations(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(workspaceInvitations)
    .where(and(eq(workspaceInvitations.workspaceId, workspaceId), pending(new Date())));
  return row?.total ?? 0;
}

export async function listInvitations(
  db: Db,
  workspaceId: string,
  page: Page,
): Promise<{ rows: InvitationRow[]; total: number }> {
  const where = eq(workspaceInvitations.workspaceId, workspaceId);
  const rows = await db
    .select()
    .from(workspaceInvitations)
    .where(where)
    .orderBy(desc(workspaceInvitations.createdAt), desc(workspaceInvitations.id))
    .limit(page.limit)
    .offset(page.offset);
  const [counted] = await db.select({ total: count() }).from(workspaceInvitations).where(where);
  return { rows, total: counted?.total ?? 0 };
}

/** Revokes an invitation of the workspace that is still pending; false when there is none such. */
export async function revokeInvitationRow(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<InvitationRow | null> {
  const [row] = await db
    .update(workspaceInvitations)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(workspaceInvitations.id, id),
        eq(workspaceInvitations.workspaceId, workspaceId),
        pending(new Date()),
      ),
    )
    .returning();
  return row ?? null;
}

export async function findInvitationInWorkspace(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<InvitationRow | null> {
  const [row] = await db
    .select()
    .from(workspaceInvitations)
    .where(and(eq(workspaceInvitations.id, id), eq(workspaceInvitations.workspaceId, workspaceId)));
  return row ?? null;
}

/** What the invitation page shows: a pending invitation's workspace, inviter and role. */
export async function previewInvitation(
  db: Db,
  tokenHash: string,
): Promise<{ workspaceName: string; inviterName: string; role: MemberRole } | null> {
  const [row] = await db
    .select({
      workspaceName: workspaces.name,
      inviterName: users.name,
      role: workspaceInvitations.role,
    })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .innerJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(and(eq(workspaceInvitations.tokenHash, tokenHash), pending(new Date())));
  return row ?? null;
}

/**
 * Marks a pending invitation accepted by `userId`, atomically: of two accepts at once one updates the
 * row and the other finds it no longer pending. Null when it is unknown, used, revoked or expired.
 */
export async function claimInvitation(
  tx: Tx,
  tokenHash: string,
  userId: string,
): Promise<InvitationRow | null> {
  const [row] = await tx
    .update(workspaceInvitations)
    .set({ acceptedAt: sql`now()`, acceptedBy: userId })
    .where(and(eq(workspaceInvitations.tokenHash, tokenHash), pending(new Date())))
    .returning();
  return row ?? null;
}

// ---- the owner's decisions (a link never undoes them) ----

export interface MemberDecision {
  grantedRole: MemberRole | null;
  removedAt: Date | null;
}

export async function findDecision(
  db: Db | Tx,
  workspaceId: string,
  userId: string,
): Promise<MemberDecision | null> {
  const [row] = await db
    .select({
      grantedRole: workspaceMemberDecisions.grantedRole,
      removedAt: workspaceMemberDecisions.removedAt,
    })
    .from(workspaceMemberDecisions)
    .where(
      and(
        eq(workspaceMemberDecisions.workspaceId, workspaceId),
        eq(workspaceMemberDecisions.userId, userId),
      ),
    );
  return row ?? null;
}

/** Records that the owner gave `userId` this role (added, invited, role changed): it clears a removal. */
export async function recordGrantedRole(
  tx: Tx,
  workspaceId: string,
  userId: string,
  role: MemberRole,
): Promise<void> {
  const now = new Date();
  await tx
    .insert(workspaceMemberDecisions)
    .values({ workspaceId, userId, grantedRole: role, removedAt: null, updatedAt: now })
    .onConflictDoUpdate({
      target: [workspaceMemberDecisions.workspaceId, workspaceMemberDecisions.userId],
      set: { grantedRole: role, removedAt: null, updatedAt: now },
    });
}

/** Records that the owner removed `userId` (not their leaving): no share link admits them again. */
export async function recordRemoval(tx: Tx, workspaceId: string, userId: string): Promise<void> {
  const now = new Date();
  await tx
    .insert(workspaceMemberDecisions)
    .values({ workspaceId, userId, removedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [workspaceMemberDecisions.workspaceId, workspaceMemberDecisions.userId],
      set: { removedAt: now, updatedAt: now },
    });
}
