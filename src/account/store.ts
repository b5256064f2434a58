/**
 * The account as a whole: what it holds (counted for the delete dialog, read in full for the export),
 * and its deletion in one transaction. Every table of a user's data refers to the user with
 * ON DELETE CASCADE (platform/db/schema.ts), so deleting the user row deletes the rest with it:
 * profile, sessions, e-mail links, OAuth identities, owned workspaces with their resources, PDFs'
 * rows and text, annotations and share links, and the user's search history (analytics rows go too,
 * not kept anonymised: a query can say who asked it).
 */
import {
  and,
  count,
  countDistinct,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNull,
} from 'drizzle-orm';
import type { Db } from '../platform/db/client.js';
import { recordAccountDeletion } from '../workspaces/index.js';
import {
  annotations,
  oauthIdentities,
  profiles,
  refreshTokens,
  resourcePdfs,
  searchEvents,
  shareLinks,
  users,
  workspaceMembers,
  workspaceResources,
  workspaces,
} from '../platform/db/schema.js';

export type UserRow = typeof users.$inferSelect;

/** What deleting the account would delete, as the page says it before asking. */
export interface AccountHoldings {
  workspaces: number;
  resources: number;
  pdfs: number;
  annotations: number;
  /** Share links that open something today (not revoked, not expired). */
  activeShareLinks: number;
  /** Owned workspaces with other members: they lose them (unless ownership is transferred first). */
  sharedWorkspaces: number;
  /** Other people's workspaces the user is a member of: left, not deleted. */
  memberships: number;
}

export async function findAccount(db: Db, userId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row ?? null;
}

/** How the account signs in: `password` when it has one, and each linked provider (`google`, `github`). */
export async function signInMethods(
  db: Db,
  user: Pick<UserRow, 'id' | 'passwordHash'>,
): Promise<Array<'password' | 'google' | 'github'>> {
  const linked = await db
    .selectDistinct({ provider: oauthIdentities.provider })
    .from(oauthIdentities)
    .where(eq(oauthIdentities.userId, user.id));
  const providers = linked
    .map((row) => row.provider)
    .filter(
      (provider): provider is 'google' | 'github' => provider === 'google' || provider === 'github',
    )
    .sort();
  return [...(user.passwordHash ? (['password'] as const) : []), ...providers];
}

export async function countHoldings(db: Db, userId: string): Promise<AccountHoldings> {
  const owned = eq(workspaces.ownerId, userId);
  const [[ws], [res], [pdf], [ann], [links], [shared], [memberOf]] = await Promise.all([
    db.select({ n: count() }).from(workspaces).where(owned),
    db
      .select({ n: count() })
      .from(workspaceResources)
      .innerJoin(workspaces, eq(workspaces.id, workspaceResources.workspaceId))
      .where(owned),
    db
      .select({ n: count() })
      .from(resourcePdfs)
      .innerJoin(workspaceResources, eq(workspaceResources.id, resourcePdfs.resourceId))
      .innerJoin(workspaces, eq(workspaces.id, workspaceResources.workspaceId))
      .where(owned),
    db
      .select({ n: count() })
      .from(annotations)
      .innerJoin(workspaceResources, eq(workspaceResources.id, annotations.resourceId))
      .innerJoin(workspaces, eq(workspaces.id, workspaceResources.workspaceId))
      .where(owned),
    db
      .select({ n: count() })
      .from(shareLinks)
      .innerJoin(workspaces, eq(workspaces.id, shareLinks.workspaceId))
      .where(and(owned, isNull(shareLinks.revokedAt), gt(shareLinks.expiresAt, new Date()))),
    db
      .select({ n: countDistinct(workspaces.id) })
      .from(workspaces)
      .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, workspaces.id))
      .where(owned),
    db.select({ n: count() }).from(workspaceMembers).where(eq(workspaceMembers.userId, userId)),
  ]);
  return {
    workspaces: ws?.n ?? 0,
    resources: res?.n ?? 0,
    pdfs: pdf?.n ?? 0,
    annotations: ann?.n ?? 0,
    activeShareLinks: links?.n ?? 0,
    sharedWorkspaces: shared?.n ?? 0,
    memberships: memberOf?.n ?? 0,
  };
}

/** What a deleted account leaves to clean up once the transaction has committed. */
export interface DeletedAccount {
  /** Its sessions, to be refused by every process at once. */
  sessionIds: string[];
  /** Its PDFs' files in the blob store. */
  pdfKeys: string[];
}

