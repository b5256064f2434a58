/** Factories for tests: users signed in by bearer token and by cookies. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import type { ApiSchema } from './api-types.js';

export const APP_ORIGIN = 'http://app.test';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  /** `Cookie` header value carrying the session cookies. */
  cookie: string;
  bearer: { authorization: string };
  /** Headers for a cookie-authenticated state change from the app's origin. */
  cookieHeaders: { cookie: string; origin: string };
}

/** name=value pairs of every Set-Cookie in a response, joined for a Cookie header. */
export function cookiesFrom(response: LightMyRequestResponse): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const c of response.cookies) jar[c.name] = c.value;
  return jar;
}

export function cookieHeader(jar: Record<string, string>): string {
  return Object.entries(jar)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.org`;
}

export async function buildUser(
  app: FastifyInstance,
  overrides: { email?: string; name?: string; password?: string } = {},
): Promise<TestUser> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'tidal-quasar-42';
  const name = overrides.name ?? 'Ada Researcher';
  const signup = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { email, password, name },
  });
  if (signup.statusCode !== 201)
    throw new Error(`signup failed: ${signup.statusCode} ${signup.body}`);
  const signin = await app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { email, password },
  });
  if (signin.statusCode !== 200)
    throw new Error(`signin failed: ${signin.statusCode} ${signin.body}`);
  const body = signin.json<ApiSchema<'SignInResult'>>();
  const jar = cookiesFrom(signin);
  const cookie = cookieHeader({
    access_token: jar.access_token!,
    refresh_token: jar.refresh_token!,
  });
  return {
    id: body.user.id,
    email: email.toLowerCase(),
    name,
    password,
    accessToken: body.session.access_token,
    refreshToken: body.session.refresh_token,
    cookie,
    bearer: { authorization: `Bearer ${body.session.access_token}` },
    cookieHeaders: { cookie, origin: APP_ORIGIN },
  };
}

/** An access token for `user` signed with the app's secret that expired an hour ago. */
export async function expiredAccessToken(
  app: FastifyInstance,
  user: TestUser,
  sessionId = 'expired-session',
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: user.email, name: user.name, sid: sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setIssuer('research-workspace')
    .setAudience('authenticated')
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 3600)
    .sign(new TextEncoder().encode(app.ctx.platform.signingSecret));
}
