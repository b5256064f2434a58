/** Queries behind the search analytics: aggregates over a user's rows in `search_events`. */
import { and, count, desc, eq, gte, max, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client.js';
import { searchEvents } from '../platform/db/schema.js';

export interface QueryGroup {
  query: string;
  normalizedQuery: string;
  count: number;
  lastSearched: Date;
}

/** Searches since `since`, grouped by normalised query, most searched first; shown as last typed. */
export async function searchGroups(db: Db, userId: string, since: Date, limit: number): Promise<QueryGroup[]> {
  const where = and(eq(searchEvents.userId, userId), gte(searchEvents.createdAt, since));
  const lastSearched = max(searchEvents.createdAt);
  const rows = await db
    .select({
      normalizedQuery: searchEvents.normalizedQuery,
      query: sql<string>`(array_agg(${searchEvents.query} order by ${searchEvents.createdAt} desc))[1]`,
      count: count(),
      lastSearched,
    })
    .from(searchEvents)
    .where(where)
    .groupBy(searchEvents.normalizedQuery)
    .orderBy(desc(count()), desc(lastSearched), searchEvents.normalizedQuery)
    .limit(limit);
  return rows.map((row) => ({ ...row, lastSearched: row.lastSearched ?? since }));
}

export async function countSearches(db: Db, userId: string, since: Date): Promise<number> {
  return db.$count(searchEvents, and(eq(searchEvents.userId, userId), gte(searchEvents.createdAt, since)));
}