/**
 * Deletes the account and everything it holds, if its credentials are still those its confirmation
 * was checked against (`credentialsVersion`): null otherwise (changed meanwhile) or when it is gone.
 * The owned workspaces' rows are locked first, then the user's refresh tokens, then the user's row, in
 * the order the requests it races take them: adding a resource locks its workspace, then (through
 * `added_by`'s foreign key) the user; a refresh locks its token, then (storing the next token) the
 * user. Each either commits before (its rows are deleted with the account) or waits and then finds
 * nothing, and none waits on the deletion while it waits on them (a deadlock, on PostgreSQL: a refresh
 * holding its token while the deletion, holding the user, deleted the tokens).
 */
export async function deleteAccountRows(
  db: Db,
  userId: string,
  credentialsVersion: number,
): Promise<DeletedAccount | null> {
  return db.transaction(async (tx) => {
    const ownedIds = (
      await tx
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(eq(workspaces.ownerId, userId))
        .for('update')
    ).map((row) => row.id);
    await tx
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, userId))
      .for('update');
    const [held] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.credentialsVersion, credentialsVersion)))
      .for('update');
    if (!held) return null;
    const pdfKeys = ownedIds.length
      ? (
          await tx
            .select({ key: resourcePdfs.blobKey })
            .from(resourcePdfs)
            .innerJoin(workspaceResources, eq(workspaceResources.id, resourcePdfs.resourceId))
            .where(inArray(workspaceResources.workspaceId, ownedIds))
        ).map((row) => row.key)
      : [];
    const sessionIds = [
      ...new Set(
        (
          await tx
            .select({ familyId: refreshTokens.familyId })
            .from(refreshTokens)
            .where(eq(refreshTokens.userId, userId))
        ).map((row) => row.familyId),
      ),
    ];
    await recordAccountDeletion(tx, userId);
    await tx.delete(users).where(eq(users.id, userId));
    return { sessionIds, pdfKeys };
  });
}

const { search: _search, ...resourceColumns } = getTableColumns(workspaceResources);

/** Everything the export holds, read in one snapshot. */
export async function readAccountData(db: Db, userId: string, searchHistoryLimit: number) {
  return db.transaction(async (tx) => {
    const [profile] = await tx.select().from(profiles).where(eq(profiles.userId, userId));
    const owned = await tx
      .select()
      .from(workspaces)
      .where(eq(workspaces.ownerId, userId))
      .orderBy(workspaces.createdAt, workspaces.id);
    const ownedIds = owned.map((workspace) => workspace.id);
    const none = ownedIds.length === 0;
    const resources = none
      ? []
      : await tx
          .select(resourceColumns)
          .from(workspaceResources)
          .where(inArray(workspaceResources.workspaceId, ownedIds))
          .orderBy(workspaceResources.createdAt, workspaceResources.id);
    const resourceIds = resources.map((resource) => resource.id);
    const pdfs = resourceIds.length
      ? await tx
          .select({
            resourceId: resourcePdfs.resourceId,
            filename: resourcePdfs.filename,
            byteSize: resourcePdfs.byteSize,
            sha256: resourcePdfs.sha256,
            blobKey: resourcePdfs.blobKey,
            createdAt: resourcePdfs.createdAt,
          })
          .from(resourcePdfs)
          .where(inArray(resourcePdfs.resourceId, resourceIds))
      : [];
    const notes = resourceIds.length
      ? await tx
          .select({
            id: annotations.id,
            resourceId: annotations.resourceId,
            body: annotations.body,
            color: annotations.color,
            highlights: annotations.highlights,
            createdAt: annotations.createdAt,
            updatedAt: annotations.updatedAt,
          })
          .from(annotations)
          .where(inArray(annotations.resourceId, resourceIds))
          .orderBy(annotations.createdAt, annotations.id)
      : [];
    const links = none
      ? []
      : await tx
          .select({
            id: shareLinks.id,
            workspaceId: shareLinks.workspaceId,
            readOnly: shareLinks.readOnly,
            expiresAt: shareLinks.expiresAt,
            revokedAt: shareLinks.revokedAt,
            pausedAt: shareLinks.pausedAt,
            createdAt: shareLinks.createdAt,
          })
          .from(shareLinks)
          .where(inArray(shareLinks.workspaceId, ownedIds))
          .orderBy(shareLinks.createdAt, shareLinks.id);
    const searches = await tx
      .select({
        query: searchEvents.query,
        providers: searchEvents.providers,
        resultCount: searchEvents.resultCount,
        createdAt: searchEvents.createdAt,
      })
      .from(searchEvents)
      .where(eq(searchEvents.userId, userId))
      .orderBy(desc(searchEvents.createdAt))
      .limit(searchHistoryLimit + 1);
    return {
      profile: profile ?? null,
      workspaces: owned,
      resources,
      pdfs,
      annotations: notes,
      shareLinks: links,
      searches,
    };
  });
}
