/** Queries of share links. Rows out; shaping is the presenters' job. */
import { and, asc, desc, eq, gt, isNull, sql, type Placeholder } from 'drizzle-orm';
import { isAnyOf, type Db, type Tx } from '../../platform/db/client.js';
import { shareLinks, workspaces } from '../../platform/db/schema.js';
import type { WorkspaceRow } from '../store.js';

export type ShareLinkRow = typeof shareLinks.$inferSelect;
/** A link is live until it is revoked or expires. */
export const liveShareLink = (now: Date | Placeholder) =>
  and(isNull(shareLinks.revokedAt), isNull(shareLinks.pausedAt), gt(shareLinks.expiresAt, now));

export async function insertShareLink(
  db: Db | Tx,
  values: {
    workspaceId: string;
    tokenHash: string;
    tokenSealed: string;
    expiresAt: Date;
    readOnly: boolean;
    allowJoin: boolean;
    createdBy: string;
  },
): Promise<ShareLinkRow> {
  const [row] = await db.insert(shareLinks).values(values).returning();
  if (!row) throw new Error('Share link insert returned no row');
  return row;
}

/** Unrevoked links of a workspace (expired ones included, so their owner sees why they stopped), newest first. */
export async function listShareLinks(db: Db, workspaceId: string): Promise<ShareLinkRow[]> {
  return db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.workspaceId, workspaceId), isNull(shareLinks.revokedAt)))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
}

/** Sets whether one joins through an unrevoked link of this workspace; null when there is none such. */
export async function setShareLinkJoining(
  db: Db | Tx,
  workspaceId: string,
  shareId: string,
  allowJoin: boolean,
): Promise<ShareLinkRow | null> {
  const [row] = await db
    .update(shareLinks)
    .set({ allowJoin })
    .where(
      and(
        eq(shareLinks.id, shareId),
        eq(shareLinks.workspaceId, workspaceId),
        isNull(shareLinks.revokedAt),
      ),
    )
    .returning();
  return row ?? null;
}

/** An unrevoked link of this workspace, or null. */
export async function findShareLink(
  db: Db | Tx,
  workspaceId: string,
  shareId: string,
): Promise<ShareLinkRow | null> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where(
      and(
        eq(shareLinks.id, shareId),
        eq(shareLinks.workspaceId, workspaceId),
        isNull(shareLinks.revokedAt),
      ),
    );
  return row ?? null;
}

/** Marks an unrevoked link of this workspace revoked; false when there is none. */
export async function revokeShareLinkRow(
  db: Db | Tx,
  workspaceId: string,
  shareId: string,
): Promise<boolean> {
  const revoked = await db
    .update(shareLinks)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(shareLinks.id, shareId),
        eq(shareLinks.workspaceId, workspaceId),
        isNull(shareLinks.revokedAt),
      ),
    )
    .returning({ id: shareLinks.id });
  return revoked.length > 0;
}

/** The workspace behind a live link with this token hash, or null. */
export async function findWorkspaceByShareToken(
  db: Db | Tx,
  tokenHash: string,
  now: Date,
): Promise<{ workspace: WorkspaceRow; link: ShareLinkRow } | null> {
  const [row] = await db
    .select({ workspace: workspaces, link: shareLinks })
    .from(shareLinks)
    .innerJoin(workspaces, eq(workspaces.id, shareLinks.workspaceId))
    .where(and(eq(shareLinks.tokenHash, tokenHash), liveShareLink(now)));
  return row ?? null;
}

/**
 * Pauses every live share link of an owner's workspaces (an account claimed by its mailbox's owner:
 * a link made before may have been someone else's, so it opens nothing until the owner resumes it).
 * The workspaces whose links were paused, each once.
 */
export async function pauseShareLinksOfOwner(
  db: Db | Tx,
  ownerId: string,
): Promise<Array<{ id: string; name: string }>> {
  const now = new Date();
  const paused = await db
    .update(shareLinks)
    .set({ pausedAt: now })
    .where(
      and(
        liveShareLink(now),
        sql`${shareLinks.workspaceId} in (select ${workspaces.id} from ${workspaces} where ${workspaces.ownerId} = ${ownerId})`,
      ),
    )
    .returning({ workspaceId: shareLinks.workspaceId });
  if (paused.length === 0) return [];
  return db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(isAnyOf(workspaces.id, [...new Set(paused.map((row) => row.workspaceId))]))
    .orderBy(asc(workspaces.name));
}

/** Resumes a paused, unrevoked link of this workspace; false when there is none. */
export async function resumeShareLinkRow(
  db: Db | Tx,
  workspaceId: string,
  shareId: string,
): Promise<ShareLinkRow | null> {
  const [row] = await db
    .update(shareLinks)
    .set({ pausedAt: null })
    .where(
      and(
        eq(shareLinks.id, shareId),
        eq(shareLinks.workspaceId, workspaceId),
        isNull(shareLinks.revokedAt),
        sql`${shareLinks.pausedAt} is not null`,
      ),
    )
    .returning();
  return row ?? null;
}
