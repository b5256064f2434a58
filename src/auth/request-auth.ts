/**
 * Who is asking: resolves every request's identity (bearer token, session cookies with transparent
 * refresh, or an anonymous visitor cookie), enforces the origin rule for cookie-authenticated state
 * changes. It counts nothing: a signed-in user's hourly limit is one the routes declare
 * (rate-limits.ts, `user`). The request chain (request-chain.ts) runs it first on every route.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { allowedOrigins, type Config } from '../config.js';
import type { Dialect } from '../platform/dialect.js';
import { authenticationError, authorizationError } from '../platform/errors.js';
import type { AccessTokenIssuer, VerifiedAccess } from './access-tokens.js';
import {
  ACCESS_COOKIE,
  ANONYMOUS_COOKIE,
  REFRESH_COOKIE,
  clearSessionCookies,
  setAnonymousCookie,
  setSessionCookies,
} from './cookies.js';
import {
  endReasonOf,
  refreshSession,
  userOfRefreshToken,
  type SessionDeps,
  type SessionEndReason,
  type SessionUser,
} from './sessions.js';

export interface RequestAuth {
  user: SessionUser | null;
  /** How the user proved who they are: decides the response dialect (bearer → Variant B). */
  via: 'bearer' | 'cookie' | null;
  sessionId: string | null;
  /** The bearer token as presented (echoed by the session endpoint). */
  bearerToken: string | null;
  /** The bearer token's expiry (epoch seconds), echoed by the session endpoint. */
  expiresAt: number | null;
  /** A visitor's anonymous session id (rate limits and analytics key on it). */
  anonymousId: string | null;
  /** Why a presented bearer token did not sign the request in (named in the 401's challenge). */
  tokenProblem: TokenProblem | null;
  /** Why the session of the cookies presented has ended (the 401's `details.reason`), so the app can say why. */
  sessionEnded: SessionEndReason | null;
}

type TokenProblem = 'expired' | 'revoked' | 'invalid';

