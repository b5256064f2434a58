/** Share links of workspaces (src/workspaces/share-links). */
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { workspaces } from './workspaces.js';

export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token: the public page looks links up by it. */
    tokenHash: text('token_hash').notNull(),
    /** The token encrypted (AES-256-GCM) so that its owner can list it again; never stored in clear. */
    tokenSealed: text('token_sealed').notNull(),
    readOnly: boolean('read_only').notNull().default(true),
    /**
     * Whether a signed-in visitor may join through it (POST /api/share/{token}/join). Always true for an
     * editable link (joining is what it is for); for a read-only one the owner's choice, off by default:
     * otherwise whoever holds the public page's address could become a viewer.
     */
    allowJoin: boolean('allow_join').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /**
     * Paused when the account was claimed by its mailbox's owner (auth/mailbox-claims.ts): the link
     * may have been made by someone else before; it opens nothing until the owner resumes it.
     */
    pausedAt: timestamp('paused_at', { withTimezone: true, mode: 'date' }),
    /** Who made it (null for links made before this was kept, or once that account is deleted): a member who joins through it was added by them. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('share_links_token_key').on(t.tokenHash),
    index('share_links_workspace_idx').on(t.workspaceId),
  ],
);
