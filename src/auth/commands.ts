/** What the auth routes do, each a named step: sign up, sign in, reset and update passwords, confirm e-mail. */
import { allowedOrigins, type Config } from '../config.js';
import type { Db } from '../platform/db/client.js';
import { authenticationError, conflict, validationError } from '../platform/errors.js';
import type { Mailer } from '../platform/mail/index.js';
import { stripHtml } from '../platform/sanitize.js';
import type { FastifyBaseLogger } from 'fastify';
import { consumeEmailToken, findEmailToken, issueEmailToken } from './email-tokens.js';
import { claimForMailboxOwner } from './mailbox-claims.js';
import { confirmationMail, passwordChangedMail, passwordResetMail } from './mails.js';
import {
  hashPassword,
  passwordProblem,
  verifyAgainstDummy,
  verifyPassword,
  type PasswordHashCost,
} from './passwords.js';
import { endAllSessions, startSession, type IssuedSession, type SessionDeps } from './sessions.js';
import {
  createUserWithProfile,
  EmailTakenError,
  findUserByEmail,
  findUserById,
  setPassword,
  type UserRow,
} from './users.js';
import { users } from '../platform/db/schema.js';
import { and, eq, isNull } from 'drizzle-orm';

const INVALID_CREDENTIALS = 'Invalid login credentials';
const RESET_TOKEN_TTL_SECONDS = 3600;
const CONFIRMATION_TOKEN_TTL_SECONDS = 24 * 3600;

export interface AuthDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  sessions: SessionDeps;
  log: FastifyBaseLogger;
  /** What a new password's hash costs (context.ts). */
  passwordHashCost: PasswordHashCost;
}

async function assertPasswordAcceptable(password: string): Promise<void> {
  const problem = await passwordProblem(password);
  if (problem) throw validationError('password', problem, `Password ${problem}`);
}

/**
 * Signing up, in its three parts: the slow, side-effect-free one here (the password judged and
 * hashed); `create`, the account and its profile, which a route runs in the transaction that keeps its
 * answer (platform/idempotency.ts); `confirm`, the confirmation mail, once that has committed. A process
 * that dies before the mail leaves an account whose owner asks for another (resend); a retry that
 * replays the answer sends none.
 */
export async function prepareSignUp(
  deps: AuthDeps,
  input: { email: string; password: string; name?: string },
): Promise<{ create(db: Db): Promise<UserRow>; confirm(user: UserRow): Promise<void> }> {
  await assertPasswordAcceptable(input.password);
  const name = stripHtml(input.name ?? '') || input.email.split('@')[0]!.slice(0, 100);
  const passwordHash = await hashPassword(input.password, deps.passwordHashCost);
  return {
    async create(db) {
      try {
        return await createUserWithProfile(db, {
          email: input.email,
          name,
          passwordHash,
          emailConfirmed: false,
        });
      } catch (error) {
        if (error instanceof EmailTakenError)
          throw conflict('A user with this e-mail address already exists', {
            field: 'email',
            reason: 'taken',
          });
        throw error;
      }
    },
    async confirm(user) {
      if (deps.config.emailConfirmation === 'required') await sendConfirmationMail(deps, user);
    },
  };
}

async function sendConfirmationMail(
  deps: AuthDeps,
  user: Pick<UserRow, 'id' | 'email'>,
): Promise<void> {
  const token = await issueEmailToken(
    deps.db,
    user.id,
    'email_confirmation',
    CONFIRMATION_TOKEN_TTL_SECONDS,
  );
  const link = `${deps.config.publicUrl}/api/auth/confirm?token=${encodeURIComponent(token)}`;
  await deps.mailer.send(confirmationMail(user.email, link));
}

/** Mails the signed-in user a new confirmation link; a conflict when the address is already confirmed. */
export async function resendConfirmation(deps: AuthDeps, userId: string): Promise<void> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw authenticationError();
  if (user.emailConfirmedAt)
    throw conflict('Your e-mail address is already confirmed', { reason: 'already_confirmed' });
  await sendConfirmationMail(deps, user);
}

export async function signIn(
  deps: AuthDeps,
  input: { email: string; password: string },
): Promise<IssuedSession> {
  const user = await findUserByEmail(deps.db, input.email);
  const valid = user?.passwordHash
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyAgainstDummy(input.password, deps.passwordHashCost);
  if (!user || !valid) throw authenticationError(INVALID_CREDENTIALS);
  return startSession(deps.sessions, {
    id: user.id,
    email: user.email,
    name: user.name,
    credentialsVersion: user.credentialsVersion,
  });
}

