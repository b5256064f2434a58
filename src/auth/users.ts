/** User accounts: lookup, creation with their profile in one transaction, password changes, OAuth identities. */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../platform/db/client.js';
import { oauthIdentities, users } from '../platform/db/schema.js';
import { createDefaultProfile } from '../profiles/index.js';
import { voidEmailTokens } from './email-tokens.js';

export type UserRow = typeof users.$inferSelect;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  return row ?? null;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

export class EmailTakenError extends Error {}

/** Creates the account and its profile together; throws EmailTakenError when the address is registered. */
export async function createUserWithProfile(
  db: Db,
  input: { email: string; name: string; passwordHash: string | null; emailConfirmed: boolean },
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        email: normalizeEmail(input.email),
        name: input.name,
        passwordHash: input.passwordHash,
        emailConfirmedAt: input.emailConfirmed ? new Date() : null,
      })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!user) throw new EmailTakenError();
    await createDefaultProfile(tx, user.id, input.name);
    return user;
  });
}

/**
 * Sets (or, with null, removes) the password. Every reset link mailed before stops working with it:
 * a link asked for before a change must not undo the change. The credentials' version goes up, so a
 * sign-in that checked the old password cannot start a session after this (sessions.ts, startSession).
 */
export async function setPassword(
  db: Db | Tx,
  userId: string,
  passwordHash: string | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        passwordHash,
        credentialsVersion: sql`${users.credentialsVersion} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
    await voidEmailTokens(tx, userId, 'password_reset');
  });
}

export async function findUserByIdentity(
  db: Db,
  provider: string,
  providerUserId: string,
): Promise<UserRow | null> {
  const [row] = await db
    .select({ user: users })
    .from(oauthIdentities)
    .innerJoin(users, eq(users.id, oauthIdentities.userId))
    .where(
      and(
        eq(oauthIdentities.provider, provider),
        eq(oauthIdentities.providerUserId, providerUserId),
      ),
    );
  return row?.user ?? null;
}

export async function linkIdentity(
  db: Db | Tx,
  userId: string,
  provider: string,
  providerUserId: string,
  email: string | null,
): Promise<void> {
  await db
    .insert(oauthIdentities)
    .values({ userId, provider, providerUserId, email })
    .onConflictDoNothing({ target: [oauthIdentities.provider, oauthIdentities.providerUserId] });
}

/**
 * Clears what may open an account whose address was never confirmed (see claimForMailboxOwner):
 * its password, its linked identities and every link mailed for it; the address becomes confirmed, and
 * the credentials' version goes up (a sign-in that checked any of them starts no session after this).
 * False when the account was confirmed meanwhile.
 */
export async function clearUnconfirmedAccount(tx: Tx, userId: string): Promise<boolean> {
  const now = new Date();
  const claimed = await tx
    .update(users)
    .set({
      passwordHash: null,
      credentialsVersion: sql`${users.credentialsVersion} + 1`,
      emailConfirmedAt: now,
      updatedAt: now,
    })
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)))
    .returning({ id: users.id });
  if (claimed.length === 0) return false;
  await tx.delete(oauthIdentities).where(eq(oauthIdentities.userId, userId));
  await voidEmailTokens(tx, userId, 'password_reset');
  await voidEmailTokens(tx, userId, 'email_confirmation');
  return true;
}
