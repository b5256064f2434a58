/**
 * Accounts in the web app, in Chromium against the real service: sign up (the spec's password rules
 * and a taken e-mail shown at their field), sign in with a wrong password ("Invalid login
 * credentials"), sign out, a protected page visited signed out → sign-in → back to that page, forgot
 * password through the outbox's mail → /auth/update-password?token=… → sign in with the new
 * password, and an OAuth provider that is not configured. Each page passes axe in light and dark at
 * 390×844 and 1280×800, and is photographed.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { expiredAccessToken, type TestUser } from '../support/factories.js';
import { linkIn, mailWrittenBy } from '../support/outbox.js';
import {
  auditPage,
  launchChromium,
  newContext,
  newCredentials,
  signInThroughApp,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type Credentials,
  type WebServer,
} from '../support/web-browser.js';

const SIGNIN_ATTEMPTS_PER_EMAIL = 3;

describe.skipIf(webSkipReason)(
  'accounts in the web app (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let pageErrors: string[];

    beforeAll(async () => {
      // A low per-e-mail sign-in limit, so that one test can meet the 429.
      server = await startWebServer({
        env: { RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL: String(SIGNIN_ATTEMPTS_PER_EMAIL) },
      });
      browser = await launchChromium();
    }, 240_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });
    beforeEach(async () => {
      context = await newContext(browser, server.base);
      page = await context.newPage();
      pageErrors = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
    });
    afterEach(async () => {
      await context?.close();
      expect(pageErrors).toEqual([]);
    });

    const heading = () => page.getByRole('heading', { level: 1 });
    const alertText = async () => (await page.getByRole('alert').allTextContents()).join(' ');
    /** An account made and signed in through the API: set-up for the tests whose subject is not sign-up (the first test's is). */
    const signedUp = (credentials: Credentials): Promise<void> =>
      signUpThroughApi(context, server.base, credentials);

    it('signs up, shows the password rules and a taken e-mail at their fields', async () => {
      const credentials = newCredentials('signup');
      await page.goto('/auth/signup');
      await expect.poll(() => heading().textContent()).toBe('Create your account');
      expect(await auditPage(page, 'signup')).toEqual({});

      await page.getByLabel('Name').fill(credentials.name);
      await page.getByLabel('Email').fill(credentials.email);
      await page.getByLabel('Password').fill('1234567');
      await page.getByRole('button', { name: 'Sign up' }).click();
      const password = page.getByLabel('Password');
      await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
      const passwordError = await page.locator('.field-invalid .field-error').textContent();
      expect(passwordError).toMatch(/8 characters/i);
      expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBeNull();

      await password.fill('password');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect
        .poll(() => page.locator('.field-invalid .field-error').textContent())
        .toMatch(/common/i);

      await password.fill(credentials.password);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL('**/dashboard');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();

      // The same e-mail again, from a signed-out browser: the Email field says it is taken.
      const other = await newContext(browser, server.base);
      const second = await other.newPage();
      await second.goto('/auth/signup');
      await second.getByLabel('Email').fill(credentials.email);
      await second.getByLabel('Password').fill(`${credentials.password}-2`);
      await second.getByRole('button', { name: 'Sign up' }).click();
      await expect.poll(() => second.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
      expect(await second.locator('.field-invalid .field-error').textContent()).toBe(
        'A user with this e-mail address already exists',
      );
      await other.close();
    });

    it('says "Invalid login credentials" for a wrong password, and signs in with the right one', async () => {
      const credentials = newCredentials('signin');
      await signedUp(credentials);
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL('**/auth/signin');

      await page.getByLabel('Email').fill(credentials.email);
      await page.getByLabel('Password').fill('not-the-password-at-all');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(alertText).toContain('Invalid login credentials');
      expect(await auditPage(page, 'signin-error')).toEqual({});

      await page.getByLabel('Password').fill(credentials.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/dashboard');
    });

    it('signs out: the session ends server-side and protected pages send the visitor to sign in', async () => {
      const credentials = newCredentials('signout');
      await signedUp(credentials);
      await page.goto('/dashboard');
      expect((await page.request.get('/api/auth/session')).status()).toBe(200);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL('**/auth/signin');
      await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
      expect((await page.request.get('/api/auth/session')).status()).toBe(401);
      await page.goto('/profile');
      await page.waitForURL('**/auth/signin?next=%2Fprofile');
    });

    it('shows a visitor Sign in and Sign up in the header on every page, and neither once signed in', async () => {
      const header = () => page.getByRole('banner');
      await page.goto('/');
      await header().getByRole('link', { name: 'Sign up' }).waitFor();
      expect(await header().getByRole('link', { name: 'Sign in' }).count()).toBe(1);
      await header().getByRole('link', { name: 'Sign up' }).click();
      await page.waitForURL((url) => url.pathname === '/auth/signup');
      await expect.poll(() => heading().textContent()).toBe('Create your account');
      await header().getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      await expect.poll(() => heading().textContent()).toBe('Sign in');

      await signedUp(newCredentials('header'));
      await page.goto('/dashboard');
      await header().getByRole('button', { name: 'Sign out' }).waitFor();
      expect(await header().getByRole('link', { name: 'Sign in' }).count()).toBe(0);
      expect(await header().getByRole('link', { name: 'Sign up' }).count()).toBe(0);
    });

    it('sends a signed-out visitor of a protected page to sign in, and back to that page (with its query) after', async () => {
      const credentials = newCredentials('guard');
      await signedUp(credentials);
      await context.clearCookies();

      await page.goto('/analytics?period=week');
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      expect(new URL(page.url()).searchParams.get('next')).toBe('/analytics?period=week');
      await expect.poll(() => heading().textContent()).toBe('Sign in');
      expect(await auditPage(page, 'signin')).toEqual({});

      await page.getByLabel('Email').fill(credentials.email);
      await page.getByLabel('Password').fill(credentials.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/analytics');
      expect(new URL(page.url()).search).toBe('?period=week');
      await expect.poll(() => heading().textContent()).toBe('Analytics');
    });

    it('resets a forgotten password through the mailed link, which lands on /auth/update-password?token=…', async () => {
      const credentials = newCredentials('reset');
      await signedUp(credentials);
      await context.clearCookies();

      await page.goto('/auth/signin');
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.waitForURL('**/auth/forgot-password');
      expect(await auditPage(page, 'forgot-password')).toEqual({});
      await page.getByLabel('Email').fill(credentials.email);
      const mail = await mailWrittenBy(server.t.dataDir, async () => {
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await expect
          .poll(() => page.getByRole('status').allTextContents())
          .toEqual(
            expect.arrayContaining([expect.stringContaining('password reset link has been sent')]),
          );
      });
      const link = linkIn(
        mail,
        /http:\/\/127\.0\.0\.1:\d+\/auth\/update-password\?token=[A-Za-z0-9_-]+/,
      );
      expect(new URL(link).origin).toBe(server.base);

      await page.goto(link);
      await expect.poll(() => heading().textContent()).toBe('Choose a new password');
      expect(await auditPage(page, 'update-password')).toEqual({});
      const fresh = `${credentials.password}-renewed`;
      await page.getByLabel('Password').fill(fresh);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.waitForURL('**/auth/signin?reset=1');
      await page.getByText('Your password was changed').waitFor();

      // The old password no longer works; the new one does.
      await page.getByLabel('Email').fill(credentials.email);
      await page.getByLabel('Password').fill(credentials.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(alertText).toContain('Invalid login credentials');
      await signInThroughApp(page, { email: credentials.email, password: fresh });
      expect(new URL(page.url()).pathname).toBe('/dashboard');

      // The link is single-use.
      await context.clearCookies();
      await page.goto(link);
      await page.getByLabel('Password').fill(`${fresh}-again`);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await expect.poll(alertText).toMatch(/invalid|expired|used/i);
    });

    it('says clearly when Google or GitHub sign-in is not configured', async () => {
      await page.goto('/auth/signin');
      await page.getByRole('button', { name: 'Continue with Google' }).click();
      await expect
        .poll(alertText)
        .toContain('Sign-in with Google is not configured on this server');
      expect(new URL(page.url()).pathname).toBe('/auth/signin');
      await page.getByRole('button', { name: 'Continue with GitHub' }).click();
      await expect
        .poll(alertText)
        .toContain('Sign-in with GitHub is not configured on this server');
    });

    it('refreshes an expired session without the user noticing', async () => {
      const credentials = newCredentials('expired');
      await signedUp(credentials);
      const { user } = (await (
        await page.request.get('/api/auth/session')
      ).json()) as ApiSchema<'CookieSession'>;
      const expired = await expiredAccessToken(server.t.app, {
        id: user.id,
        email: credentials.email,
        name: credentials.name,
      } as TestUser);
      await context.addCookies([
        { name: 'access_token', value: expired, url: server.base, httpOnly: true, sameSite: 'Lax' },
      ]);

      await page.goto('/profile');
      await expect.poll(() => page.getByLabel('Display name').inputValue()).toBe(credentials.name);
      expect(new URL(page.url()).pathname).toBe('/profile');
      const access = (await context.cookies()).find((cookie) => cookie.name === 'access_token');
      expect(access?.value).toBeTruthy();
      expect(access?.value).not.toBe(expired);
    });

    it('sends the user to sign in (and back) when the session has ended under an open page', async () => {
      const credentials = newCredentials('ended');
      await signedUp(credentials);
      await page.goto('/profile');
      const toggle = page.getByLabel('News and product e-mails');
      await toggle.waitFor();
      await context.clearCookies();
      await toggle.click();
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      expect(new URL(page.url()).searchParams.get('next')).toBe('/profile');
      await page.getByLabel('Email').fill(credentials.email);
      await page.getByLabel('Password').fill(credentials.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/profile');
    });

    it('says when to try again after too many sign-in attempts (429, Retry-After)', async () => {
      const credentials = newCredentials('limited');
      await signedUp(credentials);
      await context.clearCookies();
      await page.goto('/auth/signin');
      await page.getByLabel('Email').fill(credentials.email);
      for (let attempt = 1; attempt <= SIGNIN_ATTEMPTS_PER_EMAIL; attempt += 1) {
        await page.getByLabel('Password').fill(`wrong-${attempt}-password`);
        const answered = page.waitForResponse((response) =>
          response.url().endsWith('/api/auth/signin'),
        );
        await page.getByRole('button', { name: 'Sign in' }).click();
        expect((await answered).status()).toBe(401);
      }
      await page.getByLabel('Password').fill(credentials.password);
      const refused = page.waitForResponse((response) =>
        response.url().endsWith('/api/auth/signin'),
      );
      await page.getByRole('button', { name: 'Sign in' }).click();
      const response = await refused;
      expect(response.status()).toBe(429);
      const retryAfter = Number(response.headers()['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      await expect.poll(alertText).toMatch(/Try again in \d+ (second|minute)s?\./);
      expect(new URL(page.url()).pathname).toBe('/auth/signin');
    });
  },
);
