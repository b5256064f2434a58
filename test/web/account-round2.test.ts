/**
 * Accounts in the web app, round two (issue 23: 8, 9, 13, 14, 16), in Chromium against the real
 * service with EMAIL_CONFIRMATION=required: signed-out pages make no failing request (the console
 * stays clean) and an empty sign-up form flags every required field at once; after sign-up "check
 * your inbox" names the address and sends the link again, and the link, used twice, says confirmed
 * then already confirmed; a session ended in another tab or by a password change elsewhere sends the
 * page to sign-in saying why, and an address cannot make it say anything else; an unknown workspace
 * is "not found" with a way back; a reset pauses the owner's share link, which they resume.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { linkIn, mailWrittenBy } from '../support/outbox.js';
import {
  auditPage,
  launchChromium,
  newContext,
  newCredentials,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type Credentials,
  type WebServer,
} from '../support/web-browser.js';

describe.skipIf(webSkipReason)(
  'accounts in the web app, round two (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;

    beforeAll(async () => {
      server = await startWebServer({ env: { EMAIL_CONFIRMATION: 'required' } });
      browser = await launchChromium();
    }, 240_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    /** A fresh context and page whose console errors and page errors are collected. */
    async function open(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
      const context = await newContext(browser, server.base);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message: ConsoleMessage) => {
        if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      return { context, page, errors };
    }

    const heading = (page: Page) => page.getByRole('heading', { level: 1 });
    /** The API as a signed-in user of its own (another device): signs in and returns its bearer header. */
    async function elsewhere(
      credentials: Pick<Credentials, 'email' | 'password'>,
    ): Promise<{ authorization: string }> {
      const res = await server.t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: credentials.email, password: credentials.password },
      });
      expect(res.statusCode).toBe(200);
      return {
        authorization: `Bearer ${res.json<ApiSchema<'SignInResult'>>().session.access_token}`,
      };
    }

    it('signed-out pages log no error, an empty sign-up form flags every required field, and sign-up says to check the inbox', async () => {
      const { context, page, errors } = await open();
      for (const [path, title] of [
        ['/auth/signin', 'Sign in'],
        ['/auth/forgot-password', 'Reset your password'],
        ['/auth/confirmed?status=expired', 'This confirmation link has expired'],
        ['/dashboard', 'Sign in'],
        ['/auth/signup', 'Create your account'],
      ] as const) {
        await page.goto(path);
        await expect.poll(() => heading(page).textContent()).toBe(title);
      }

      await page.getByRole('button', { name: 'Sign up' }).click();
      const email = page.getByLabel('Email');
      const password = page.getByLabel('Password');
      await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      const messages = await page.locator('.field-error').allTextContents();
      expect(messages).toHaveLength(2);
      expect(messages.join(' ')).toMatch(/e-mail/i);
      expect(messages.join(' ')).toMatch(/password/i);
      // Focus goes to the first field at fault.
      expect(
        await page.evaluate(
          () =>
            (globalThis as unknown as { document: { activeElement: { id: string } | null } })
              .document.activeElement?.id,
        ),
      ).toBe(await email.getAttribute('id'));
      expect(errors).toEqual([]);

      // Sign-up with confirmation required: the next page names the address and sends the link again.
      const credentials = newCredentials('confirm');
      await page.getByLabel('Name').fill(credentials.name);
      await email.fill(credentials.email);
      await password.fill(credentials.password);
      const firstMail = await mailWrittenBy(server.t.dataDir, async () => {
        await page.getByRole('button', { name: 'Sign up' }).click();
        await page.waitForURL((url) => url.pathname === '/auth/check-inbox');
      });
      expect(firstMail).toContain(credentials.email);
      await expect.poll(() => heading(page).textContent()).toBe('Check your inbox');
      expect(await page.getByRole('status').first().textContent()).toContain(credentials.email);
      expect(await auditPage(page, 'check-inbox')).toEqual({});
      const again = await mailWrittenBy(server.t.dataDir, async () => {
        await page.getByRole('button', { name: 'Send the link again' }).click();
        await page.getByText(`A new confirmation link was sent to ${credentials.email}.`).waitFor();
      });
      const link = linkIn(
        again,
        /http:\/\/127\.0\.0\.1:\d+\/api\/auth\/confirm\?token=[A-Za-z0-9_-]+/,
      );

      // The link lands on a page that says what it did, signed in or not; used again, that it was already.
      await page.goto(link);
      await expect.poll(() => heading(page).textContent()).toBe('Your e-mail address is confirmed');
      expect(new URL(page.url()).pathname).toBe('/auth/confirmed');
      await page.goto(link);
      await expect
        .poll(() => heading(page).textContent())
        .toBe('Your address was already confirmed');
      await page.getByRole('link', { name: 'Go to search' }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });

    it('says why the session ended: signed out in another tab, the password changed elsewhere; never words from the address', async () => {
      const { context, page, errors } = await open();
      const credentials = newCredentials('ended');
      await signUpThroughApi(context, server.base, credentials);
      await page.goto('/workspaces');
      await expect.poll(() => heading(page).textContent()).toBe('Workspaces');
      const other = await context.newPage();
      await other.goto('/profile');
      await other.getByRole('button', { name: 'Sign out' }).click();
      await other.waitForURL((url) => url.pathname === '/auth/signin');
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      expect(new URL(page.url()).searchParams.get('next')).toBe('/workspaces');
      await page.getByText('You were signed out, in this tab or another one.').waitFor();
      await other.close();

      // Signed in again here; the password is changed on another device: the next request says so.
      await page.getByLabel('Email').fill(credentials.email);
      await page.getByLabel('Password').fill(credentials.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/workspaces');
      const changed = await server.t.app.inject({
        method: 'POST',
        url: '/api/auth/update-password',
        headers: await elsewhere(credentials),
        payload: { currentPassword: credentials.password, password: 'changed-elsewhere-58' },
      });
      expect(changed.statusCode).toBe(200);
      await page.goto('/profile');
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      await page.getByText('Your session ended because your password was changed.').waitFor();
      expect(new URL(page.url()).searchParams.get('next')).toBe('/profile');

      // The reason is a code from a fixed set: other words in the address are not shown.
      await page.goto('/auth/signin?ended=Your%20account%20was%20hacked%2C%20call%20us');
      await expect.poll(() => heading(page).textContent()).toBe('Sign in');
      expect(await page.locator('.form-notice').count()).toBe(0);
      expect(await page.getByText('hacked').count()).toBe(0);
      // The page errors only: a request whose session ended answers 401 by design, and the console shows it.
      expect(errors.filter((error) => !error.includes('401') && !error.includes('400'))).toEqual(
        [],
      );
      await context.close();
    });

    it("an unknown workspace is not found, with a way back; a reset pauses the owner's share link, and they resume it", async () => {
      const { context, page, errors } = await open();
      const credentials = newCredentials('paused');
      await signUpThroughApi(context, server.base, credentials);
      await page.goto(`/workspaces/${randomUUID()}`);
      await expect.poll(() => heading(page).textContent()).toBe('Workspace not found');
      await page.getByRole('link', { name: 'All workspaces' }).click();
      await expect.poll(() => heading(page).textContent()).toBe('Workspaces');
      await page.goto('/workspaces/not-an-id');
      await expect.poll(() => heading(page).textContent()).toBe('Workspace not found');

      const created = await context.request.post('/api/workspaces', {
        headers: { origin: server.base },
        data: { name: 'Field notes' },
      });
      const workspaceId = ((await created.json()) as ApiSchema<'Workspace'>).id;
      const shared = await context.request.post(`/api/workspaces/${workspaceId}/share`, {
        headers: { origin: server.base },
        data: {},
      });
      // The document allows no url only for a link made before the service secret changed.
      const shareUrl = ((await shared.json()) as ApiSchema<'ShareLink'>).url!;

      // The owner forgot the password: the reset proves the mailbox, and pauses the link made before.
      const resetMail = await mailWrittenBy(server.t.dataDir, () =>
        server.t.app.inject({
          method: 'POST',
          url: '/api/auth/reset-password',
          payload: { email: credentials.email },
        }),
      );
      const token = new URL(
        linkIn(resetMail, /http:\/\/127\.0\.0\.1:\d+\/auth\/update-password\?token=[A-Za-z0-9_-]+/),
      ).searchParams.get('token')!;
      const told = await mailWrittenBy(server.t.dataDir, async () => {
        const res = await server.t.app.inject({
          method: 'POST',
          url: '/api/auth/update-password',
          payload: { token, password: 'after-reset-pass-64' },
        });
        expect(res.statusCode).toBe(200);
      });
      expect(told).toContain(`/workspaces/${workspaceId}`);
      expect((await context.request.get(shareUrl)).status()).toBe(404);

      // The owner, signed out (they had forgotten the password), signs in with the new one.
      await context.clearCookies();
      await page.goto('/auth/signin');
      await page.getByLabel('Email').fill(credentials.email);
      await page.getByLabel('Password').fill('after-reset-pass-64');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.goto(`/workspaces/${workspaceId}`);
      const links = page.getByRole('list', { name: 'Share links' });
      await links.getByText('Paused:').waitFor();
      expect(await auditPage(page, 'workspace-paused-link')).toEqual({});
      await links.getByRole('button', { name: 'Resume' }).click();
      await links.getByRole('button', { name: 'Copy link' }).waitFor();
      expect(await links.getByText('Paused:').count()).toBe(0);
      expect(await links.getByRole('link').first().getAttribute('href')).toBe(shareUrl);
      expect((await context.request.get(shareUrl)).status()).toBe(200);
      // The console's only errors are the API's answers for the two unknown workspaces.
      expect(errors).toEqual([
        expect.stringContaining('status of 404'),
        expect.stringContaining('status of 400'),
      ]);
      await context.close();
    });
  },
);
