/** Authentication routes: sign-up, sign-in, sign-out, session, refresh, password reset, OAuth. */
import type { UserRow } from './users.js';
import { mailerFor } from '../platform/mail/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { generateCodeVerifier, generateState } from 'arctic';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { ApiError, validationError } from '../platform/errors.js';
import { ErrorResponse, PUBLIC, SIGNED_IN_OPTIONAL } from '../platform/openapi.js';
import { findProfile } from '../profiles/index.js';
import { normalizeEmail } from './users.js';
import {
  changePassword,
  confirmEmail,
  requestPasswordReset,
  resendConfirmation,
  signIn,
  prepareSignUp,
  updatePassword,
  type AuthDeps,
} from './commands.js';
import {
  OAUTH_STATE_COOKIE,
  REFRESH_COOKIE,
  clearOAuthStateCookie,
  clearSessionCookies,
  setOAuthStateCookie,
  setSessionCookies,
} from './cookies.js';
import {
  createOAuthProvider,
  type OAuthProvider,
  type OAuthProviderId,
} from './oauth/providers.js';
import { DEFAULT_RETURN_PATH, safeReturnPath } from './oauth/return-path.js';
import { IdentityConflictError, userForIdentity } from './oauth/sign-in-with-identity.js';
import { presentSession, presentUser } from './presenters.js';
import { requireUser } from './request-auth.js';
import {
  ChangePasswordBody,
  ConfirmQuery,
  MessageResponse,
  OAuthCallbackQuery,
  OAuthParams,
  OAuthStartQuery,
  RefreshBody,
  ResetPasswordBody,
  SessionResponse,
  SignInBody,
  SignInResponse,
  SignUpBody,
  SignUpResponse,
  UpdatePasswordBody,
} from './schemas.js';
import { endSession, refreshSession, sessionIdOfRefreshToken, startSession } from './sessions.js';

const tags = ['auth'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };
/** A redirect: no body, its target in Location. */
const Redirect = z.null().describe('Redirect (see Location)');

