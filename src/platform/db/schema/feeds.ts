/** Bibliography feeds of workspaces (src/workspaces/feeds): a secret URL answering the export. */
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';
import { workspaces } from './workspaces.js';

export const workspaceFeeds = pgTable(
  'workspace_feeds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Who made it: it answers only while they are a member, and goes when they leave or are removed. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** An export format (src/workspaces/export.ts). */
    format: text('format').notNull(),
    /** SHA-256 of the secret in its URL: the only form kept (the secret is shown once, at creation). */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('workspace_feeds_token_key').on(t.tokenHash),
    index('workspace_feeds_workspace_user_idx').on(t.workspaceId, t.userId),
  ],
);