function resetLinkBase(config: Config, redirectTo: string | undefined): string {
  const fallback = `${config.appOrigin}/auth/update-password`;
  if (!redirectTo) return fallback;
  const allowed = allowedOrigins(config);
  try {
    const url = new URL(redirectTo);
    return allowed.has(url.origin) ? url.toString() : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Always succeeds from the caller's point of view, so that it does not reveal which addresses have
 * accounts. It runs after the reply, yet on the embedded database it still holds the one connection
 * and the thread that the next requests need: were there less to do for an address without an
 * account, the requests after its reset would be faster and tell. So both do the same work: the
 * same token row written (one that belongs to no account and that no mail carries, for an address
 * without one) and the same mail rendered, sent only to an account.
 */
export async function requestPasswordReset(
  deps: AuthDeps,
  input: { email: string; redirectTo?: string },
): Promise<void> {
  const user = await findUserByEmail(deps.db, input.email);
  const token = await issueEmailToken(
    deps.db,
    user?.id ?? null,
    'password_reset',
    RESET_TOKEN_TTL_SECONDS,
  );
  const link = new URL(resetLinkBase(deps.config, input.redirectTo));
  link.searchParams.set('token', token);
  if (!user) return deps.mailer.compose(passwordResetMail(input.email, link.toString()));
  await deps.mailer.send(passwordResetMail(user.email, link.toString()));
}

/**
 * The signed-in user's current password, checked before it may change: an access token alone (one
 * that leaked) must not be enough to take the account. An account made through OAuth has no
 * password to give; it sets one through a reset link, which proves it holds the mailbox.
 */
async function assertCurrentPassword(
  user: UserRow,
  currentPassword: string | undefined,
): Promise<void> {
  if (!user.passwordHash) {
    throw validationError(
      'currentPassword',
      'no_password',
      'This account has no current password (it signs in with Google or GitHub); set one with the link mailed by POST /api/auth/reset-password',
    );
  }
  if (!currentPassword)
    throw validationError(
      'currentPassword',
      'required',
      'Enter your current password to set a new one',
    );
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw validationError('currentPassword', 'incorrect', 'The current password is incorrect');
  }
}

/**
 * By e-mailed token (signed out), or for the signed-in user with their current password; ends the
 * user's other sessions. A signed-in change is mailed to the user, as change-password's is; a reset is
 * not (its link was in that mailbox, and an unconfirmed account's reset already mails what it paused).
 */
export async function updatePassword(
  deps: AuthDeps,
  input: { token?: string; currentPassword?: string; password: string },
  signedIn: { userId: string; sessionId: string | null } | null,
): Promise<void> {
  await assertPasswordAcceptable(input.password);
  if (input.token) {
    const passwordHash = await hashPassword(input.password, deps.passwordHashCost);
    const userId = await consumeEmailToken(deps.db, input.token, 'password_reset');
    const user = userId ? await findUserById(deps.db, userId) : null;
    if (!user)
      throw validationError(
        'token',
        'invalid_or_expired',
        'The reset link is invalid or has expired',
      );
    // The link proves its holder owns the mailbox: an account never confirmed becomes theirs alone.
    await claimForMailboxOwner({ ...deps, appOrigin: deps.config.appOrigin }, user, (tx) =>
      setPassword(tx, user.id, passwordHash),
    );
    await endAllSessions(deps.sessions, user.id);
    return;
  }
  if (!signedIn) throw authenticationError('Sign in or use the reset link from your e-mail');
  const user = await findUserById(deps.db, signedIn.userId);
  if (!user) throw authenticationError();
  await assertCurrentPassword(user, input.currentPassword);
  await setPassword(deps.db, user.id, await hashPassword(input.password, deps.passwordHashCost));
  await endAllSessions(deps.sessions, user.id, signedIn.sessionId ?? undefined);
  await sendPasswordChangedMail(deps, user.email);
}

/**
 * The signed-in user changes their password (POST /api/auth/change-password). The current password
 * is checked first (a leaked access token alone must not take the account); then the new one is set,
 * which raises the credentials' version, and every session of the user ends, this one included; a new
 * session is started for the caller from the new version. So no token issued before the change (a
 * copy of this session's refresh token too) outlives it, and a sign-in that checked the old password
 * cannot start a session after it (sessions.ts, startSession). The user is told by mail.
 */
export async function changePassword(
  deps: AuthDeps,
  userId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<IssuedSession> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw authenticationError();
  await assertCurrentPassword(user, input.currentPassword);
  const problem = await passwordProblem(input.newPassword);
  if (problem) throw validationError('newPassword', problem, `The new password ${problem}`);
  if (await verifyPassword(user.passwordHash!, input.newPassword)) {
    throw validationError(
      'newPassword',
      'unchanged',
      'The new password is the same as the current one; choose another',
    );
  }
  await setPassword(deps.db, user.id, await hashPassword(input.newPassword, deps.passwordHashCost));
  await endAllSessions(deps.sessions, user.id);
  const changed = await findUserById(deps.db, user.id);
  if (!changed) throw authenticationError();
  const session = await startSession(deps.sessions, {
    id: changed.id,
    email: changed.email,
    name: changed.name,
    credentialsVersion: changed.credentialsVersion,
  });
  await sendPasswordChangedMail(deps, changed.email);
  return session;
}

async function sendPasswordChangedMail(deps: AuthDeps, to: string): Promise<void> {
  const resetLink = `${deps.config.appOrigin}/auth/forgot-password`;
  await deps.mailer.send(passwordChangedMail(to, resetLink));
}

/**
 * What a confirmation link did: `confirmed` now; `already_confirmed` (the link used before, or the
 * address confirmed another way since: a reset link, a verified Google/GitHub sign-in); `expired`
 * (a link of this account, past its day or replaced); `invalid` (no such link). Only the mailbox's
 * holder has the link, so saying which tells no one else anything.
 */
export type ConfirmationOutcome = 'confirmed' | 'already_confirmed' | 'expired' | 'invalid';

export async function confirmEmail(deps: AuthDeps, token: string): Promise<ConfirmationOutcome> {
  const userId = await consumeEmailToken(deps.db, token, 'email_confirmation');
  if (userId) {
    const confirmed = await deps.db
      .update(users)
      .set({ emailConfirmedAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)))
      .returning({ id: users.id });
    return confirmed.length > 0 ? 'confirmed' : 'already_confirmed';
  }
  const known = await findEmailToken(deps.db, token, 'email_confirmation');
  const user = known?.userId ? await findUserById(deps.db, known.userId) : null;
  if (!user) return 'invalid';
  return user.emailConfirmedAt ? 'already_confirmed' : 'expired';
}
