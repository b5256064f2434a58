/**
 * Sessions: a short-lived access JWT plus an opaque refresh token, stored hashed and rotated on every
 * use. Each sign-in starts a family; reusing a rotated token after the grace window revokes the whole
 * family, since only a stolen copy is replayed that late (docs/design.md, Sessions; after
 * supabase/auth).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { preparedStatement, type Db, type Tx } from '../platform/db/client.js';
import { refreshTokens, users } from '../platform/db/schema.js';
import { hashToken, randomToken } from '../platform/crypto.js';
import { ApiError, authenticationError } from '../platform/errors.js';
import type { AccessTokenIssuer } from './access-tokens.js';
import type { RevocationList } from './revocations.js';

export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
/**
 * Why a session ended, as a refused refresh says it (`details.reason`): `signed_out` (POST /api/auth/signout,
 * perhaps in another tab), `password_changed` (the password set or reset, or the account claimed by
 * its mailbox's owner: every session ends), `reused` (a rotated refresh token came back: theft is
 * assumed), `expired`, or `unknown` (no such token).
 */
export type SessionEndReason =
  NonNullable<typeof refreshTokens.$inferSelect.endedReason> | 'expired' | 'unknown';

const END_REASONS: readonly SessionEndReason[] = [
  'signed_out',
  'password_changed',
  'reused',
  'expired',
  'unknown',
];

/** The reason a refused refresh gave (refreshSession), `unknown` for any other failure. */
export function endReasonOf(failure: unknown): SessionEndReason {
  const reason = failure instanceof ApiError ? failure.details?.reason : undefined;
  return END_REASONS.find((known) => known === reason) ?? 'unknown';
}

/** Concurrent refreshes from one client (several tabs) within this window are not treated as theft. */
const REUSE_GRACE_SECONDS = 10;
/** The refusal of a sign-in whose credential changed while it was checked: what it checked is no longer valid. */
const CREDENTIALS_CHANGED = 'Invalid login credentials';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

export interface IssuedSession {
  accessToken: string;
  /** Epoch seconds. */
  expiresAt: number;
  refreshToken: string;
  sessionId: string;
  user: SessionUser;
}

export interface SessionDeps {
  db: Db;
  tokens: AccessTokenIssuer;
  revocations: RevocationList;
}

async function insertRefreshToken(db: Db | Tx, userId: string, familyId: string): Promise<string> {
  const token = randomToken(32);
  await db.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
  });
  return token;
}

async function accessFor(deps: SessionDeps, user: SessionUser, sessionId: string) {
  return deps.tokens.sign({ userId: user.id, email: user.email, name: user.name, sessionId });
}

/** A user who has just proved who they are, with their credentials' version read before the proof was checked. */
export interface ProvenUser extends SessionUser {
  credentialsVersion: number;
}

/**
 * Starts a new session (a new refresh-token family) for a user who has just proved who they are.
 * Refused (401) when their credentials changed since `credentialsVersion` was read: a proof checked
 * against a password that has since been replaced (or an account since claimed by its mailbox's
 * owner) must not outlive the change. The check locks the user's row until the session is stored, and
 * every credential change updates that row and then ends the user's sessions, so either the change
 * comes first and this is refused, or this comes first and the change ends it; no interleaving lets a
 * session from the old credential survive.
 */
export async function startSession(deps: SessionDeps, proven: ProvenUser): Promise<IssuedSession> {
  const user: SessionUser = { id: proven.id, email: proven.email, name: proven.name };
  const sessionId = randomUUID();
  const refreshToken = await deps.db.transaction(async (tx) => {
    const [holds] = await tx
      .update(users)
      .set({ lastSignInAt: new Date() })
      .where(and(eq(users.id, user.id), eq(users.credentialsVersion, proven.credentialsVersion)))
      .returning({ id: users.id });
    if (!holds) return null;
    return insertRefreshToken(tx, user.id, sessionId);
  });
  if (!refreshToken) throw authenticationError(CREDENTIALS_CHANGED);
  const access = await accessFor(deps, user, sessionId);
  return { accessToken: access.token, expiresAt: access.expiresAt, refreshToken, sessionId, user };
}

