/**
 * What a user typed survives their session ending, in Chromium against the real service: an
 * annotation being written when the session is revoked from elsewhere, and a profile bio when the
 * cookies are gone; submit → sign-in → back to the page with the text still there → sent → gone after
 * a reload. Sign out forgets every draft, and a draft is never shown to another user who signs in on
 * the same tab. And the summary stream's rate-limit refusal says when to try again.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import type { FixtureRoute } from '../support/fixture-server.js';
import {
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

const QUERY = 'Augmenting large language models with chemistry tools';
const ROUTES: FixtureRoute[] = [
  {
    path: '/crossref/works',
    fixture: 'crossref/works_query.title-augmenting-llm-chemistry-tools_rows1.json',
  },
  {
    path: '/openalex/works',
    fixture: 'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
  },
];
/** One summary an hour per user: the second is refused. */
const SUMMARIES_PER_HOUR = 1;

// Run in the page (the service's tsconfig has no DOM types, so this is given as source text).
const DRAFT_KEYS = `Object.keys(sessionStorage).filter((key) => key.startsWith('rw-draft:'))`;

describe.skipIf(webSkipReason)(
  'drafts survive the end of a session; the summary 429 (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let pageErrors: string[];

    beforeAll(async () => {
      server = await startWebServer({
        routes: ROUTES,
        env: { RATE_LIMIT_SUMMARIZE_PER_HOUR: String(SUMMARIES_PER_HOUR) },
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

    const draftKeys = () => page.evaluate<string[]>(DRAFT_KEYS);
    /** An account made and signed in through the API (sign-up is test/web/auth.test.ts's subject, not this file's). */
    const signedUp = (credentials: Credentials): Promise<void> =>
      signUpThroughApi(context, server.base, credentials);

    /** Signs in on the sign-in page the app sent the user to, and waits to be back at `pathname`. */
    async function signInAndReturn(
      credentials: Pick<Credentials, 'email' | 'password'>,
      pathname: string,
    ): Promise<void> {
      await page.getByLabel('Email').fill(credentials.email);
      await page.getByLabel('Password').fill(credentials.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === pathname);
    }

    /**
     * Ends the browser's session from outside, as a sign-out on another device would: its cookies stay,
     * revoked. First the page settles: these journeys are about the user's own submit finding the session
     * ended; a read still on its way (a busy machine) would find it first and send the page to sign-in
     * before the click, which keeps the draft too but is not what is tested here.
     */
    async function revokeSessionElsewhere(): Promise<void> {
      await page.waitForLoadState('networkidle');
      const cookie = (await context.cookies())
        .map(({ name, value }) => `${name}=${value}`)
        .join('; ');
      const response = await fetch(`${server.base}/api/auth/signout`, {
        method: 'POST',
        headers: { cookie, origin: server.base },
      });
      expect(response.status).toBe(200);
      // Checked from elsewhere too: through the page's own request context, the 401's cookie clearing would
      // reach this browser, which the other device's sign-out does not do.
      expect((await fetch(`${server.base}/api/auth/session`, { headers: { cookie } })).status).toBe(
        401,
      );
    }

    it('keeps an annotation being written when the session is revoked, through sign-in, until it is sent', async () => {
      const credentials = newCredentials('draft-note');
      await signedUp(credentials);
      const origin = { origin: server.base };
      const workspace = (await (
        await page.request.post('/api/workspaces', { headers: origin, data: { title: 'Drafts' } })
      ).json()) as ApiSchema<'Workspace'>;
      const added = await page.request.post(`/api/workspaces/${workspace.id}/resources`, {
        headers: origin,
        data: { title: 'Attention Is All You Need', type: 'article' },
      });
      expect(added.status()).toBe(201);

      const path = `/workspaces/${workspace.id}`;
      await page.goto(path);
      const note = page.getByLabel('Annotation', { exact: true });
      const text = 'The scaled dot-product attention is the part to reread.';
      await note.fill(text);
      await revokeSessionElsewhere();

      await page.getByRole('button', { name: 'Add annotation' }).click();
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      expect(new URL(page.url()).searchParams.get('next')).toBe(path);
      await signInAndReturn(credentials, path);
      await expect.poll(() => note.inputValue()).toBe(text);

      await page.getByRole('button', { name: 'Add annotation' }).click();
      await expect.poll(() => page.locator('.annotation-body').allTextContents()).toEqual([text]);
      await expect.poll(() => note.inputValue()).toBe('');
      expect(await draftKeys()).toEqual([]);
      await page.reload();
      await page.locator('.annotation-body').first().waitFor();
      expect(await note.inputValue()).toBe('');
    });

    it('keeps a profile bio when the cookies are gone, and never shows it to another user who signs in', async () => {
      const owner = newCredentials('draft-bio');
      const other = newCredentials('draft-other');
      await signedUp(other);
      await context.clearCookies();
      await signedUp(owner);
      await page.goto('/profile');
      const bio = page.getByLabel('Bio');
      await bio.fill('Reads about chemistry agents on Sundays.');
      await page.getByLabel('Display name').fill('Ada the Reader');
      await context.clearCookies();
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      expect(new URL(page.url()).searchParams.get('next')).toBe('/profile');

      // Someone else signs in on this tab: the page is theirs, without the text typed before.
      await signInAndReturn(other, '/profile');
      await expect.poll(() => page.getByLabel('Display name').inputValue()).toBe(other.name);
      expect(await bio.inputValue()).toBe('');
      expect(await draftKeys()).toEqual([]);

      // The draft was the owner's; back as them, it is gone (it was never kept for anyone else either).
      await context.clearCookies();
      await page.reload();
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      await signInAndReturn(owner, '/profile');
      await expect.poll(() => page.getByLabel('Display name').inputValue()).toBe(owner.name);
      expect(await bio.inputValue()).toBe('');

      // The owner's own draft, across a session that ends: typed, cookies gone, saved after signing in.
      await bio.fill('Reads about chemistry agents on Sundays.');
      await context.clearCookies();
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      await signInAndReturn(owner, '/profile');
      await expect.poll(() => bio.inputValue()).toBe('Reads about chemistry agents on Sundays.');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await expect
        .poll(
          async () =>
            ((await (await page.request.get('/api/profile')).json()) as ApiSchema<'ProfileReply'>)
              .profile.bio,
        )
        .toBe('Reads about chemistry agents on Sundays.');
      expect(await draftKeys()).toEqual([]);
      await page.reload();
      await expect.poll(() => bio.inputValue()).toBe('Reads about chemistry agents on Sundays.');
      expect(await draftKeys()).toEqual([]);
    });

    it('forgets every draft when the user signs out', async () => {
      const credentials = newCredentials('draft-signout');
      await signedUp(credentials);
      await page.goto('/workspaces');
      await page.getByRole('button', { name: 'New workspace' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Half-named workspace');
      await page.goto('/profile');
      await page.getByLabel('Bio').fill('Not for the next person at this computer.');
      expect((await draftKeys()).sort()).toEqual([
        'rw-draft:/profile#profile:bio',
        'rw-draft:/workspaces#workspace:new',
      ]);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL('**/auth/signin');
      expect(await draftKeys()).toEqual([]);

      await page.getByLabel('Email').fill(credentials.email);
      await page.getByLabel('Password').fill(credentials.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/dashboard');
      await page.goto('/profile');
      await expect.poll(() => page.getByLabel('Display name').inputValue()).toBe(credentials.name);
      expect(await page.getByLabel('Bio').inputValue()).toBe('');
      await page.goto('/workspaces');
      await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
      expect(await page.getByLabel('Name', { exact: true }).count()).toBe(0);
    });

    it('a new workspace name typed when the session ended reopens its form with the text', async () => {
      const credentials = newCredentials('draft-workspace');
      await signedUp(credentials);
      await page.goto('/workspaces');
      await page.getByRole('button', { name: 'New workspace' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Catalysis reading group');
      await revokeSessionElsewhere();
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      await signInAndReturn(credentials, '/workspaces');
      await expect
        .poll(() => page.getByLabel('Name', { exact: true }).inputValue())
        .toBe('Catalysis reading group');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('link', { name: 'Catalysis reading group' }).waitFor();
      expect(await draftKeys()).toEqual([]);
    });

    it("a saved resource's notes and tags being edited when the session ended reopen with the text, and are saved", async () => {
      const credentials = newCredentials('draft-notes');
      await signedUp(credentials);
      const origin = { origin: server.base };
      const workspace = (await (
        await page.request.post('/api/workspaces', {
          headers: origin,
          data: { title: 'Notes drafts' },
        })
      ).json()) as ApiSchema<'Workspace'>;
      expect(
        (
          await page.request.post(`/api/workspaces/${workspace.id}/resources`, {
            headers: origin,
            data: { title: 'Deep Residual Learning', notes: 'old' },
          })
        ).status(),
      ).toBe(201);

      const path = `/workspaces/${workspace.id}`;
      await page.goto(path);
      await page.getByRole('button', { name: 'Edit notes' }).click();
      await page
        .getByLabel('Notes', { exact: true })
        .fill('Skip connections make depth trainable.');
      await page.getByRole('textbox', { name: 'Tags', exact: true }).fill('vision, resnets');
      await revokeSessionElsewhere();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/auth/signin');
      await signInAndReturn(credentials, path);
      await expect
        .poll(() => page.getByLabel('Notes', { exact: true }).inputValue())
        .toBe('Skip connections make depth trainable.');
      expect(await page.getByRole('textbox', { name: 'Tags', exact: true }).inputValue()).toBe(
        'vision, resnets',
      );

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('button', { name: 'Edit notes' }).waitFor();
      expect(await draftKeys()).toEqual([]);
      const detail = (await (
        await page.request.get(`/api/workspaces/${workspace.id}`)
      ).json()) as ApiSchema<'WorkspaceWithResources'>;
      expect(detail.resources[0]).toMatchObject({
        notes: 'Skip connections make depth trainable.',
        tags: ['vision', 'resnets'],
      });
    });

    it('says when to try again when the summary limit refuses the stream', async () => {
      await signedUp(newCredentials('summary-limit'));
      await page.goto(`/dashboard?q=${encodeURIComponent(QUERY)}`);
      const first = page.getByRole('article').first();
      await first.waitFor();
      for (let used = 0; used < SUMMARIES_PER_HOUR; used += 1) {
        await first.getByRole('button', { name: 'Summarize' }).click();
        const dialog = page.getByRole('dialog', { name: 'Summary' });
        await expect
          .poll(() => dialog.locator('.summary-tldr').count(), { timeout: 15_000 })
          .toBe(1);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
      const refused = page.waitForResponse((response) =>
        response.url().includes('/api/summarize?'),
      );
      await first.getByRole('button', { name: 'Summarize' }).click();
      const retryAfter = Number((await refused).headers()['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      const alert = page.getByRole('alert').filter({ hasText: 'The summary failed' });
      await expect
        .poll(() => alert.textContent())
        .toMatch(
          /Too many requests, please try again later\. Try again in \d+ (seconds?|minutes?)\./,
        );
      expect(await page.getByRole('dialog', { name: 'Summary' }).count()).toBe(0);
    });
  },
);