const TOKEN_PROBLEMS: Record<TokenProblem, string> = {
  expired: 'The access token expired',
  revoked: 'The access token was revoked',
  invalid: 'The access token is invalid',
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
  }
  interface FastifyContextConfig {
    /** Public pages that must not set cookies (the share page). */
    noCookies?: boolean;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RequestAuthOptions {
  config: Config;
  sessions: SessionDeps;
  tokens: AccessTokenIssuer;
}

/**
 * The origin a request says it comes from: its `Origin` whenever it has one, `Referer` only when it has
 * none. `Origin: null` (a sandboxed frame, a data: URL, a cross-origin redirect) is an origin of its
 * own and never the app's, whatever `Referer` claims.
 */
function originOf(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (origin !== undefined) return origin;
  const referer = request.headers.referer;
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

const HOST_HEADER = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

/**
 * The origin the request was sent to: the scheme it arrived by (X-Forwarded-Proto when a trusted proxy
 * says so, else the connection's) and its Host (X-Forwarded-Host from a trusted proxy). A page served by
 * this service at any address (127.0.0.1, a LAN name) sends that address as its Origin. A browser never
 * lets a page choose the Host it sends, so a cross-site page's Origin cannot match: Origin == own origin
 * is same-origin, and every other origin must still be one the service trusts (config.allowedOrigins).
 */
function ownOriginOf(request: FastifyRequest): string | null {
  const protocol = request.protocol;
  const host = request.host;
  if ((protocol !== 'http' && protocol !== 'https') || !HOST_HEADER.test(host)) return null;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * The signed-in user, else a 401 whose challenge tells a client with no token (plain `Bearer`) from
 * one whose token failed (RFC 6750 `invalid_token`, saying why), so that it knows to refresh.
 */
export function requireUser(request: FastifyRequest): SessionUser {
  if (request.auth.user) return request.auth.user;
  const problem = request.auth.tokenProblem;
  const ended = request.auth.sessionEnded;
  if (ended)
    throw authenticationError('Your session has ended; sign in again', 'Bearer', { reason: ended });
  if (!problem) throw authenticationError();
  const description = TOKEN_PROBLEMS[problem];
  throw authenticationError(
    description,
    `Bearer error="invalid_token", error_description="${description}"`,
  );
}

/** The key rate limits and analytics use for whoever is asking: the user, else the visitor's session, else the address. */
export function requesterKey(request: FastifyRequest): string {
  if (request.auth.user) return `user:${request.auth.user.id}`;
  if (request.auth.anonymousId) return `anon:${request.auth.anonymousId}`;
  return `ip:${request.ip}`;
}

/**
 * Whether a verified access token's session still holds. Whether it has ended is PostgreSQL's answer,
 * and every process hears a sign-out at once (auth/revocations.ts), whatever Redis does.
 */
async function sessionHolds(options: RequestAuthOptions, claims: VerifiedAccess): Promise<boolean> {
  return !(await options.sessions.revocations.isRevoked(claims.sessionId));
}

function signIn(request: FastifyRequest, claims: VerifiedAccess, via: 'bearer' | 'cookie'): void {
  request.auth.user = { id: claims.userId, email: claims.email, name: claims.name };
  request.auth.via = via;
  request.auth.sessionId = claims.sessionId;
}

async function resolveBearer(
  request: FastifyRequest,
  token: string,
  options: RequestAuthOptions,
): Promise<void> {
  const claims = await options.tokens.verify(token);
  if (!claims || claims === 'expired') {
    request.auth.tokenProblem = claims ? 'expired' : 'invalid';
    return;
  }
  if (!(await sessionHolds(options, claims))) {
    request.auth.tokenProblem = 'revoked';
    return;
  }
  signIn(request, claims, 'bearer');
  request.auth.bearerToken = token;
  request.auth.expiresAt = claims.expiresAt;
}

async function resolveCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  options: RequestAuthOptions,
): Promise<void> {
  const access = request.cookies[ACCESS_COOKIE];
  const refresh = request.cookies[REFRESH_COOKIE];
  if (access) {
    const claims = await options.tokens.verify(access);
    if (claims && claims !== 'expired' && (await sessionHolds(options, claims))) {
      signIn(request, claims, 'cookie');
      return;
    }
  }
  if (!refresh) {
    if (access) {
      clearSessionCookies(reply, options.config);
      request.auth.sessionEnded = 'unknown';
    }
    return;
  }
  try {
    const session = await refreshSession(options.sessions, refresh);
    setSessionCookies(reply, options.config, session);
    request.auth.user = session.user;
    request.auth.via = 'cookie';
    request.auth.sessionId = session.sessionId;
  } catch (failure) {
    clearSessionCookies(reply, options.config);
    request.auth.sessionEnded = endReasonOf(failure);
  }
}

/**
 * Resolves who asks and sets `request.auth`: the user of a bearer token or of the session cookies
 * (refreshed when the access cookie has expired), else a visitor with an anonymous session. The request
 * chain (request-chain.ts) calls it first for every route.
 */
export function createAuthentication(options: RequestAuthOptions) {
  const origins = allowedOrigins(options.config);
  const isCrossOriginChange = (request: FastifyRequest) => {
    if (!UNSAFE_METHODS.has(request.method)) return false;
    const origin = originOf(request);
    if (!origin) return true;
    return !origins.has(origin) && origin !== ownOriginOf(request);
  };

  /** A visitor without a session: their anonymous cookie is read, or one is given (never on noCookies routes). */
  const recognizeVisitor = (
    request: FastifyRequest,
    reply: FastifyReply,
    noCookies: boolean,
  ): void => {
    if (request.auth.user || noCookies || !request.url.startsWith('/api/')) return;
    const existing = request.cookies[ANONYMOUS_COOKIE];
    if (existing && /^[0-9a-f-]{36}$/.test(existing)) {
      request.auth.anonymousId = existing;
    } else {
      setAnonymousCookie(reply, options.config, randomUUID());
    }
  };

  /**
   * A visitor, whatever the request presents: routes that say `auth: 'none'`. Synchronous, so that
   * the request chain runs it as a callback hook (no promise per request).
   */
  const asVisitor = (request: FastifyRequest, reply: FastifyReply, noCookies: boolean): void => {
    request.auth = {
      user: null,
      via: null,
      sessionId: null,
      bearerToken: null,
      expiresAt: null,
      anonymousId: null,
      tokenProblem: null,
      sessionEnded: null,
    };
    recognizeVisitor(request, reply, noCookies);
  };

  /** `readCredentials: false` (routes that say `auth: 'none'`): the request is a visitor's, whatever it presents. */
  const authenticate = async (
    request: FastifyRequest,
    reply: FastifyReply,
    noCookies: boolean,
    readCredentials: boolean,
  ): Promise<void> => {
    request.auth = {
      user: null,
      via: null,
      sessionId: null,
      bearerToken: null,
      expiresAt: null,
      anonymousId: null,
      tokenProblem: null,
      sessionEnded: null,
    };
    if (readCredentials) {
      const header = request.headers.authorization;
      if (header?.startsWith('Bearer ')) {
        await resolveBearer(request, header.slice(7).trim(), options);
      } else if (
        !noCookies &&
        (request.cookies[ACCESS_COOKIE] || request.cookies[REFRESH_COOKIE])
      ) {
        await resolveCookies(request, reply, options);
        if (request.auth.via === 'cookie' && isCrossOriginChange(request))
          throw authorizationError('Cross-origin request refused');
      }
    }
    recognizeVisitor(request, reply, noCookies);
  };
  return { authenticate, asVisitor };
}

/**
 * The user whose session the request's cookies belong to, if it has not ended, read without
 * refreshing, rotating or setting anything: for public pages that set no cookies (the share page offers
 * a signed-in visitor to join). A hint of what to offer, never a sign-in: whatever it offers signs the
 * request in again.
 */
export async function userOfSessionCookies(
  request: FastifyRequest,
  sessions: SessionDeps,
): Promise<string | null> {
  const access = request.cookies[ACCESS_COOKIE];
  if (access) {
    const claims = await sessions.tokens.verify(access);
    if (claims && claims !== 'expired')
      return (await sessions.revocations.isRevoked(claims.sessionId)) ? null : claims.userId;
  }
  const refresh = request.cookies[REFRESH_COOKIE];
  return refresh ? userOfRefreshToken(sessions.db, refresh) : null;
}

/** Signed-in requests answered in Variant B (bearer) or Variant A (cookies), (docs/design.md, Dialects). */
export function dialectOf(request: FastifyRequest): Dialect {
  return request.auth.via === 'bearer' ? 'B' : 'A';
}
