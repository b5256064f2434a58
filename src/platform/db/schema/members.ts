/** Members of workspaces and invitations to join them (src/workspaces/members). */
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { shareLinks } from './share-links.js';
import { workspaces } from './workspaces.js';

/** A role a member holds in a workspace other than its owner's (the owner is `workspaces.owner_id`). */
export type MemberRole = 'editor' | 'viewer';

/**
 * The editors and viewers of a workspace. Its owner is not a row here: `workspaces.owner_id` stays the
 * one owner, so a transfer is one transaction over these two tables (src/workspaces/members).
 */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<MemberRole>().notNull(),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    /** The share link they joined through (POST /api/share/{token}/join); null when added or invited. Links are revoked, not deleted, so it stays. */
    shareLinkId: uuid('share_link_id').references(() => shareLinks.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
    check('workspace_members_role_check', sql`${t.role} in ('editor', 'viewer')`),
  ],
);

/**
 * The owner's last decision about someone in a workspace, kept after they leave or are removed, so that a
 * share link cannot undo it (src/workspaces/members; docs/api.md, Roles): `grantedRole` is the role the owner
 * last gave them (added, invited, role changed; null: never decided), which a link never exceeds;
 * `removedAt` is set when the owner removed them, and then no link admits them until they accept an
 * invitation sent after it (or the owner adds them again), which clears it.
 */
export const workspaceMemberDecisions = pgTable(
  'workspace_member_decisions',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    grantedRole: text('granted_role').$type<MemberRole>(),
    removedAt: timestamp('removed_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_member_decisions_user_idx').on(t.userId),
    check(
      'workspace_member_decisions_role_check',
      sql`${t.grantedRole} is null or ${t.grantedRole} in ('editor', 'viewer')`,
    ),
  ],
);

/** An invitation to join a workspace, sent by e-mail; its token is stored hashed, used once, and expires. */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Stored lower-cased: the address the mail went to. */
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull(),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('workspace_invitations_token_key').on(t.tokenHash),
    index('workspace_invitations_workspace_idx').on(t.workspaceId, t.createdAt),
    check('workspace_invitations_role_check', sql`${t.role} in ('editor', 'viewer')`),
  ],
);