/** Exchanges a refresh token for a new session in the same family; detects reuse of rotated tokens. */
export async function refreshSession(deps: SessionDeps, presented: string): Promise<IssuedSession> {
  const invalid = (reason: SessionEndReason) =>
    authenticationError('Invalid refresh token', 'Bearer', { reason });
  if (!presented || presented.length > 200) throw invalid('unknown');
  const tokenHash = hashToken(presented);

  const outcome = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: refreshTokens.id,
        familyId: refreshTokens.familyId,
        expiresAt: refreshTokens.expiresAt,
        rotatedAt: refreshTokens.rotatedAt,
        revokedAt: refreshTokens.revokedAt,
        endedReason: refreshTokens.endedReason,
        userId: users.id,
        email: users.email,
        name: users.name,
      })
      .from(refreshTokens)
      .innerJoin(users, eq(users.id, refreshTokens.userId))
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .for('update');
    if (!row) return { kind: 'invalid' as const, reason: 'unknown' as const };
    if (row.revokedAt)
      return { kind: 'invalid' as const, reason: row.endedReason ?? ('unknown' as const) };
    if (row.expiresAt.getTime() <= Date.now())
      return { kind: 'invalid' as const, reason: 'expired' as const };
    // A token issued by a refresh that raced a sign-out escaped its revocation (the sign-out's update
    // did not see the new row); the family's revoked rows still say the session has ended.
    if (await sessionHasEnded(tx, row.familyId))
      return { kind: 'invalid' as const, reason: 'unknown' as const };
    if (row.rotatedAt && Date.now() - row.rotatedAt.getTime() > REUSE_GRACE_SECONDS * 1000) {
      await tx
        .update(refreshTokens)
        .set({ revokedAt: new Date(), endedReason: 'reused' })
        .where(eq(refreshTokens.familyId, row.familyId));
      return { kind: 'reused' as const, familyId: row.familyId };
    }
    if (!row.rotatedAt) {
      await tx
        .update(refreshTokens)
        .set({ rotatedAt: new Date() })
        .where(eq(refreshTokens.id, row.id));
    }
    const token = randomToken(32);
    await tx.insert(refreshTokens).values({
      userId: row.userId,
      familyId: row.familyId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    });
    return {
      kind: 'ok' as const,
      token,
      user: { id: row.userId, email: row.email, name: row.name },
      familyId: row.familyId,
    };
  });

  if (outcome.kind === 'reused') {
    await deps.revocations.revoke([outcome.familyId]);
    throw invalid('reused');
  }
  if (outcome.kind === 'invalid') throw invalid(outcome.reason);
  const access = await accessFor(deps, outcome.user, outcome.familyId);
  return {
    accessToken: access.token,
    expiresAt: access.expiresAt,
    refreshToken: outcome.token,
    sessionId: outcome.familyId,
    user: outcome.user,
  };
}

/**
 * Ends one session: its whole refresh-token family and its access tokens. False when it had already
 * ended (or never existed): then nothing is said to the other processes.
 */
export async function endSession(deps: SessionDeps, sessionId: string): Promise<boolean> {
  const ended = await deps.db
    .update(refreshTokens)
    .set({ revokedAt: new Date(), endedReason: 'signed_out' })
    .where(and(eq(refreshTokens.familyId, sessionId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  if (ended.length === 0) return false;
  await deps.revocations.revoke([sessionId]);
  return true;
}

/** Finds the session a refresh token belongs to (for sign-out by refresh cookie alone). */
export async function sessionIdOfRefreshToken(db: Db, presented: string): Promise<string | null> {
  if (!presented || presented.length > 200) return null;
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)));
  return row?.familyId ?? null;
}

/** The user of a refresh token whose session has not ended, read without rotating it (null: none such). */
export async function userOfRefreshToken(db: Db, presented: string): Promise<string | null> {
  if (!presented || presented.length > 200) return null;
  const [row] = await db
    .select({ userId: refreshTokens.userId, familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)));
  return row && !(await sessionHasEnded(db, row.familyId)) ? row.userId : null;
}

/** Ends every session of a user (optionally but one) after a change of their credentials (a password changed, the account claimed). */
export async function endAllSessions(
  deps: SessionDeps,
  userId: string,
  keepSessionId?: string,
): Promise<void> {
  const conditions = [eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)];
  if (keepSessionId) conditions.push(ne(refreshTokens.familyId, keepSessionId));
  const ended = await deps.db
    .update(refreshTokens)
    .set({ revokedAt: new Date(), endedReason: 'password_changed' })
    .where(and(...conditions))
    .returning({ familyId: refreshTokens.familyId });
  await deps.revocations.revoke([...new Set(ended.map((row) => row.familyId))]);
}

/**
 * The newest word on a session: its family's revoked row if it has one (revocation always covers the
 * whole family, and a revoked row sorts first), else any of its rows. One index lookup (family_id).
 */
const sessionStateStatement = preparedStatement((db) =>
  db
    .select({ revokedAt: refreshTokens.revokedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.familyId, sql.placeholder('sessionId')))
    .orderBy(sql`${refreshTokens.revokedAt} desc nulls last`)
    .limit(1)
    .prepare('rw_session_state'),
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True when the session has ended (signed out, its refresh token reused, its user's sessions ended)
 * or is unknown (its user deleted). What every process asks before letting an access token in.
 */
export async function sessionHasEnded(db: Db | Tx, sessionId: string): Promise<boolean> {
  if (!UUID.test(sessionId)) return true;
  const [row] = await sessionStateStatement(db).execute({ sessionId });
  return !row || row.revokedAt !== null;
}
