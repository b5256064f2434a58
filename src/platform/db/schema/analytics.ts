/** Search requests, for the analytics endpoints (src/analytics). */
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './accounts.js';

/** One row per search request, for the analytics endpoints. */
export const searchEvents = pgTable(
  'search_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Anonymous-session id of a visitor who was not signed in. */
    anonymousId: text('anonymous_id'),
    query: text('query').notNull(),
    normalizedQuery: text('normalized_query').notNull(),
    providers: jsonb('providers').$type<string[]>().notNull(),
    resultCount: integer('result_count').notNull(),
    tookMs: integer('took_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('search_events_user_created_idx').on(t.userId, t.createdAt)],
);
