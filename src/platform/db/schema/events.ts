/** The change log of workspaces (src/workspaces/events). */
import { bigint, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';

/**
 * The change log of workspaces (src/workspaces/events): one row per change, written in the change's
 * own transaction; its id orders a workspace's changes and is the event id of the event stream. No
 * foreign key to the workspace or its resources: a deletion's row outlives what it names (the stream
 * still reads it), and the log is pruned by age and by a cap per workspace instead.
 */
export const workspaceEvents = pgTable(
  'workspace_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: uuid('workspace_id').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    type: text('type').notNull(),
    resourceId: uuid('resource_id'),
    annotationId: uuid('annotation_id'),
    /** The member a member change is about. */
    userId: uuid('user_id'),
    /** A few words of what changed, as it was then (a resource's title, a role). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('workspace_events_workspace_idx').on(t.workspaceId, t.id),
    index('workspace_events_created_idx').on(t.createdAt),
  ],
);
