/**
 * Accessibility and first impressions as a newcomer met them (issue 23, items 5, 15, 17, 18 and the
 * front page): hovered and focused buttons keep their contrast (axe with the state applied); a
 * refused image leaves the current avatar (or the initials) and says why, and the header shows the
 * avatar, updated right after an upload; focus returns to what opened a dialog, stays on Save and Share
 * (announced), goes to the page heading after a route change but not on the first load or a new
 * search; the first result is in the first screen at 360×640; a visitor's front page says what this
 * is, searches and summarises, and Save asks them to sign in and brings them back to their search.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRoute } from '../support/fixture-server.js';
import {
  auditCombinations,
  newContext,
  newCredentials,
  pageWidths,
  screenshot,
  seriousA11yViolations,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  VIEWPORTS,
  type AxeFinding,
  type WebServer,
} from '../support/web-browser.js';
import { createWorkspaceThroughApi, openJourney, type Journey } from '../support/web-journey.js';

const QUERY = 'Augmenting large language models with chemistry tools';
const ROUTES: FixtureRoute[] = [
  { path: '/arxiv/query', fixture: 'arxiv/empty_idlist_0000.0000_totalResults0.xml' },
  { path: '/pubmed/esearch.fcgi', status: 500, body: 'upstream failure' },
  {
    path: '/crossref/works',
    fixture: 'crossref/works_query.title-augmenting-llm-chemistry-tools_rows1.json',
  },
  {
    path: '/openalex/works',
    fixture: 'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
  },
  {
    path: '/semanticscholar/paper/search',
    fixture: 'semanticscholar/paper_search_match_augmenting-llm-chemistry-tools.json',
  },
  { path: '/zenodo/records', fixture: 'zenodo/records_search_q-title_size2_page1.json' },
];

// Run in the page (the service's tsconfig has no DOM types, so these are given as source text).
const FOCUSED = `(() => {
  const element = document.activeElement;
  if (!element || element === document.body) return 'body';
  return element.tagName.toLowerCase() + ':' + (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
})()`;
const focused = (page: Page) => page.evaluate<string>(FOCUSED);

describe.skipIf(webSkipReason)(
  'accessibility round two and the front page (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Journey;
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let name: string;
    let workspaceId: string;

    beforeAll(async () => {
      journey = await openJourney({ prefix: 'a11y', server: { routes: ROUTES } });
      ({ server, browser, context, page } = journey);
      name = journey.credentials.name;
      workspaceId = await createWorkspaceThroughApi(context, server.base, {
        title: 'Reading list',
      });
    }, 240_000);
    afterAll(async () => journey?.close());

    /**
     * axe on the page with a state applied (a hover or a focus, which axe cannot set itself) at each of
     * `auditCombinations(name)`: the state is applied again after each resize and change of scheme.
     */
    async function auditState(
      name: string,
      apply: () => Promise<void>,
    ): Promise<Record<string, AxeFinding[]>> {
      const findings: Record<string, AxeFinding[]> = {};
      for (const [viewport, scheme] of auditCombinations(name)) {
        await page.setViewportSize(VIEWPORTS[viewport]);
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction(
          (expected) =>
            (
              globalThis as unknown as {
                document: { documentElement: { dataset: Record<string, string> } };
              }
            ).document.documentElement.dataset.theme === expected,
          scheme,
        );
        await apply();
        const found = await seriousA11yViolations(page);
        if (found.length > 0) findings[`${viewport}-${scheme}`] = found;
        await screenshot(page, `${name}-${viewport}-${scheme}`, false);
      }
      await page.mouse.move(0, 0);
      await page.setViewportSize(VIEWPORTS.desktop);
      await page.emulateMedia({ colorScheme: 'light' });
      return findings;
    }

    async function search(query = QUERY): Promise<void> {
      await page.getByRole('searchbox', { name: 'Search' }).fill(query);
      await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
      await page.getByRole('article').first().waitFor();
    }

    it('keeps the contrast of hovered and focused buttons and links (danger, primary, plain, navigation)', async () => {
      await page.goto('/workspaces');
      const remove = page.getByRole('button', { name: 'Delete Reading list' });
      await remove.waitFor();
      expect(await auditState('hover-danger', () => remove.hover())).toEqual({});
      expect(await auditState('focus-danger', () => remove.focus())).toEqual({});
      const newWorkspace = page.getByRole('button', { name: 'New workspace' });
      expect(await auditState('hover-plain', () => newWorkspace.hover())).toEqual({});
      const nav = page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Search' });
      expect(await auditState('hover-nav', () => nav.hover())).toEqual({});

      await page.goto(`/workspaces/${workspaceId}`);
      const deleteWorkspace = page.getByRole('button', { name: 'Delete', exact: true });
      await deleteWorkspace.waitFor();
      expect(await auditState('hover-delete-workspace', () => deleteWorkspace.hover())).toEqual({});
      const share = page.getByRole('button', { name: 'Share', exact: true });
      expect(await auditState('hover-share', () => share.hover())).toEqual({});
    });

    it('returns the focus to what opened a dialog, keeps it on Save and Share, and moves it to the heading on a route change', async () => {
      // The first load leaves the focus at the document's start.
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
      expect(await focused(page)).toBe('body');

      // A new search changes only the query string: the focus stays in the box.
      await search();
      expect(await focused(page)).toMatch(/^input:/);

      const first = page.getByRole('article').first();
      await first.getByRole('button', { name: 'Summarize' }).click();
      const summary = page.getByRole('dialog', { name: 'Summary' });
      await summary.waitFor();
      await page.keyboard.press('Escape');
      await summary.waitFor({ state: 'detached' });
      // Radix gives the focus back a task after the dialog is gone.
      await expect.poll(() => focused(page)).toBe('button:Summarize');

      await first.getByRole('button', { name: 'Save' }).click();
      const save = page.getByRole('dialog', { name: 'Save to a workspace' });
      await save.getByRole('button', { name: 'Save', exact: true }).click();
      await save.getByRole('status').getByText('Saved to Reading list').waitFor();
      expect(await focused(page)).toBe('button:Save');
      // The toast saying so is the topmost layer now: Escape still closes the dialog.
      await page.locator('.toast').filter({ hasText: 'Saved to Reading list' }).waitFor();
      await page.keyboard.press('Escape');
      await save.waitFor({ state: 'detached' });
      await expect.poll(() => focused(page)).toBe('button:Already saved · Save again');

      // A route change: the new page's heading.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Workspaces' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
      await expect.poll(() => focused(page)).toBe('h1:Workspaces');

      // Cancelling a confirmation returns to the button that asked.
      const remove = page.getByRole('button', { name: 'Delete Reading list' });
      await remove.click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      await expect.poll(() => focused(page)).toBe('button:Delete Reading list');

      // Share: the focus stays on the button, the new link is announced.
      await page.getByRole('link', { name: 'Reading list' }).first().click();
      await expect.poll(() => focused(page)).toBe('h1:Reading list');
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      await page.getByRole('list', { name: 'Share links' }).getByRole('listitem').first().waitFor();
      await page
        .getByText(/Share link created, valid for 7 days/)
        .first()
        .waitFor();
      expect(await focused(page)).toBe('button:Share');

      // Confirmed removal: the button that asked is disabled now (nothing is chosen), so the heading.
      await page
        .getByRole('table')
        .getByRole('checkbox', { name: 'Select all on this page' })
        .check();
      await page.getByRole('button', { name: 'Remove selected…' }).click();
      await page
        .getByRole('alertdialog')
        .getByRole('button', { name: 'Remove', exact: true })
        .click();
      await page.getByText('Nothing saved here yet').waitFor();
      await expect.poll(() => focused(page)).toBe('h1:Reading list');
    });

    it('shows the first result in the first screen at 360×640', async () => {
      await page.setViewportSize({ width: 360, height: 640 });
      await page.goto(`/dashboard?q=${encodeURIComponent(QUERY)}`);
      const first = page.getByRole('article').first();
      await first.waitFor();
      await screenshot(page, 'search-first-screen-360', false);
      const top = await first.evaluate(
        (element) =>
          (
            element as unknown as { getBoundingClientRect(): { top: number } }
          ).getBoundingClientRect().top,
      );
      // Its title and authors at least, with room for a line or two of facts.
      expect(top).toBeLessThan(640 - 120);
      const { scrollWidth, clientWidth } = await pageWidths(page);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      await page.setViewportSize(VIEWPORTS.desktop);
    });

    it('keeps the avatar (or the initials) when an image is refused, and shows it in the header, updated at once', async () => {
      await page.goto('/profile');
      const headerAvatar = page
        .getByRole('banner')
        .getByRole('link', { name: `Your profile: ${name}` });
      await headerAvatar.waitFor();
      const initials = name
        .split(' ')
        .map((word) => word[0]?.toUpperCase())
        .join('');
      expect((await headerAvatar.textContent())?.trim()).toBe(initials);

      const avatar = page.getByLabel('Avatar');
      const avatarError = page.locator('.field-invalid .field-error');
      // Says it is a PNG but is not one: refused at once, no broken preview, the initials stay.
      await avatar.setInputFiles({
        name: 'fake.png',
        mimeType: 'image/png',
        buffer: Buffer.from('plain text pretending to be a picture'),
      });
      await avatarError.getByText('This file could not be read as an image').waitFor();
      expect(await page.getByRole('img', { name: 'Preview of the new avatar' }).count()).toBe(0);
      expect(await page.locator('img.avatar').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Upload avatar' }).isDisabled()).toBe(true);

      const png = await sharp({
        create: { width: 64, height: 64, channels: 3, background: '#3366cc' },
      })
        .png()
        .toBuffer();
      await avatar.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
      await page.getByRole('img', { name: 'Preview of the new avatar' }).waitFor();
      await page.getByRole('button', { name: 'Upload avatar' }).click();
      await page.getByRole('img', { name: 'Your avatar' }).waitFor();
      // The header shows it without a reload.
      const headerImage = headerAvatar.locator('img');
      await headerImage.waitFor();
      expect(await headerImage.getAttribute('src')).toMatch(/\/storage\/avatars\//);
      await expect
        .poll(() =>
          headerImage.evaluate(
            (image) => (image as unknown as { naturalWidth: number }).naturalWidth,
          ),
        )
        .toBeGreaterThan(0);

      // Another refused file: the stored avatar stays on the page, drawn.
      await avatar.setInputFiles({
        name: 'fake.png',
        mimeType: 'image/png',
        buffer: Buffer.from('still not a picture'),
      });
      await avatarError.getByText('This file could not be read as an image').waitFor();
      const stored = page.getByRole('img', { name: 'Your avatar' });
      expect(await stored.getAttribute('src')).toMatch(/\/storage\/avatars\//);
      expect(
        await stored.evaluate(
          (image) => (image as unknown as { naturalWidth: number }).naturalWidth,
        ),
      ).toBeGreaterThan(0);
      expect(await auditState('profile-avatar-refused', async () => undefined)).toEqual({});
    });

    it('gives a visitor a front page that searches and summarises, and brings them back to their search after signing in to save', async () => {
      const visitor = await newContext(browser, server.base);
      const credentials = newCredentials('visitor');
      // An account made elsewhere: this browser has never signed in.
      const made = await fetch(`${server.base}/api/auth/signup`, {
        method: 'POST',
        headers: { origin: server.base, 'content-type': 'application/json' },
        body: JSON.stringify(credentials),
      });
      expect(made.status).toBe(201);
      const front = await visitor.newPage();
      const errors: string[] = [];
      front.on('pageerror', (error) => errors.push(error.message));
      // A visitor's page asks nothing that fails (no 401 for a session it does not have).
      front.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      const previous = page;
      page = front;
      try {
        await front.goto('/');
        await front.getByRole('heading', { level: 1, name: 'Research Workspace' }).waitFor();
        await front
          .getByText(
            /Search arXiv, PubMed, Crossref, OpenAlex, Semantic Scholar, Zenodo and YouTube at once/,
          )
          .waitFor();
        expect(front.url()).toBe(`${server.base}/`);
        expect(await auditState('front-page', async () => undefined)).toEqual({});

        await search();
        expect(new URL(front.url()).pathname).toBe('/');
        const first = front.getByRole('article').first();
        const title = (await first.getByRole('heading').textContent())?.trim() ?? '';
        expect(await auditState('front-page-results', async () => undefined)).toEqual({});

        // A quick summary without an account.
        await first.getByRole('button', { name: 'Summarize' }).click();
        const summary = front.getByRole('dialog', { name: 'Summary' });
        await summary.getByText('TL;DR').waitFor();
        await front.keyboard.press('Escape');
        await summary.waitFor({ state: 'detached' });

        await first.getByRole('button', { name: 'Save' }).click();
        const ask = front.getByRole('dialog', { name: 'Sign in to save' });
        await ask.waitFor();
        expect(await auditState('front-page-sign-in-to-save', async () => undefined)).toEqual({});
        await ask.getByRole('link', { name: 'Sign in' }).click();
        await front.getByLabel('Email').fill(credentials.email);
        await front.getByLabel('Password').fill(credentials.password);
        await front.getByRole('button', { name: 'Sign in' }).click();
        await front.waitForURL(
          (url) => url.pathname === '/dashboard' && url.searchParams.get('q') === QUERY,
        );
        await front.getByRole('article').first().waitFor();
        expect(
          (await front.getByRole('article').first().getByRole('heading').textContent())?.trim(),
        ).toBe(title);
        await front.getByRole('article').first().getByRole('button', { name: 'Save' }).click();
        await front.getByRole('dialog', { name: 'Save to a workspace' }).waitFor();

        // Signed in, `/` is the dashboard, with the search asked for.
        await front.goto(`/?q=${encodeURIComponent(QUERY)}`);
        await front.waitForURL(
          (url) => url.pathname === '/dashboard' && url.searchParams.get('q') === QUERY,
        );
        expect(errors).toEqual([]);
      } finally {
        page = previous;
        await visitor.close();
      }
    });
  },
);
