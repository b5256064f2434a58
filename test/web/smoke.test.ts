/**
 * The web app's smoke journey in Chromium: a new user signs up on /auth/signup and lands on the
 * dashboard, signed in, with the app shell's navigation; the pages pass axe (no serious or critical
 * findings) and are photographed at both viewports.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import {
  launchChromium,
  newContext,
  newCredentials,
  screenshot,
  seriousA11yViolations,
  signUpThroughApp,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
} from '../support/web-browser.js';

describe.skipIf(webSkipReason)(
  'web app smoke journey (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;

    beforeAll(async () => {
      server = await startWebServer();
      browser = await launchChromium();
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('signs a new user up and lands on the dashboard, signed in', async () => {
      const context = await newContext(browser, server.base, 'desktop');
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto('/auth/signup');
        await expect
          .poll(() => page.getByRole('heading', { level: 1 }).textContent())
          .toBe('Create your account');
        expect(await seriousA11yViolations(page)).toEqual([]);
        await screenshot(page, 'signup-desktop-light');

        const credentials = newCredentials('smoke');
        await signUpThroughApp(page, credentials);
        expect(new URL(page.url()).pathname).toBe('/dashboard');
        await expect
          .poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible())
          .toBe(true);
        const nav = page.getByRole('navigation', { name: 'Main' });
        for (const link of ['Search', 'Workspaces', 'Analytics', 'Profile'])
          expect(await nav.getByRole('link', { name: link }).count()).toBe(1);

        // The account exists server-side and the browser holds its session.
        const session = await page.evaluate(
          async () =>
            (await (
              await fetch('/api/auth/session', { credentials: 'include' })
            ).json()) as ApiSchema<'CookieSession'>,
        );
        expect(session.user.email).toBe(credentials.email);
        expect(await seriousA11yViolations(page)).toEqual([]);
        await screenshot(page, 'dashboard-desktop-light');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
