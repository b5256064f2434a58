/** The search analytics' rows in `search_events`: one recorded per search, and the aggregates over a user's. */
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
export async function searchGroups(
  db: Db,
  userId: string,
  since: Date,
  limit: number,
): Promise<QueryGroup[]> {
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
  return db.$count(
    searchEvents,
    and(eq(searchEvents.userId, userId), gte(searchEvents.createdAt, since)),
  );
}

/** Lower-cased, whitespace-folded query: what analytics groups by. */
function normalizeQuery(query: string): string {
  return query.toLowerCase().replace(/\s+/g, ' ').trim();
}

export interface SearchToRecord {
  userId: string | null;
  /** A visitor's anonymous session, when nobody is signed in. */
  anonymousId: string | null;
  query: string;
  providers: string[];
  resultCount: number;
  tookMs: number;
}

export async function recordSearch(db: Db, search: SearchToRecord): Promise<void> {
  await db
    .insert(searchEvents)
    .values({ ...search, normalizedQuery: normalizeQuery(search.query) });
}
