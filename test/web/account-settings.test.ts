/**
 * The account on the profile page (issue 23), in Chromium against the real service: the password
 * changed, refused first with sentences at the fields, after which another device is signed out and
 * told why while this one goes on; all of one's data downloaded as JSON and BibTeX; the account
 * deleted after a dialog that counts what goes with it and refuses a wrong password, landing signed
 * out on a page that says so; an account without a password offered a mailed link instead, and asked
 * to type its address to delete. Every state passes axe in light and dark at 360 and 1440 px, and no
 * page scrolls sideways at 360 px.
 */
import { text as streamText } from 'node:stream/consumers';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { users } from '../../src/platform/db/schema.js';
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
  pageWidths,
} from '../support/web-browser.js';

describe.skipIf(webSkipReason)(
  'the account on the profile page (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;
    const contexts: BrowserContext[] = [];
    const pageErrors: string[] = [];

    beforeAll(async () => {
      server = await startWebServer();
      browser = await launchChromium();
    }, 240_000);
    afterAll(async () => {
      for (const context of contexts) await context.close();
      await browser?.close();
      await server?.close();
      expect(pageErrors).toEqual([]);
    });

    /** A signed-in browser of a new account holding one workspace with two resources and a share link. */
    async function signedIn(
      prefix: string,
    ): Promise<{ context: BrowserContext; page: Page; credentials: Credentials }> {
      const context = await newContext(browser, server.base);
      contexts.push(context);
      const credentials = newCredentials(prefix);
      await signUpThroughApi(context, server.base, credentials);
      const headers = { origin: server.base };
      const workspace = (await (
        await context.request.post('/api/workspaces', { headers, data: { name: 'Thesis reading' } })
      ).json()) as ApiSchema<'Workspace'>;
      await context.request.post(`/api/workspaces/${workspace.id}/resources`, {
        headers,
        data: {
          title: 'Neural Turing Machines',
          url: 'https://arxiv.org/abs/1410.5401',
          authors: ['Alex Graves'],
          tags: ['memory'],
          notes: 'Read section 3.',
          data: { arxivId: '1410.5401' },
        },
      });
      await context.request.post(`/api/workspaces/${workspace.id}/resources`, {
        headers,
        data: {
          title: 'Deep learning',
          type: 'article',
          authors: ['Yann LeCun'],
          data: { doi: '10.1038/nature14539', journal: 'Nature' },
        },
      });
      await context.request.post(`/api/workspaces/${workspace.id}/share`, { headers, data: {} });
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      return { context, page, credentials };
    }

    async function noSidewaysScroll(page: Page, name: string): Promise<void> {
      await page.setViewportSize({ width: 360, height: 800 });
      const { scrollWidth, clientWidth } = await pageWidths(page);
      expect(scrollWidth, `${name} at 360 px`).toBeLessThanOrEqual(clientWidth);
      await page.setViewportSize({ width: 1440, height: 900 });
    }

    it('changes the password: refusals read as sentences at their fields, another device is signed out and told why, this one goes on', async () => {
      const { context, page, credentials } = await signedIn('pw');
      // Another device, signed in as the same user.
      const other = await newContext(browser, server.base);
      contexts.push(other);
      await other.request.post('/api/auth/signin', {
        headers: { origin: server.base },
        data: { email: credentials.email, password: credentials.password },
      });
      const otherPage = await other.newPage();

      await page.goto('/profile');
      const form = page.getByRole('form', { name: 'Change password' });
      await form.getByLabel('Current password').waitFor();
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => form.getByText('Enter your current password.').count()).toBe(1);

      await form.getByLabel('Current password').fill('not-my-password-9');
      await form.getByLabel('New password', { exact: true }).fill('copper-lantern-5521');
      await form.getByLabel('New password again').fill('copper-lantern-5522');
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect
        .poll(() =>
          form.getByText('The two new passwords differ; type the same one twice.').count(),
        )
        .toBe(1);

      await form.getByLabel('New password again').fill('copper-lantern-5521');
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => form.getByText('The current password is incorrect.').count()).toBe(1);
      // Focus goes to the field at fault.
      await expect
        .poll(() =>
          form
            .getByLabel('Current password')
            .evaluate(
              (element) =>
                element ===
                (element.ownerDocument as unknown as { activeElement: unknown }).activeElement,
            ),
        )
        .toBe(true);
      expect(await auditPage(page, 'account-password-refused')).toEqual({});
      await noSidewaysScroll(page, 'profile with the account section');

      await form.getByLabel('Current password').fill(credentials.password);
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect
        .poll(() => page.getByText('Password changed. Every other device was signed out.').count())
        .toBe(1);
      expect(await form.getByLabel('Current password').inputValue()).toBe('');

      // This browser goes on with its new session; the other is sent to sign in, told why.
      await page.reload();
      await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/profile');
      await otherPage.goto('/profile');
      await otherPage.waitForURL('**/auth/signin**');
      await expect
        .poll(() =>
          otherPage
            .getByText(
              'Your session ended because your password was changed. Sign in with the new password.',
            )
            .count(),
        )
        .toBe(1);
      const withNew = await context.request.post('/api/auth/signin', {
        headers: { origin: server.base },
        data: { email: credentials.email, password: 'copper-lantern-5521' },
      });
      expect(withNew.status()).toBe(200);
    });

    it('downloads all of one’s data as JSON and every resource as BibTeX', async () => {
      const { page, credentials } = await signedIn('data');
      await page.goto('/profile');
      const downloaded = async (name: string) => {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name }).click(),
        ]);
        return {
          file: download.suggestedFilename(),
          text: await streamText(await download.createReadStream()),
        };
      };
      const json = await downloaded('Download my data (JSON)');
      expect(json.file).toMatch(/^research-workspace-\d{4}-\d{2}-\d{2}\.json$/);
      const data = JSON.parse(json.text) as {
        user: { email: string };
        workspaces: Array<{
          name: string;
          resources: Array<{ title: string; notes: string }>;
          shareLinks: unknown[];
        }>;
      };
      expect(data.user.email).toBe(credentials.email);
      expect(data.workspaces.map((workspace) => workspace.name)).toEqual(['Thesis reading']);
      expect(
        data.workspaces[0]!.resources.find(
          (resource) => resource.title === 'Neural Turing Machines',
        )?.notes,
      ).toBe('Read section 3.');
      expect(data.workspaces[0]!.shareLinks).toHaveLength(1);
      expect(json.text).not.toMatch(/"token"/);

      const bibtex = await downloaded('Download my references (BibTeX)');
      expect(bibtex.file).toMatch(/\.bib$/);
      const parsed = parseBibtex(bibtex.text, { english: false });
      expect(parsed.errors).toEqual([]);
      expect(parsed.entries.map((entry) => entry.fields.title).sort()).toEqual([
        'Deep learning',
        'Neural Turing Machines',
      ]);
    });

    it('deletes the account after a dialog that counts what goes, refusing a wrong password, and lands signed out on a page that says so', async () => {
      const { context, page, credentials } = await signedIn('bye');
      await page.goto('/profile');
      const trigger = page.getByRole('button', { name: 'Delete my account…' });
      await trigger.waitFor();
      const counted =
        '1 workspace you own is deleted with 2 resources, 0 PDFs and 0 annotations. 1 share link stops working';
      await expect.poll(() => page.getByText(counted).count()).toBe(1);

      // Cancelling returns the focus to what opened the dialog.
      await trigger.click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(counted);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect
        .poll(() =>
          trigger.evaluate(
            (element) =>
              element ===
              (element.ownerDocument as unknown as { activeElement: unknown }).activeElement,
          ),
        )
        .toBe(true);

      await trigger.click();
      await dialog.getByLabel('Current password').fill('not-my-password-9');
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await expect
        .poll(() =>
          dialog.getByText('The password is incorrect; your account was not deleted.').count(),
        )
        .toBe(1);
      expect(await auditPage(page, 'account-delete-refused')).toEqual({});

      await dialog.getByLabel('Current password').fill(credentials.password);
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await page.waitForURL('**/auth/account-deleted');
      await page.getByRole('heading', { level: 1, name: 'Your account was deleted' }).waitFor();
      // The header knows the visitor is signed out.
      await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
      expect(await auditPage(page, 'account-deleted')).toEqual({});
      await noSidewaysScroll(page, 'account deleted');
      expect(new URL(page.url()).pathname).toBe('/auth/account-deleted');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
        'Your account was deleted',
      );
      expect(
        (await context.cookies()).find((cookie) => cookie.name === 'refresh_token'),
      ).toBeUndefined();
      await page.goto('/profile');
      await page.waitForURL('**/auth/signin**');
      const signin = await context.request.post('/api/auth/signin', {
        headers: { origin: server.base },
        data: { email: credentials.email, password: credentials.password },
      });
      expect(signin.status()).toBe(401);
    });

    it('offers an account without a password a mailed link, and asks it to type its address to delete', async () => {
      const { page, credentials } = await signedIn('oauth');
      await server.t.app.ctx.db
        .update(users)
        .set({ passwordHash: null })
        .where(eq(users.email, credentials.email));
      await page.goto('/profile');
      await page
        .getByText('You sign in with Google or GitHub, so this account has no password.')
        .waitFor();
      await page.getByRole('button', { name: 'Mail me a link to set a password' }).click();
      await expect
        .poll(() =>
          page
            .getByText(`We sent the link to ${credentials.email}. It works once, for one hour.`)
            .count(),
        )
        .toBe(1);
      expect(await auditPage(page, 'account-no-password')).toEqual({});

      await page.getByRole('button', { name: 'Delete my account…' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
      await dialog.getByLabel('Your e-mail address').fill('someone-else@example.org');
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await expect
        .poll(() =>
          dialog
            .getByText('Type your account’s e-mail address exactly to delete your account.')
            .count(),
        )
        .toBe(1);
      await dialog.getByLabel('Your e-mail address').fill(credentials.email.toUpperCase());
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await page.waitForURL('**/auth/account-deleted');
      await page.getByRole('heading', { level: 1, name: 'Your account was deleted' }).waitFor();
    });
  },
);
