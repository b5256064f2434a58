/** Profile rows: one per user, created with the account (or on first read). */
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../platform/db/client.js';
import { profiles, type Preferences } from '../platform/db/schema.js';

export type ProfileRow = typeof profiles.$inferSelect;

export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'system',
  language: 'en-IN',
  emailNotifications: true,
  marketingEmails: false,
};

/** Creates the default profile of a new user; called inside the sign-up transaction. */
export async function createDefaultProfile(
  db: Db | Tx,
  userId: string,
  displayName: string | null,
): Promise<ProfileRow> {
  const [row] = await db
    .insert(profiles)
    .values({
      userId,
      displayName: displayName ? displayName.slice(0, 50) : null,
      preferences: DEFAULT_PREFERENCES,
    })
    .onConflictDoNothing({ target: profiles.userId })
    .returning();
  if (row) return row;
  const [existing] = await db.select().from(profiles).where(eq(profiles.userId, userId));
  if (!existing) throw new Error('Profile vanished while being created');
  return existing;
}

function profileByUser(db: Db) {
  return db
    .select()
    .from(profiles)
    .where(eq(profiles.userId, sql.placeholder('userId')));
}

/** Prepared once per database: every signed-in GET /api/auth/session reads the profile (see workspaces/store.ts). */
const preparedProfileByUser = new WeakMap<Db, Pick<ReturnType<typeof profileByUser>, 'execute'>>();

export async function findProfile(db: Db, userId: string): Promise<ProfileRow | null> {
  let statement = preparedProfileByUser.get(db);
  if (!statement) {
    statement = profileByUser(db).prepare('rw_profile_by_user');
    preparedProfileByUser.set(db, statement);
  }
  const [row] = await statement.execute({ userId });
  return row ?? null;
}

export async function getOrCreateProfile(
  db: Db,
  userId: string,
  displayName: string | null,
): Promise<ProfileRow> {
  return (await findProfile(db, userId)) ?? createDefaultProfile(db, userId, displayName);
}

export interface ProfileChanges {
  displayName?: string;
  bio?: string | null;
  preferences?: Partial<Preferences>;
}

export async function updateProfile(
  db: Db,
  userId: string,
  displayNameFallback: string | null,
  changes: ProfileChanges,
): Promise<ProfileRow> {
  return db.transaction(async (tx) => {
    const current =
      (await tx.select().from(profiles).where(eq(profiles.userId, userId)).for('update'))[0] ??
      (await createDefaultProfile(tx, userId, displayNameFallback));
    const [row] = await tx
      .update(profiles)
      .set({
        ...(changes.displayName !== undefined ? { displayName: changes.displayName } : {}),
        ...(changes.bio !== undefined ? { bio: changes.bio } : {}),
        ...(changes.preferences
          ? {
              preferences: {
                ...DEFAULT_PREFERENCES,
                ...current.preferences,
                ...changes.preferences,
              },
            }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(profiles.id, current.id))
      .returning();
    if (!row) throw new Error('Profile update lost its row');
    return row;
  });
}

/** Points the profile at a new avatar and returns the key of the one it replaces (to delete). */
export async function replaceAvatar(
  db: Db,
  userId: string,
  displayNameFallback: string | null,
  avatar: { key: string; url: string },
): Promise<{ profile: ProfileRow; previousKey: string | null }> {
  return db.transaction(async (tx) => {
    const current =
      (await tx.select().from(profiles).where(eq(profiles.userId, userId)).for('update'))[0] ??
      (await createDefaultProfile(tx, userId, displayNameFallback));
    const [row] = await tx
      .update(profiles)
      .set({ avatarKey: avatar.key, avatarUrl: avatar.url, updatedAt: new Date() })
      .where(eq(profiles.id, current.id))
      .returning();
    if (!row) throw new Error('Profile update lost its row');
    return { profile: row, previousKey: current.avatarKey };
  });
}