export async function authRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { config, platform } = ctx;
  const deps = (request: FastifyRequest): AuthDeps => ({
    db: ctx.db,
    config,
    mailer: mailerFor(platform.mailTransport, request.log),
    sessions: ctx.sessions,
    log: request.log,
    passwordHashCost: ctx.passwordHashCost,
  });
  /**
   * Work run once the reply has gone (the response closes either way), which the app's close waits
   * for. The reset mail goes this way: the time spent finding the account, storing its token and
   * talking to the mail server would otherwise tell which addresses have accounts.
   */
  const running = new Set<Promise<void>>();
  root.addHook('onClose', async () => {
    await Promise.allSettled([...running]);
  });
  const afterReply = (
    request: FastifyRequest,
    reply: FastifyReply,
    what: string,
    work: () => Promise<void>,
  ) => {
    reply.raw.once('close', () => {
      const done: Promise<void> = work()
        .catch((error: unknown) =>
          request.log.warn({ err: { message: (error as Error).message } }, `${what} failed`),
        )
        .finally(() => running.delete(done));
      running.add(done);
    });
  };

  app.post(
    '/api/auth/signup',
    {
      config: { auth: 'optional', rateLimit: ['user', 'signup'], idempotent: true },
      schema: {
        tags,
        operationId: 'signUp',
        summary: 'Create an account',
        security: PUBLIC,
        body: SignUpBody,
        response: { 201: SignUpResponse, 409: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const signUp = await prepareSignUp(deps(request), request.body);
      const message =
        config.emailConfirmation === 'required'
          ? 'Account created. Check your e-mail to confirm your address; you can sign in now.'
          : 'Account created. You can sign in now.';
      const confirmationSent = config.emailConfirmation === 'required';
      let created: UserRow | undefined;
      // The account and the answer kept for an Idempotency-Key are one transaction; the mail follows
      // the commit (platform/idempotency.ts): a failed send is logged, and the owner can ask for another.
      return request.answerOnce(
        reply,
        201,
        async (db) => {
          const user = await signUp.create(db);
          created = user;
          return {
            message,
            confirmationSent,
            user: { ...presentUser(user), createdAt: user.createdAt.toISOString() },
          };
        },
        async () => {
          if (created) await signUp.confirm(created);
        },
      );
    },
  );

  app.post(
    '/api/auth/signin',
    {
      config: { auth: 'optional', rateLimit: ['user', 'signin'] },
      schema: {
        tags,
        operationId: 'signIn',
        summary: 'Sign in with e-mail and password',
        security: PUBLIC,
        body: SignInBody,
        response: { 200: SignInResponse, ...errors },
      },
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      const session = await signIn(deps(request), { email, password: request.body.password });
      setSessionCookies(reply, config, session);
      return {
        message: 'Signed in',
        user: presentUser(session.user),
        session: presentSession(session),
      };
    },
  );

  app.post(
    '/api/auth/signout',
    {
      config: { auth: 'optional', rateLimit: ['user', 'signout'] },
      schema: {
        tags,
        operationId: 'signOut',
        summary: 'Sign out: ends the session everywhere and clears the cookies',
        description:
          'Answers 200 with or without a live session. A sign-out that ends no ' +
          'live session counts against the client address like a failed sign-in ' +
          '(RATE_LIMIT_SIGNIN_PER_15MIN_PER_IP in 15 minutes, a bucket of its ' +
          'own): past it, 429.',
        security: SIGNED_IN_OPTIONAL,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request, reply) => {
      const sessionId =
        request.auth.sessionId ??
        (await sessionIdOfRefreshToken(ctx.db, request.cookies[REFRESH_COOKIE] ?? ''));
      const ended = sessionId ? await endSession(ctx.sessions, sessionId) : false;
      request.attemptFailed = !ended;
      clearSessionCookies(reply, config);
      return { message: 'Signed out' };
    },
  );

  app.get(
    '/api/auth/session',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'getSession',
        summary: 'The signed-in user (and, for bearer clients, the session)',
        response: { 200: SessionResponse, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const profile = await findProfile(ctx.db, user.id);
      const presented = { ...presentUser(user), avatarUrl: profile?.avatarUrl ?? null };
      if (request.auth.via === 'bearer' && request.auth.bearerToken) {
        return {
          user: presented,
          session: {
            access_token: request.auth.bearerToken,
            expires_at: request.auth.expiresAt ?? 0,
          },
        };
      }
      return { user: presented };
    },
  );

  app.post(
    '/api/auth/refresh',
    {
      config: { auth: 'optional', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'refreshSession',
        summary: 'Exchange a refresh token for a new session (the old token stops working)',
        description: 'The refresh token comes in the body, else from the refresh_token cookie.',
        security: PUBLIC,
        body: RefreshBody.partial(),
        response: { 200: SignInResponse, ...errors },
      },
    },
    async (request, reply) => {
      const presented = request.body?.refresh_token ?? request.cookies[REFRESH_COOKIE];
      if (!presented)
        throw validationError('refresh_token', 'required', 'refresh_token is required');
      const session = await refreshSession(ctx.sessions, presented);
      if (!request.body?.refresh_token) setSessionCookies(reply, config, session);
      return {
        message: 'Session refreshed',
        user: presentUser(session.user),
        session: presentSession(session),
      };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: { auth: 'optional', rateLimit: ['user', 'passwordReset'] },
      schema: {
        tags,
        operationId: 'requestPasswordReset',
        summary:
          'E-mail a single-use password reset link (answers the same, in the same ' +
          'time, whether or not the address has an account: the mail goes after the reply)',
        security: PUBLIC,
        body: ResetPasswordBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      // Nothing before the reply depends on whether the account exists.
      afterReply(request, reply, 'password reset mail', () =>
        requestPasswordReset(deps(request), { email, redirectTo: request.body.redirectTo }),
      );
      return {
        message: 'If an account exists for this address, a password reset link has been sent.',
      };
    },
  );

  app.post(
    '/api/auth/update-password',
    {
      config: { auth: 'optional', rateLimit: ['user', 'passwordUpdate'] },
      schema: {
        tags,
        operationId: 'updatePassword',
        summary:
          'Set a new password with the e-mailed token, or as the signed-in user (with the current password; the user is mailed “Your password was changed”)',
        security: SIGNED_IN_OPTIONAL,
        body: UpdatePasswordBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const { user } = request.auth;
      await updatePassword(
        deps(request),
        request.body,
        user ? { userId: user.id, sessionId: request.auth.sessionId } : null,
      );
      return { message: 'Password updated' };
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      config: { auth: 'required', rateLimit: ['user', 'passwordUpdate'] },
      schema: {
        tags,
        operationId: 'changePassword',
        summary:
          'Change the signed-in user’s password: ends every session of the user and starts a new one for this client',
        description:
          'Checks `currentPassword` first: a wrong one is 400 (`details.field` ' +
          '`currentPassword`, reason `incorrect`) and counts as a failed sign-in ' +
          '(RATE_LIMIT_SIGNIN_PER_15MIN_*: past it, 429). An account made through ' +
          'Google or GitHub has no password: 400, reason `no_password`; it sets ' +
          'one with the link POST /api/auth/reset-password mails. `newPassword` ' +
          'follows the sign-up rules (the reason names the rule it breaks; ' +
          '`unchanged` when it is the current one). On success every session of ' +
          'the user ends, on every server process; this client gets a new session ' +
          '(new cookies, and for bearer clients the new tokens in `session`), and ' +
          'the user is mailed “Your password was changed”.',
        body: ChangePasswordBody,
        response: { 200: SignInResponse, ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const session = await changePassword(deps(request), user.id, request.body);
      setSessionCookies(reply, config, session);
      return {
        message: 'Password changed. Every other device was signed out.',
        user: presentUser(session.user),
        session: presentSession(session),
      };
    },
  );

  app.post(
    '/api/auth/resend-confirmation',
    {
      config: { auth: 'required', rateLimit: ['user', 'confirmationResend'] },
      schema: {
        tags,
        operationId: 'resendConfirmation',
        summary:
          'Mail the signed-in user a new confirmation link (valid 24 hours; earlier ones keep working until theirs end)',
        description:
          'Counted with password resets: RATE_LIMIT_RESET_PER_HOUR_PER_IP per ' +
          'address and RATE_LIMIT_RESET_PER_HOUR_PER_EMAIL per account. 409 ' +
          '(reason `already_confirmed`) when the address is confirmed.',
        response: { 200: MessageResponse, 409: ErrorResponse, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      await resendConfirmation(deps(request), user.id);
      return { message: `A new confirmation link was sent to ${user.email}.` };
    },
  );

  app.get(
    '/api/auth/confirm',
    {
      config: { auth: 'optional', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'confirmEmail',
        summary: 'Confirm an e-mail address from the link in the confirmation mail',
        description:
          'Redirects to <APP_ORIGIN>/auth/confirmed?status=confirmed (confirmed ' +
          'now), already_confirmed (the link used before, or the address confirmed ' +
          'since), expired (past its 24 hours) or invalid (no such link): the app ' +
          'says which, signed in or not.',
        security: PUBLIC,
        querystring: ConfirmQuery,
        response: { 302: Redirect, 400: ErrorResponse },
        responseHeaders: { 302: ['Location'] },
      },
    },
    async (request, reply) => {
      const outcome = await confirmEmail(deps(request), request.query.token);
      return reply.redirect(`${config.appOrigin}/auth/confirmed?status=${outcome}`, 302);
    },
  );

  registerOAuth(app, ctx);
}

interface OAuthState {
  provider: OAuthProviderId;
  state: string;
  verifier: string;
  /** The app path to return to (checked by safeReturnPath), when the sign-in page had one. */
  next?: string;
}

function registerOAuth(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { config, platform } = ctx;
  const redirectUri = `${config.publicUrl}/auth/callback`;
  const providers = new Map<OAuthProviderId, OAuthProvider>();
  for (const id of ['google', 'github'] as const) {
    const settings = config.oauth[id];
    if (settings)
      providers.set(id, createOAuthProvider(id, settings, redirectUri, platform.outbound));
  }
  // A failure goes back to sign-in, keeping where the user was going (so a password sign-in still returns there).
  const failTo = (reply: FastifyReply, code: string, next: string | null = null) =>
    reply.redirect(
      `${config.appOrigin}/auth/signin?error=${encodeURIComponent(code)}${next ? `&next=${encodeURIComponent(next)}` : ''}`,
      302,
    );

  app.get(
    '/api/auth/:provider',
    {
      config: { auth: 'optional', rateLimit: ['user'] },
      schema: {
        tags: ['auth'],
        operationId: 'startOAuthSignIn',
        summary: 'Start signing in with Google or GitHub (redirects to the provider)',
        description:
          'Answers 302 to the provider, with state and PKCE kept in a signed ' +
          '`oauth_state` cookie (10 minutes). `next`, when it is a path of the app ' +
          'starting with a single `/`, is kept there too, and /auth/callback ' +
          'returns the user to it; any other value is ignored (the user lands on /dashboard).',
        security: PUBLIC,
        params: OAuthParams,
        querystring: OAuthStartQuery,
        response: { 302: Redirect, 400: ErrorResponse },
        responseHeaders: { 302: ['Location'] },
      },
    },
    async (request, reply) => {
      const provider = providers.get(request.params.provider);
      if (!provider) {
        throw new ApiError(
          'VALIDATION_ERROR',
          `OAuth sign-in with ${request.params.provider} is not configured`,
          {
            field: 'provider',
            reason: 'not_configured',
          },
        );
      }
      const state = generateState();
      const verifier = generateCodeVerifier();
      const next = safeReturnPath(request.query.next, config.appOrigin);
      const saved: OAuthState = {
        provider: provider.id,
        state,
        verifier,
        ...(next ? { next } : {}),
      };
      setOAuthStateCookie(reply, config, JSON.stringify(saved));
      return reply.redirect(provider.authorizationUrl(state, verifier).toString(), 302);
    },
  );

  app.get(
    '/auth/callback',
    {
      config: { auth: 'optional', rateLimit: ['user'] },
      schema: {
        tags: ['auth'],
        operationId: 'completeOAuthSignIn',
        summary:
          'OAuth redirect target: exchanges the code, sets the session cookies, redirects to the app',
        description:
          'Redirects to <APP_ORIGIN><next> (the `next` path given to the start ' +
          'route, checked again here) or <APP_ORIGIN>/dashboard, or to ' +
          '<APP_ORIGIN>/auth/signin?error=oauth_denied|oauth_state_mismatch|oauth_not_configured|oauth_account_exists|oauth_failed ' +
          '(with that `next` kept).',
        security: PUBLIC,
        querystring: OAuthCallbackQuery,
        response: { 302: Redirect, 400: ErrorResponse },
        responseHeaders: { 302: ['Location'] },
      },
    },
    async (request, reply) => {
      const raw = request.cookies[OAUTH_STATE_COOKIE];
      clearOAuthStateCookie(reply, config);
      const unsigned = raw ? request.unsignCookie(raw) : null;
      let saved: OAuthState | null;
      try {
        saved =
          unsigned?.valid && unsigned.value ? (JSON.parse(unsigned.value) as OAuthState) : null;
      } catch {
        saved = null;
      }
      const { code, state, error } = request.query;
      // Checked again: the cookie is signed, but a path is only ever used after this check.
      const next = safeReturnPath(saved?.next, config.appOrigin);
      if (error) return failTo(reply, 'oauth_denied', next);
      if (!saved || !code || !state || saved.state !== state)
        return failTo(reply, 'oauth_state_mismatch');
      const provider = providers.get(saved.provider);
      if (!provider) return failTo(reply, 'oauth_not_configured', next);
      try {
        const identity = await provider.identify(code, saved.verifier);
        const user = await userForIdentity(
          {
            db: ctx.db,
            sessions: ctx.sessions,
            mailer: mailerFor(platform.mailTransport, request.log),
            appOrigin: config.appOrigin,
          },
          identity,
        );
        const session = await startSession(ctx.sessions, {
          id: user.id,
          email: user.email,
          name: user.name,
          credentialsVersion: user.credentialsVersion,
        });
        setSessionCookies(reply, config, session);
        return reply.redirect(`${config.appOrigin}${next ?? DEFAULT_RETURN_PATH}`, 302);
      } catch (failure) {
        if (failure instanceof IdentityConflictError)
          return failTo(reply, 'oauth_account_exists', next);
        request.log.warn(
          { provider: saved.provider, err: { message: (failure as Error).message } },
          'oauth sign-in failed',
        );
        return failTo(reply, 'oauth_failed', next);
      }
    },
  );
}
