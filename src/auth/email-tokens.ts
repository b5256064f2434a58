/** Single-use tokens sent by e-mail, stored hashed, consumed atomically. */
import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../platform/db/client.js';
import { emailTokens } from '../platform/db/schema.js';
import { hashToken, randomToken } from '../platform/crypto.js';

export type EmailTokenPurpose = 'password_reset' | 'email_confirmation';

/** With `userId` null the row belongs to no account, so its token opens nothing (see requestPasswordReset). */
export async function issueEmailToken(
  db: Db,
  userId: string | null,
  purpose: EmailTokenPurpose,
  ttlSeconds: number,
): Promise<string> {
  const token = randomToken(32);
  await db.insert(emailTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

/** Marks the token used and returns its user, or null when it is unknown, used, expired or for another purpose. */
export async function consumeEmailToken(
  db: Db,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<string | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token)),
        eq(emailTokens.purpose, purpose),
        isNotNull(emailTokens.userId),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: emailTokens.userId });
  return row?.userId ?? null;
}

/** A token's row as it stands (used or not, expired or not), or null when it is unknown or for another purpose. */
export async function findEmailToken(
  db: Db,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<{ userId: string | null; usedAt: Date | null; expiresAt: Date } | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .select({
      userId: emailTokens.userId,
      usedAt: emailTokens.usedAt,
      expiresAt: emailTokens.expiresAt,
    })
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, hashToken(token)), eq(emailTokens.purpose, purpose)));
  return row ?? null;
}

/** Marks every outstanding token of a user for `purpose` used (e.g. all reset links once the password changes). */
export async function voidEmailTokens(
  db: Db | Tx,
  userId: string,
  purpose: EmailTokenPurpose,
): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
      ),
    );
}
