/** Queries of bibliography feeds. Rows out; shaping is the presenters' job. */
import { and, desc, eq, isNotNull, or } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client.js';
import { workspaceFeeds, workspaceMembers, workspaces } from '../../platform/db/schema.js';

export type FeedRow = typeof workspaceFeeds.$inferSelect;

export async function insertFeed(
  db: Db,
  values: { workspaceId: string; userId: string; format: string; tokenHash: string },
): Promise<FeedRow> {
  const [row] = await db.insert(workspaceFeeds).values(values).returning();
  if (!row) throw new Error('Feed insert returned no row');
  return row;
}

/** The user's feeds of the workspace, newest first (at most FEEDS_PER_MEMBER). */
export async function listFeeds(db: Db, workspaceId: string, userId: string): Promise<FeedRow[]> {
  return db
    .select()
    .from(workspaceFeeds)
    .where(and(eq(workspaceFeeds.workspaceId, workspaceId), eq(workspaceFeeds.userId, userId)))
    .orderBy(desc(workspaceFeeds.createdAt), desc(workspaceFeeds.id));
}

export async function countFeeds(db: Db, workspaceId: string, userId: string): Promise<number> {
  return db.$count(
    workspaceFeeds,
    and(eq(workspaceFeeds.workspaceId, workspaceId), eq(workspaceFeeds.userId, userId)),
  );
}

/** Deletes one of the user's feeds of the workspace; whether there was one. */
export async function deleteFeed(
  db: Db,
  workspaceId: string,
  userId: string,
  feedId: string,
): Promise<boolean> {
  const deleted = await db
    .delete(workspaceFeeds)
    .where(
      and(
        eq(workspaceFeeds.id, feedId),
        eq(workspaceFeeds.workspaceId, workspaceId),
        eq(workspaceFeeds.userId, userId),
      ),
    )
    .returning({ id: workspaceFeeds.id });
  return deleted.length > 0;
}

/** A member's feeds of a workspace go when they leave or are removed (members/commands.ts). */
export async function deleteFeedsOf(tx: Tx, workspaceId: string, userId: string): Promise<void> {
  await tx
    .delete(workspaceFeeds)
    .where(and(eq(workspaceFeeds.workspaceId, workspaceId), eq(workspaceFeeds.userId, userId)));
}

/**
 * The feed a secret's hash names, with its workspace, while its maker may still read the workspace
 * (its owner, or a member): otherwise null, as for an unknown one.
 */
export async function findLiveFeed(
  db: Db,
  tokenHash: string,
): Promise<{ feed: FeedRow; workspaceId: string; workspaceName: string } | null> {
  const [row] = await db
    .select({ feed: workspaceFeeds, workspaceId: workspaces.id, workspaceName: workspaces.name })
    .from(workspaceFeeds)
    .innerJoin(workspaces, eq(workspaces.id, workspaceFeeds.workspaceId))
    .leftJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, workspaceFeeds.workspaceId),
        eq(workspaceMembers.userId, workspaceFeeds.userId),
      ),
    )
    .where(
      and(
        eq(workspaceFeeds.tokenHash, tokenHash),
        or(eq(workspaces.ownerId, workspaceFeeds.userId), isNotNull(workspaceMembers.userId)),
      ),
    );
  return row ?? null;
}
