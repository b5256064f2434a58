/**
 * The profile and analytics pages in Chromium against the real service: display name and bio with
 * their limits counted while typing and saved; the avatar's image-only and 2 MB rules (in the page and
 * from the server), a preview, the upload and the stored image shown; the theme set to dark applied at
 * once and kept in the profile; analytics showing the user's searches and saved resources as numbers
 * (and charts); the header's theme switch saving a signed-in user's choice to the profile too. Each
 * page passes axe in light and dark at both viewports and is photographed.
 */
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import {
  auditPage,
  newContext,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
} from '../support/web-browser.js';
import { openJourney, type Journey } from '../support/web-journey.js';

type StyleBox = {
  document: { documentElement: { dataset: Record<string, string> } };
  getComputedStyle(element: unknown): { backgroundColor: string };
};

describe.skipIf(webSkipReason)(
  'profile and analytics in the web app (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Journey;
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      // Signed up through the API: sign-up is test/web/auth.test.ts's subject, not this file's.
      journey = await openJourney({
        prefix: 'profile',
        server: {
          routes: [
            { path: '/arxiv/query', fixture: 'arxiv/empty_idlist_0000.0000_totalResults0.xml' },
          ],
        },
      });
      ({ server, browser, context, page } = journey);
    }, 240_000);
    afterAll(async () => journey?.close());

    const profileNow = async () =>
      ((await (await page.request.get('/api/profile')).json()) as ApiSchema<'ProfileReply'>)
        .profile;

    it('edits the display name and bio, counting their limits while typing', async () => {
      await page.goto('/profile');
      const name = page.getByLabel('Display name');
      await name.waitFor();
      expect(await auditPage(page, 'profile')).toEqual({});

      await name.fill('x'.repeat(51));
      await expect.poll(() => page.getByText('51 / 50 characters: 1 too many').count()).toBe(1);
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('button', { name: 'Save profile' }).isDisabled()).toBe(true);

      await name.fill('Ada Lovelace');
      expect(await page.getByText('12 / 50 characters').count()).toBe(1);
      const bio = 'Reads about analytical engines and the notes that came with them.';
      await page.getByLabel('Bio').fill(bio);
      expect(await page.getByText(`${bio.length} / 500 characters`).count()).toBe(1);
      await page.getByRole('button', { name: 'Save profile' }).click();
      await expect.poll(async () => (await profileNow()).displayName).toBe('Ada Lovelace');
      expect((await profileNow()).bio).toBe(bio);

      await page.reload();
      await expect.poll(() => page.getByLabel('Display name').inputValue()).toBe('Ada Lovelace');
      expect(await page.getByLabel('Bio').inputValue()).toBe(bio);
    });

    it('refuses a non-image and an image over 2 MB, previews and uploads a real image', async () => {
      await page.goto('/profile');
      const avatar = page.getByLabel('Avatar');
      await avatar.waitFor();
      const avatarError = () => page.locator('.field-invalid .field-error').textContent();

      await avatar.setInputFiles({
        name: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('not an image'),
      });
      await expect.poll(avatarError).toContain('Only image files');
      expect(await page.getByRole('button', { name: 'Upload avatar' }).isDisabled()).toBe(true);

      await avatar.setInputFiles({
        name: 'huge.png',
        mimeType: 'image/png',
        buffer: Buffer.alloc(2 * 1024 * 1024 + 1, 1),
      });
      await expect.poll(avatarError).toContain('larger than 2 MB');

      // Says it is a PNG but is not one: the browser cannot draw it, so it is refused before sending
      // (the server refuses it too: src/profiles), with no broken preview.
      await avatar.setInputFiles({
        name: 'fake.png',
        mimeType: 'image/png',
        buffer: Buffer.from('plain text pretending to be a picture'),
      });
      await expect.poll(avatarError).toContain('could not be read as an image');
      expect(await page.getByRole('button', { name: 'Upload avatar' }).isDisabled()).toBe(true);

      const png = await sharp({
        create: { width: 64, height: 64, channels: 3, background: '#3366cc' },
      })
        .png()
        .toBuffer();
      await avatar.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
      await expect
        .poll(() => page.getByRole('img', { name: 'Preview of the new avatar' }).count())
        .toBe(1);
      await page.getByRole('button', { name: 'Upload avatar' }).click();
      const stored = page.getByRole('img', { name: 'Your avatar' });
      await stored.waitFor();
      expect(await stored.getAttribute('src')).toMatch(/\/storage\/avatars\//);
      await expect
        .poll(() =>
          stored.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
        )
        .toBeGreaterThan(0);
      expect((await profileNow()).avatarUrl).toMatch(/\/storage\/avatars\//);
    });

    it('applies the dark theme at once and keeps it in the profile', async () => {
      await page.goto('/profile');
      const theme = page.getByLabel('Theme', { exact: true });
      await theme.waitFor();
      const background = () =>
        page.evaluate(() => {
          const box = globalThis as unknown as StyleBox;
          return box.getComputedStyle(box.document.documentElement).backgroundColor;
        });
      const light = await background();
      await theme.selectOption('dark');
      await expect
        .poll(() =>
          page.evaluate(
            () => (globalThis as unknown as StyleBox).document.documentElement.dataset.theme,
          ),
        )
        .toBe('dark');
      expect(await background()).not.toBe(light);
      await expect.poll(async () => (await profileNow()).preferences.theme).toBe('dark');

      // A new browser (no local choice) signed in as the same user gets the profile's theme.
      const cookies = await context.cookies();
      const other = await newContext(browser, server.base);
      await other.addCookies(cookies);
      const second = await other.newPage();
      await second.goto('/dashboard');
      await expect
        .poll(() =>
          second.evaluate(
            () => (globalThis as unknown as StyleBox).document.documentElement.dataset.theme,
          ),
        )
        .toBe('dark');
      await other.close();

      await theme.selectOption('system');
      await expect.poll(async () => (await profileNow()).preferences.theme).toBe('system');
    });

    it('keeps the theme chosen in the header switch in the profile: a reload and the profile page agree', async () => {
      const themeInUse = () =>
        page.evaluate(
          () => (globalThis as unknown as StyleBox).document.documentElement.dataset.theme,
        );
      // The end of a frame: React has applied what the last render asked for (the profile's theme).
      const settled = () =>
        page.evaluate(
          () =>
            new Promise<void>((resolve) =>
              (
                globalThis as unknown as { requestAnimationFrame(callback: () => void): void }
              ).requestAnimationFrame(() => resolve()),
            ),
        );
      // The session check held back: a choice made before it is known whose page this is would be kept in
      // this browser only and then replaced by the profile's theme, so the switch waits for the answer.
      let release = () => {};
      const answered = new Promise<void>((resolve) => (release = resolve));
      const heldSession = async (route: Route) => {
        await answered;
        await route.continue();
      };
      await page.route('**/api/auth/session', heldSession);
      await page.goto('/dashboard');
      const header = page.getByRole('banner').getByLabel('Colour theme');
      await header.waitFor();
      expect(await header.isDisabled()).toBe(true);
      const chosen = header.selectOption('dark');
      release();
      await chosen;
      await page.unroute('**/api/auth/session', heldSession);
      // Applied at once, and saved for this user.
      expect(await themeInUse()).toBe('dark');
      await expect.poll(async () => (await profileNow()).preferences.theme).toBe('dark');

      await page.reload();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Profile' })
        .click();
      const theme = page.getByLabel('Theme', { exact: true });
      // The profile is loaded once its page shows the select: its theme is the header's choice.
      await expect.poll(() => theme.locator('option:checked').textContent()).toBe('Dark');
      await settled();
      expect(await themeInUse()).toBe('dark');
      expect(await header.inputValue()).toBe('dark');

      // Back to the system theme (the next test checks both colour schemes).
      await header.selectOption('system');
      await expect.poll(() => theme.inputValue()).toBe('system');
      await expect.poll(async () => (await profileNow()).preferences.theme).toBe('system');
    });

    it('shows the searches and saved resources as numbers, and charts them', async () => {
      const origin = { origin: server.base };
      // "graph of neural networks" holds the topic "graph neural" only once its stopword is removed, as
      // the server counts: 2 searches, where matching the text of the queries would find 1. The same
      // words again within the search cache's lifetime are the same search, counted once (issue 23, item 10).
      for (const q of [
        'graph neural networks',
        'graph neural networks',
        'graph of neural networks',
        'protein folding',
      ]) {
        expect(
          (
            await page.request.get(`/api/search?q=${encodeURIComponent(q)}&providers=arxiv`)
          ).status(),
        ).toBe(200);
      }
      const created = await page.request.post('/api/workspaces', {
        headers: origin,
        data: { title: 'Reading list' },
      });
      expect(created.status()).toBe(201);
      const workspace = (await created.json()) as ApiSchema<'Workspace'>;
      // Known reading times (75 + 45 minutes): the page shows their sum, 2 h 0 min.
      for (const [title, url, minutes] of [
        ['Attention Is All You Need', 'https://arxiv.org/abs/1706.03762', 75],
        ['Deep learning', 'https://doi.org/10.1038/nature14539', 45],
      ] as const) {
        const added = await page.request.post(`/api/workspaces/${workspace.id}/resources`, {
          headers: origin,
          data: { title, url, type: 'article', data: { readingTimeMinutes: minutes } },
        });
        expect(added.status()).toBe(201);
      }
      // The search events are written after each reply: wait until the three searches are counted.
      type SearchAnalytics = {
        totalSearches: number;
        topicCounts: Array<{ topic: string; count: number }>;
      };
      await expect
        .poll(
          async () =>
            (
              (await (
                await page.request.get('/api/analytics/search?period=day')
              ).json()) as SearchAnalytics
            ).totalSearches,
        )
        .toBe(3);
      const { topicCounts } = (await (
        await page.request.get('/api/analytics/search?period=month')
      ).json()) as SearchAnalytics;
      expect(topicCounts).toEqual([
        { topic: 'graph neural', count: 2 },
        { topic: 'networks', count: 2 },
        { topic: 'folding', count: 1 },
        { topic: 'protein', count: 1 },
      ]);

      await page.goto('/analytics');
      await expect.poll(() => page.getByTestId('total-searches').textContent()).toBe('3');
      const rows = page.getByRole('table', { name: /Top queries/ }).getByRole('row');
      await expect.poll(() => rows.count()).toBe(4);
      const graphRow = rows.filter({ hasText: /^graph neural networks/ });
      expect(await graphRow.getByRole('cell').nth(1).textContent()).toBe('1');
      // The topics chart's text equivalent lists the server's topics with the server's counts.
      const topics = page
        .getByRole('tabpanel')
        .getByRole('list', { name: 'Popular topics' })
        .getByRole('listitem');
      await expect
        .poll(() => topics.allTextContents())
        .toEqual([
          'graph neural (2 searches)',
          'networks (2 searches)',
          'folding (1 search)',
          'protein (1 search)',
        ]);
      await expect.poll(() => page.getByTestId('saved-resources').textContent()).toBe('2');
      expect(
        (
          (await (
            await page.request.get('/api/analytics/resources')
          ).json()) as ApiSchema<'ResourceAnalytics'>
        ).readingTime,
      ).toBe(120);
      expect(await page.getByTestId('reading-time').textContent()).toBe('2 h 0 min');
      expect(
        await page
          .getByRole('table', { name: /by category/ })
          .getByRole('cell', { name: 'article' })
          .count(),
      ).toBe(1);
      // The topics chart: one image named by its title, its bars as long as their share of the largest
      // count (2, 2, 1, 1: the ones half), its description the same numbers in words.
      const topicsChart = page.getByRole('tabpanel').getByRole('img', { name: 'Popular topics' });
      await topicsChart.waitFor();
      expect(
        await topicsChart
          .locator('rect.bar-chart-bar')
          .evaluateAll((bars) => bars.map((bar) => bar.getAttribute('width'))),
      ).toEqual(['100%', '100%', '50%', '50%']);
      const descriptionId = await topicsChart.getAttribute('aria-describedby');
      expect(descriptionId).toBeTruthy();
      expect(await topicsChart.locator(`[id="${descriptionId}"]`).textContent()).toBe(
        'graph neural: 2 searches; networks: 2 searches; folding: 1 search; protein: 1 search',
      );
      expect(await auditPage(page, 'analytics')).toEqual({});

      await page.getByRole('tab', { name: 'Year' }).click();
      await page.waitForURL('**/analytics?period=year');
      await expect.poll(() => page.getByTestId('total-searches').textContent()).toBe('3');
    });
  },
);
