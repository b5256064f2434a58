/** Annotations of resources (src/workspaces/annotations). */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, searchDocument } from './columns.js';
import { users } from './accounts.js';
import { workspaceResources } from './workspaces.js';

export const annotations = pgTable(
  'annotations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => workspaceResources.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    highlights: jsonb('highlights')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The highlight's colour, one of a fixed palette (ANNOTATION_COLORS); rows before colours are yellow. */
    color: text('color').notNull().default('yellow'),
    /** Optimistic concurrency (ETag / If-Match): 1 when written, +1 on every change. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    search: searchDocument(sql`setweight(to_tsvector('english_unaccent'::regconfig, "body"), 'C')`),
  },
  (t) => [
    index('annotations_resource_idx').on(t.resourceId, t.createdAt),
    index('annotations_search_idx').using('gin', t.search),
    check(
      'annotations_color_check',
      sql`${t.color} in ('yellow', 'red', 'green', 'blue', 'purple', 'magenta', 'orange', 'gray')`,
    ),
  ],
);
