/** What the auth routes do, each a named step: sign up, sign in, reset and update passwords, confirm e-mail. */
import type { Config } from '../config.js';
import type { Db } from '../platform/db/client.js';
import { conflict, validationError, ApiError } from '../platform/errors.js';
import type { Mailer } from '../platform/mail.js';
import { stripHtml } from '../platform/sanitize.js';
import type { FastifyBaseLogger } from 'fastify';
import { consumeEmailToken, issueEmailToken } from './email-tokens.js';
import { hashPassword, passwordProblem, verifyAgainstDummy, verifyPassword } from './passwords.js';
import { endAllSessions, startSession, type IssuedSession, type SessionDeps } from './sessions.js';
import { createUserWithProfile, EmailTakenError, findUserByEmail, findUserById, setPassword, type UserRow } from './users.js';
import { users } from '../platform/db/schema.js';
import { eq } from 'drizzle-orm';

export const INVALID_CREDENTIALS = 'Invalid login credentials';
const RESET_TOKEN_TTL_SECONDS = 3600;
const CONFIRMATION_TOKEN_TTL_SECONDS = 24 * 3600;

export interface AuthDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  sessions: SessionDeps;
  log: FastifyBaseLogger;
}

async function assertPasswordAcceptable(password: string): Promise<void> {
  const problem = await passwordProblem(password);
  if (problem) throw validationError('password', problem, `Password ${problem}`);
}

/** Sends a mail; in outbox mode (no SMTP) on a non-production machine the link is logged for the developer. */
async function sendLinkMail(deps: AuthDeps, to: string, subject: string, intro: string, link: string): Promise<void> {
  const sent = await deps.mailer.send({
    to,
    subject,
    text: `${intro}\n\n${link}\n\nIf you did not ask for this, you can ignore this message.`,
    html: `<p>${intro}</p><p><a href="${link.replace(/"/g, '&quot;')}">${subject}</a></p><p>If you did not ask for this, you can ignore this message.</p>`,
  });
  if (deps.mailer.kind === 'outbox') {
    const showLink = deps.config.env !== 'production';
    deps.log.info({ file: sent.file, ...(showLink ? { link } : {}) }, `mail written to outbox: ${subject}`);
  }
}

export async function signUp(deps: AuthDeps, input: { email: string; password: string; name?: string }): Promise<UserRow> {
  await assertPasswordAcceptable(input.password);
  const name = stripHtml(input.name ?? '') || input.email.split('@')[0]!.slice(0, 100);
  const passwordHash = await hashPassword(input.password);
  let user: UserRow;
  try {
    user = await createUserWithProfile(deps.db, { email: input.email, name, passwordHash, emailConfirmed: false });
  } catch (error) {
    if (error instanceof EmailTakenError) throw conflict('A user with this e-mail address already exists', { field: 'email', reason: 'taken' });
    throw error;
  }
  if (deps.config.emailConfirmation === 'required') {
    const token = await issueEmailToken(deps.db, user.id, 'email_confirmation', CONFIRMATION_TOKEN_TTL_SECONDS);
    const link = `${deps.config.publicUrl}/api/auth/confirm?token=${encodeURIComponent(token)}`;
    await sendLinkMail(deps, user.email, 'Confirm your e-mail address', 'Welcome to Research Workspace. Confirm your address:', link);
  }
  return user;
}

export async function signIn(deps: AuthDeps, input: { email: string; password: string }): Promise<IssuedSession> {
  const user = await findUserByEmail(deps.db, input.email);
  const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : await verifyAgainstDummy(input.password);
  if (!user || !valid) throw new ApiError('AUTHENTICATION_ERROR', INVALID_CREDENTIALS);
  return startSession(deps.sessions, { id: user.id, email: user.email, name: user.name });
}

function resetLinkBase(config: Config, redirectTo: string | undefined): string {
  const fallback = `${config.appOrigin}/auth/update-password`;
  if (!redirectTo) return fallback;
  const allowed = new Set([new URL(config.appOrigin).origin, new URL(config.publicUrl).origin]);
  try {
    const url = new URL(redirectTo);
    return allowed.has(url.origin) ? url.toString() : fallback;
  } catch {
    return fallback;
  }
}

/** Always succeeds from the caller's point of view, so that it does not reveal which addresses have accounts. */
export async function requestPasswordReset(deps: AuthDeps, input: { email: string; redirectTo?: string }): Promise<void> {
  const user = await findUserByEmail(deps.db, input.email);
  if (!user) return;
  const token = await issueEmailToken(deps.db, user.id, 'password_reset', RESET_TOKEN_TTL_SECONDS);
  const link = new URL(resetLinkBase(deps.config, input.redirectTo));
  link.searchParams.set('token', token);
  await sendLinkMail(deps, user.email, 'Reset your password', 'Someone asked to reset your Research Workspace password. The link works once, for one hour:', link.toString());
}

/** By e-mailed token (signed out) or for the signed-in user; ends the user's other sessions. */
export async function updatePassword(
  deps: AuthDeps,
  input: { token?: string; password: string },
  signedIn: { userId: string; sessionId: string | null } | null,
): Promise<void> {
  await assertPasswordAcceptable(input.password);
  if (input.token) {
    const passwordHash = await hashPassword(input.password);
    const userId = await consumeEmailToken(deps.db, input.token, 'password_reset');
    if (!userId) throw validationError('token', 'invalid_or_expired', 'The reset link is invalid or has expired');
    await setPassword(deps.db, userId, passwordHash);
    await endAllSessions(deps.sessions, userId);
    return;
  }
  if (!signedIn) throw new ApiError('AUTHENTICATION_ERROR', 'Sign in or use the reset link from your e-mail');
  const user = await findUserById(deps.db, signedIn.userId);
  if (!user) throw new ApiError('AUTHENTICATION_ERROR', 'Authentication required');
  await setPassword(deps.db, user.id, await hashPassword(input.password));
  await endAllSessions(deps.sessions, user.id, signedIn.sessionId ?? undefined);
}

export async function confirmEmail(deps: AuthDeps, token: string): Promise<boolean> {
  const userId = await consumeEmailToken(deps.db, token, 'email_confirmation');
  if (!userId) return false;
  await deps.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, userId));
  return true;
}
