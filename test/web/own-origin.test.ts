/**
 * The app opened at an address other than APP_ORIGIN (here APP_ORIGIN names another host): at
 * 127.0.0.1 and at localhost, a new user signs up and creates a workspace. Its writes carry the
 * address the page was opened at as their Origin, which is the origin they are sent to: same-origin,
 * so they are not refused as cross-origin.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  newContext,
  newCredentials,
  signUpThroughApp,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
} from '../support/web-browser.js';

describe.skipIf(webSkipReason)(
  'web app opened at an address other than APP_ORIGIN (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;

    beforeAll(async () => {
      server = await startWebServer({
        env: { APP_ORIGIN: 'http://app.example.test', PUBLIC_URL: 'http://app.example.test' },
      });
      browser = await launchChromium();
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    for (const host of ['127.0.0.1', 'localhost']) {
      it(`signs up and creates a workspace at ${host}`, async () => {
        const base = `http://${host}:${new URL(server.base).port}`;
        const context = await newContext(browser, base, 'desktop');
        const page = await context.newPage();
        try {
          await signUpThroughApp(page, newCredentials(`origin-${host.replace(/\W/g, '')}`));
          await page.goto('/workspaces');
          await page.getByRole('button', { name: 'New workspace' }).click();
          const name = `Opened at ${host}`;
          await page.getByLabel('Name').fill(name);
          const created = page.waitForResponse(
            (response) =>
              response.url() === `${base}/api/workspaces` && response.request().method() === 'POST',
          );
          await page.getByRole('button', { name: 'Create' }).click();
          expect((await created).status()).toBe(201);
          await page.getByRole('link', { name }).waitFor();
          const listed = await page.evaluate(async () => (await fetch('/api/workspaces')).text());
          expect(listed).toContain(name);
        } finally {
          await context.close();
        }
      });
    }
  },
);
