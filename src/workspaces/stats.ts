/**
 * What the analytics capability may know of saved resources: aggregates only, never a resource itself:
 * how many are saved and shared, their reading time, and their types and tags.
 */
import { and, count, eq, exists, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client.js';
import { shareLinks, workspaceResources, workspaces } from '../platform/db/schema.js';
import { liveShareLink } from './share-links/store.js';

/** Minutes a resource is known to take (a summary's reading time stored in `data`), clamped to sane values. */
const KNOWN_MINUTES_PATHS = [
  ['readingTimeMinutes'],
  ['readingTime'],
  ['summary', 'readingTimeMinutes'],
  ['summary', 'metadata', 'readingTime'],
  ['metadata', 'readingTime'],
];

const knownMinutes = sql.join(
  KNOWN_MINUTES_PATHS.map((path) => {
    const pointer = sql.raw(`'{${path.join(',')}}'`);
    return sql`case when jsonb_typeof(${workspaceResources.data} #> ${pointer}) = 'number'
        then least(greatest((${workspaceResources.data} #>> ${pointer})::numeric, 0), 100000) end`;
  }),
  sql`, `,
);

/** Words of the text stored on a resource (title, abstract, full text), for an estimate at 200 words a minute. */
const storedWords = sql`coalesce(array_length(regexp_split_to_array(nullif(btrim(concat_ws(' ',
  ${workspaceResources.title},
  coalesce(${workspaceResources.record} ->> 'abstract', ${workspaceResources.data} ->> 'abstract'),
  ${workspaceResources.data} ->> 'content',
  ${workspaceResources.data} ->> 'text',
  ${workspaceResources.data} ->> 'fullText')), ''), '[[:space:]]+'), 1), 0)`;

const WORDS_PER_MINUTE = 200;

/** Resources in the user's workspaces; shared = in a workspace with a live share link; reading time in minutes. */
export async function resourceTotals(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ saved: number; shared: number; readingMinutes: number }> {
  const shared = exists(
    db
      .select({ id: shareLinks.id })
      .from(shareLinks)
      .where(and(eq(shareLinks.workspaceId, workspaces.id), liveShareLink(now))),
  );
  const [row] = await db
    .select({
      saved: count(),
      shared: sql<number>`count(*) filter (where ${shared})`.mapWith(Number),
      readingMinutes:
        sql<number>`coalesce(sum(coalesce(${knownMinutes}, ${storedWords}::numeric / ${WORDS_PER_MINUTE})), 0)`.mapWith(
          Number,
        ),
    })
    .from(workspaceResources)
    .innerJoin(workspaces, eq(workspaces.id, workspaceResources.workspaceId))
    .where(eq(workspaces.ownerId, userId));
  return {
    saved: row?.saved ?? 0,
    shared: row?.shared ?? 0,
    readingMinutes: row?.readingMinutes ?? 0,
  };
}

/**
 * Type and tags of every saved resource (small columns only), for the category counts. `document`,
 * the type of a work that says none of its own (resource-record.ts), counts as no type: its tags do.
 */
export async function resourceCategories(
  db: Db,
  userId: string,
): Promise<Array<{ type: string | null; tags: string[] }>> {
  return db
    .select({
      type: sql<string | null>`nullif(${workspaceResources.type}, 'document')`,
      tags: workspaceResources.tags,
    })
    .from(workspaceResources)
    .innerJoin(workspaces, eq(workspaces.id, workspaceResources.workspaceId))
    .where(eq(workspaces.ownerId, userId));
}
