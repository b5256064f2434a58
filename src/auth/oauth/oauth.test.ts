/**
 * OAuth against a real local OAuth 2.0 / OIDC server (oauth2-mock-server): authorization with state
 * and PKCE, code exchange, user info, account creation and linking by verified e-mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/support/app.js';
import {
  buildUser,
  cookieHeader,
  cookiesFrom,
  uniqueEmail,
  type TestUser,
} from '../../../test/support/factories.js';
import { linkIn, mailWrittenBy } from '../../../test/support/outbox.js';
import { startOAuthProviders, type OAuthProviders } from '../../../test/support/oauth-providers.js';
import { createWorkspace, shareWorkspace } from '../../workspaces/test-support/helpers.js';

let providers: OAuthProviders;

beforeAll(async () => {
  providers = await startOAuthProviders();
});

afterAll(async () => {
  await providers?.stop();
});

async function signInWith(t: TestApp, provider: 'google' | 'github', next?: string) {
  const start = await t.app.inject({
    method: 'GET',
    url: `/api/auth/${provider}`,
    query: next === undefined ? {} : { next },
  });
  expect(start.statusCode).toBe(302);
  const authorize = new URL(start.headers.location as string);
  expect(authorize.origin).toBe(new URL(providers.issuer).origin);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('state')).toBeTruthy();
  expect(authorize.searchParams.get('redirect_uri')).toBe('http://api.test/auth/callback');
  const stateCookie = cookiesFrom(start).oauth_state!;

  const atProvider = await fetch(authorize, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe(authorize.searchParams.get('state'));

  return t.app.inject({
    method: 'GET',
    url: `/auth/callback${back.search}`,
    headers: { cookie: cookieHeader({ oauth_state: stateCookie }) },
  });
}

describe('OAuth sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: providers.env(),
    });
  });
  afterAll(async () => t?.close());

  describe('GET /api/auth/google → /auth/callback', () => {
    it('creates the account, sets session cookies and redirects to the dashboard', async () => {
      const email = uniqueEmail('google');
      providers.nextGoogle({ sub: `g-${email}`, email, email_verified: true, name: 'Gina Google' });
      const callback = await signInWith(t, 'google');
      expect(callback.statusCode).toBe(302);
      expect(callback.headers.location).toBe('http://app.test/dashboard');
      const jar = cookiesFrom(callback);
      expect(jar.access_token).toBeTruthy();
      const session = await t.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { cookie: cookieHeader(jar) },
      });
      expect(session.statusCode).toBe(200);
      expect(session.json().user).toMatchObject({ email, name: 'Gina Google' });

      // The same identity signs in to the same account next time.
      const again = await signInWith(t, 'google');
      const againSession = await t.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { cookie: cookieHeader(cookiesFrom(again)) },
      });
      expect(againSession.json().user.id).toBe(session.json().user.id);
    });

    it('links to an existing password account by verified e-mail', async () => {
      const user = await buildUser(t.app);
      providers.nextGoogle({
        sub: `g-link-${user.id}`,
        email: user.email,
        email_verified: true,
        name: 'Linked',
      });
      const callback = await signInWith(t, 'google');
      const session = await t.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { cookie: cookieHeader(cookiesFrom(callback)) },
      });
      expect(session.json().user.id).toBe(user.id);
    });

    it('does not take over an existing account with an unverified e-mail', async () => {
      const user = await buildUser(t.app);
      providers.nextGoogle({
        sub: `g-unverified-${user.id}`,
        email: user.email,
        email_verified: false,
        name: 'Intruder',
      });
      const callback = await signInWith(t, 'google');
      expect(callback.statusCode).toBe(302);
      expect(callback.headers.location).toBe(
        'http://app.test/auth/signin?error=oauth_account_exists',
      );
      expect(cookiesFrom(callback).access_token).toBeUndefined();
    });

    it('refuses a callback whose state does not match the cookie', async () => {
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
      const stateCookie = cookiesFrom(start).oauth_state!;
      const res = await t.app.inject({
        method: 'GET',
        url: '/auth/callback?code=whatever&state=forged',
        headers: { cookie: cookieHeader({ oauth_state: stateCookie }) },
      });
      expect(res.headers.location).toBe('http://app.test/auth/signin?error=oauth_state_mismatch');
      const noCookie = await t.app.inject({
        method: 'GET',
        url: '/auth/callback?code=whatever&state=forged',
      });
      expect(noCookie.headers.location).toBe(
        'http://app.test/auth/signin?error=oauth_state_mismatch',
      );
    });
  });

  describe('GET /api/auth/{provider}?next=… → /auth/callback', () => {
    it('comes back to the app path the sign-in page was given, with its query', async () => {
      const email = uniqueEmail('next');
      providers.nextGoogle({ sub: `g-${email}`, email, email_verified: true, name: 'Nell Next' });
      const callback = await signInWith(t, 'google', '/workspaces/abc?tab=notes#top');
      expect(callback.statusCode).toBe(302);
      expect(callback.headers.location).toBe('http://app.test/workspaces/abc?tab=notes#top');
      expect(cookiesFrom(callback).access_token).toBeTruthy();

      const github = uniqueEmail('next-octo');
      providers.nextGithub({
        id: Math.floor(Math.random() * 1e9),
        login: 'nextocto',
        name: 'Nat Octo',
        emails: [{ email: github, primary: true, verified: true }],
      });
      const back = await signInWith(t, 'github', '/profile');
      expect(back.headers.location).toBe('http://app.test/profile');
    });

    it.each([
      ['//evil.example', 'a protocol-relative address'],
      ['https://evil.example/dashboard', 'an absolute address'],
      ['/\\evil.example', 'a backslash after the slash'],
      ['/\t/evil.example', 'a tab a browser would drop'],
      ['/%2F/ok\nLocation: https://evil.example', 'a newline'],
      ['dashboard', 'a relative path without its slash'],
      [`/${'a'.repeat(2000)}`, 'a path over 2000 characters'],
    ])('lands on /dashboard for %j (%s), never another origin', async (next) => {
      const email = uniqueEmail('evil');
      providers.nextGoogle({ sub: `g-${email}`, email, email_verified: true, name: 'Eve' });
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/google', query: { next } });
      if (next.length > 2000) {
        // Over the schema's bound: refused outright, before any state is made.
        expect(start.statusCode).toBe(400);
        return;
      }
      const callback = await signInWith(t, 'google', next);
      expect(callback.statusCode).toBe(302);
      expect(callback.headers.location).toBe('http://app.test/dashboard');
    });

    it('keeps `next` on the way back to sign-in when the provider refuses', async () => {
      const start = await t.app.inject({
        method: 'GET',
        url: '/api/auth/google',
        query: { next: '/workspaces/abc' },
      });
      const res = await t.app.inject({
        method: 'GET',
        url: '/auth/callback?error=access_denied',
        headers: { cookie: cookieHeader({ oauth_state: cookiesFrom(start).oauth_state! }) },
      });
      expect(res.headers.location).toBe(
        'http://app.test/auth/signin?error=oauth_denied&next=%2Fworkspaces%2Fabc',
      );
    });
  });

  describe('GET /api/auth/github → /auth/callback', () => {
    it('reads the primary verified e-mail from /user/emails and signs in', async () => {
      const email = uniqueEmail('octo');
      providers.nextGithub({
        id: Math.floor(Math.random() * 1e9),
        login: 'octocat',
        name: 'Mona Octocat',
        emails: [
          { email: 'unverified@example.org', primary: false, verified: false },
          { email, primary: true, verified: true },
        ],
      });
      const seen = providers.githubTokensSeen.length;
      const callback = await signInWith(t, 'github');
      expect(callback.headers.location).toBe('http://app.test/dashboard');
      expect(providers.githubTokensSeen.length).toBe(seen + 2);
      const session = await t.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { cookie: cookieHeader(cookiesFrom(callback)) },
      });
      expect(session.json().user).toMatchObject({ email, name: 'Mona Octocat' });
    });
  });
});

describe('OAuth sign-in onto an account whose address was never confirmed (EMAIL_CONFIRMATION=required)', () => {
  let t: TestApp;
  const session = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/auth/session', headers });
  beforeAll(async () => {
    t = await buildTestApp({
      env: { ...providers.env(), EMAIL_CONFIRMATION: 'required' },
    });
  });
  afterAll(async () => t?.close());

  it("takes the account over: the squatter's password, sessions and share links stop working; the owner keeps the account", async () => {
    // The attacker signs up with the victim's address, never confirms it, signs in and plants a shared workspace.
    const victimEmail = uniqueEmail('victim');
    const attacker = await buildUser(t.app, { email: victimEmail, password: 'squatter-pass-31' });
    const planted = await createWorkspace(t.app, attacker, { name: 'My research' });
    const link = await shareWorkspace(t.app, attacker, planted.id);
    expect((await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).statusCode).toBe(
      200,
    );

    // The victim signs in with Google, whose address is verified.
    providers.nextGoogle({
      sub: `g-victim-${attacker.id}`,
      email: victimEmail,
      email_verified: true,
      name: 'Victoria',
    });
    const callback = await signInWith(t, 'google');
    expect(callback.headers.location).toBe('http://app.test/dashboard');
    const victim = { cookie: cookieHeader(cookiesFrom(callback)) };
    const mine = await session(victim);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().user.id).toBe(attacker.id);

    // Nothing the attacker held works any more.
    const passwordSignIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: victimEmail, password: 'squatter-pass-31' },
    });
    expect(passwordSignIn.statusCode).toBe(401);
    expect((await session(attacker.bearer)).statusCode).toBe(401);
    expect((await session({ cookie: attacker.cookie })).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: attacker.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/share/${link.token}` })).statusCode).toBe(
      404,
    );

    // The owner's session works, and so does the next Google sign-in.
    expect((await session(victim)).statusCode).toBe(200);
    const again = await signInWith(t, 'google');
    expect((await session({ cookie: cookieHeader(cookiesFrom(again)) })).json().user.id).toBe(
      attacker.id,
    );
  });

  it('unlinks an identity that claimed the address unverified, so it no longer signs in to the account', async () => {
    const victimEmail = uniqueEmail('victim2');
    // The attacker's own Google account claims the victim's address without verifying it: an unconfirmed account is made for it.
    providers.nextGoogle({
      sub: `g-squatter-${victimEmail}`,
      email: victimEmail,
      email_verified: false,
      name: 'Squatter',
    });
    const squatted = await signInWith(t, 'google');
    expect(squatted.headers.location).toBe('http://app.test/dashboard');
    const squatterSession = { cookie: cookieHeader(cookiesFrom(squatted)) };
    const accountId = (await session(squatterSession)).json().user.id;

    providers.nextGoogle({
      sub: `g-owner-${victimEmail}`,
      email: victimEmail,
      email_verified: true,
      name: 'Owner',
    });
    const owner = await signInWith(t, 'google');
    expect((await session({ cookie: cookieHeader(cookiesFrom(owner)) })).json().user.id).toBe(
      accountId,
    );
    expect((await session(squatterSession)).statusCode).toBe(401);

    providers.nextGoogle({
      sub: `g-squatter-${victimEmail}`,
      email: victimEmail,
      email_verified: false,
      name: 'Squatter',
    });
    const retry = await signInWith(t, 'google');
    expect(retry.headers.location).toBe('http://app.test/auth/signin?error=oauth_account_exists');
    expect(cookiesFrom(retry).access_token).toBeUndefined();
  });

  it("a password reset by the address's owner claims the account the same way: an identity that claimed the address unverified is unlinked", async () => {
    const victimEmail = uniqueEmail('victim3');
    providers.nextGoogle({
      sub: `g-squatter-${victimEmail}`,
      email: victimEmail,
      email_verified: false,
      name: 'Squatter',
    });
    const squatted = await signInWith(t, 'google');
    const squatterSession = { cookie: cookieHeader(cookiesFrom(squatted)) };
    const accountId = (await session(squatterSession)).json().user.id;
    const planted = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: { ...squatterSession, origin: 'http://app.test' },
      payload: { name: 'Shared' },
    });
    const workspaceId = planted.json().id as string;
    const shared = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspaceId}/share`,
      headers: { ...squatterSession, origin: 'http://app.test' },
      payload: {},
    });
    const shareToken = shared.json().token as string;

    // The owner of the mailbox resets the password.
    const mail = await mailWrittenBy(t.dataDir, () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { email: victimEmail },
      }),
    );
    const token = new URL(
      linkIn(mail, /http:\/\/app\.test\/auth\/update-password\?token=[A-Za-z0-9_-]+/),
    ).searchParams.get('token')!;
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/update-password',
          payload: { token, password: 'owner-pass-after-7' },
        })
      ).statusCode,
    ).toBe(200);

    expect((await session(squatterSession)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/share/${shareToken}` })).statusCode).toBe(
      404,
    );
    const retry = await signInWith(t, 'google');
    expect(retry.headers.location).toBe('http://app.test/auth/signin?error=oauth_account_exists');
    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: victimEmail, password: 'owner-pass-after-7' },
    });
    expect(owner.json().user.id).toBe(accountId);
    // The address now counts as confirmed: the owner's own Google sign-in links without removing the password.
    providers.nextGoogle({
      sub: `g-owner3-${victimEmail}`,
      email: victimEmail,
      email_verified: true,
      name: 'Owner',
    });
    await signInWith(t, 'google');
    const stillWorks = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: victimEmail, password: 'owner-pass-after-7' },
    });
    expect(stillWorks.statusCode).toBe(200);
  });

  it('links to a confirmed account and leaves its password and sessions alone', async () => {
    let user!: TestUser;
    const mail = await mailWrittenBy(t.dataDir, async () => {
      user = await buildUser(t.app);
    });
    const confirm = await t.app.inject({
      method: 'GET',
      url: linkIn(mail, /\/api\/auth\/confirm\?token=[A-Za-z0-9_-]+/),
    });
    expect(confirm.headers.location).toBe('http://app.test/auth/confirmed?status=confirmed');
    providers.nextGoogle({
      sub: `g-confirmed-${user.id}`,
      email: user.email,
      email_verified: true,
      name: 'Confirmed',
    });
    const callback = await signInWith(t, 'google');
    expect((await session({ cookie: cookieHeader(cookiesFrom(callback)) })).json().user.id).toBe(
      user.id,
    );
    expect((await session(user.bearer)).statusCode).toBe(200);
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: user.email, password: user.password },
    });
    expect(signin.statusCode).toBe(200);
  });

  it('an account without a password cannot set one with its session alone (400 naming currentPassword); a reset link sets it', async () => {
    const email = uniqueEmail('oauth-only');
    providers.nextGoogle({
      sub: `g-only-${email}`,
      email,
      email_verified: true,
      name: 'Only Google',
    });
    const callback = await signInWith(t, 'google');
    const cookies = { cookie: cookieHeader(cookiesFrom(callback)), origin: 'http://app.test' };
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/auth/update-password',
      headers: cookies,
      payload: { password: 'first-own-pass-4' },
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().error.details).toEqual({
      field: 'currentPassword',
      reason: 'no_password',
    });

    const mail = await mailWrittenBy(t.dataDir, () =>
      t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { email } }),
    );
    const token = new URL(
      linkIn(mail, /http:\/\/app\.test\/auth\/update-password\?token=[A-Za-z0-9_-]+/),
    ).searchParams.get('token')!;
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/update-password',
      payload: { token, password: 'first-own-pass-4' },
    });
    expect(reset.statusCode).toBe(200);
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email, password: 'first-own-pass-4' },
    });
    expect(signin.statusCode).toBe(200);
  });
});

describe('OAuth not configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it.each(['google', 'github'])(
    'GET /api/auth/%s answers 400 "not configured"',
    async (provider) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/auth/${provider}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/not configured/);
      expect(res.json().error.details).toEqual({ field: 'provider', reason: 'not_configured' });
    },
  );

  it('answers 400 naming the provider for an unknown one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/myspace' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.field).toBe('provider');
  });
});
