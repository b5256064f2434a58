/** The one place that sets and clears session cookies (HttpOnly, SameSite=Lax, Secure in production). */
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.js';
import { REFRESH_TOKEN_TTL_SECONDS } from './sessions.js';

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';
export const ANONYMOUS_COOKIE = 'anon_session';
export const OAUTH_STATE_COOKIE = 'oauth_state';
/**
 * `signed_in=1`, readable by the web app's script (not HttpOnly), set and cleared with the session
 * cookies: a hint, never a credential. The app asks GET /api/auth/session only when it is there, so a
 * signed-out visit makes no request that can only fail (a 401 a browser's console shows as an error).
 */
const SIGNED_IN_HINT_COOKIE = 'signed_in';

const base = (config: Config) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/',
  secure: config.secureCookies,
});

export function setSessionCookies(
  reply: FastifyReply,
  config: Config,
  session: { accessToken: string; expiresAt: number; refreshToken: string },
): void {
  // The access cookie outlives its JWT so that an expired token still arrives and triggers a refresh.
  void reply.setCookie(ACCESS_COOKIE, session.accessToken, {
    ...base(config),
    maxAge: REFRESH_TOKEN_TTL_SECONDS,
  });
  void reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
    ...base(config),
    maxAge: REFRESH_TOKEN_TTL_SECONDS,
  });
  void reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', {
    ...base(config),
    httpOnly: false,
    maxAge: REFRESH_TOKEN_TTL_SECONDS,
  });
}

export function clearSessionCookies(reply: FastifyReply, config: Config): void {
  void reply.clearCookie(ACCESS_COOKIE, base(config));
  void reply.clearCookie(REFRESH_COOKIE, base(config));
  void reply.clearCookie(SIGNED_IN_HINT_COOKIE, { ...base(config), httpOnly: false });
}

export function setAnonymousCookie(reply: FastifyReply, config: Config, id: string): void {
  void reply.setCookie(ANONYMOUS_COOKIE, id, { ...base(config), maxAge: 365 * 24 * 3600 });
}

export function setOAuthStateCookie(reply: FastifyReply, config: Config, value: string): void {
  void reply.setCookie(OAUTH_STATE_COOKIE, value, { ...base(config), maxAge: 600, signed: true });
}

export function clearOAuthStateCookie(reply: FastifyReply, config: Config): void {
  void reply.clearCookie(OAUTH_STATE_COOKIE, base(config));
}
