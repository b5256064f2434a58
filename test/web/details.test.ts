/**
 * Journeys for web-app behaviour the other journeys leave out, in Chromium against the real service
 * with the search providers answered from recorded fixtures (one server, one browser for the file):
 * the Summary dialog in Deep (stages, then TL;DR, key points, tags) and Auto mode; paging through the
 * URL; a result card's shortened authors, abstract toggle and one badge per source of a merged record;
 * provider chips that timed out or were rate limited, and the empty state; workspaces created, renamed
 * (list and page) and counted; saving into an existing workspace; the profile's e-mail toggles and
 * language kept over a reload; no horizontal overflow at 360 and 1440 px; the not-found page and the
 * password page without its token. New states pass axe (serious/critical) in light and dark.
 */
import type { Browser, BrowserContext, Cookie, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import type { FixtureRoute, QueryMatcher } from '../support/fixture-server.js';
import {
  auditPage,
  auditSchemes,
  launchChromium,
  newContext,
  newCredentials,
  seriousA11yViolations,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  type WebServer,
  pageWidths,
} from '../support/web-browser.js';

/** Crossref, OpenAlex and Semantic Scholar all record this one paper (same DOI): merged into one result. */
const CHEMISTRY = 'Augmenting large language models with chemistry tools';
/** Semantic Scholar's recorded 100 results: enough for several pages. */
const MANY = 'turing';
/** OpenAlex answers after the deadline, Semantic Scholar answers 429. */
const SLOW = 'slowpoke';
/** Every provider answers with nothing. */
const NOTHING = 'zzqxnothing';
/** Each provider's deadline in this file: OpenAlex's SLOW answer comes well after it. */
const PROVIDER_DEADLINE_MS = 4_000;

/** Matches a provider request whose parameters mention the word (each provider spells the query its own way). */
function mentions(word: string): QueryMatcher {
  return (query) => [...query.values()].some((value) => value.toLowerCase().includes(word));
}

const NO_OPENALEX_RESULTS = JSON.stringify({
  meta: { count: 0, page: 1, per_page: 50 },
  results: [],
});
const NO_ZENODO_HITS = JSON.stringify({ hits: { hits: [], total: 0 }, aggregations: {} });
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

const ROUTES: FixtureRoute[] = [
  // NOTHING: every source answers, with no records.
  {
    path: '/arxiv/query',
    query: mentions(NOTHING),
    fixture: 'arxiv/empty_idlist_0000.0000_totalResults0.xml',
  },
  {
    path: '/pubmed/esearch.fcgi',
    query: mentions(NOTHING),
    fixture: 'pubmed/esearch_no_results_PhraseNotFound.xml',
  },
  {
    path: '/crossref/works',
    query: mentions(NOTHING),
    fixture: 'crossref/works_query.title_no_results.json',
  },
  {
    path: '/openalex/works',
    query: mentions(NOTHING),
    body: NO_OPENALEX_RESULTS,
    headers: JSON_TYPE,
  },
  {
    path: '/semanticscholar/paper/search',
    query: mentions(NOTHING),
    fixture: 'semanticscholar/paper_search_no_results.json',
  },
  { path: '/zenodo/records', query: mentions(NOTHING), body: NO_ZENODO_HITS, headers: JSON_TYPE },
  // SLOW: OpenAlex misses the deadline, Semantic Scholar is rate limited (429 without Retry-After: no retry).
  {
    path: '/openalex/works',
    query: mentions(SLOW),
    fixture: 'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
    delayMs: PROVIDER_DEADLINE_MS * 3,
  },
  {
    path: '/semanticscholar/paper/search',
    query: mentions(SLOW),
    status: 429,
    fixture: 'semanticscholar/error_429_too_many_requests.json',
  },
  // MANY: a hundred records from Semantic Scholar.
  {
    path: '/semanticscholar/paper/search',
    query: mentions(MANY),
    fixture: 'semanticscholar/paper_search_turing_all-fields_limit100.json',
  },
  // Any other query.
  { path: '/arxiv/query', fixture: 'arxiv/query_all-testing_start0_max10.xml' },
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
  // Deep summaries of arXiv records read this real paper; the short delay lets the first stage be seen.
  {
    path: /^\/arxiv-pdf\//,
    fixture: '../pdfs/specter-acl2020-2col.pdf',
    headers: { 'content-type': 'application/pdf' },
    delayMs: 1_500,
  },
];

// Run in the page (the service's tsconfig has no DOM types, so these are given as source text).
const THEME_IN_USE = 'document.documentElement.dataset.theme';

describe.skipIf(webSkipReason)(
  'web app details: summary modes, paging, result cards, chips, workspaces, profile, widths (Chromium)',
  () => {
    let server: WebServer;
    let browser: Browser;

    beforeAll(async () => {
      server = await startWebServer({
        routes: ROUTES,
        env: { SEARCH_PROVIDER_TIMEOUT_MS: String(PROVIDER_DEADLINE_MS) },
      });
      browser = await launchChromium();
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    /** The session cookies of the account the tests that change nothing another test reads share. */
    let sharedSession: Cookie[] | undefined;

    /**
     * A user's dashboard in a fresh context (theme: system, following the emulated colour scheme): the
     * file's shared account, or a new one for a test that needs its own (no workspaces yet). Accounts are
     * made through the API: sign-up itself is test/web/auth.test.ts's subject.
     */
    async function signedInPage(
      account: 'shared' | 'new' = 'shared',
    ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
      const context = await newContext(browser, server.base);
      if (account === 'new') {
        await signUpThroughApi(context, server.base, newCredentials('details'));
      } else if (sharedSession) {
        await context.addCookies(sharedSession);
      } else {
        await signUpThroughApi(context, server.base, newCredentials('details'));
        sharedSession = await context.cookies();
      }
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto('/dashboard');
      return { context, page, errors };
    }

    async function search(page: Page, query: string): Promise<void> {
      await page.getByRole('searchbox', { name: 'Search' }).fill(query);
      await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
      await page
        .getByRole('status')
        .filter({ hasText: `for “${query}”` })
        .waitFor();
    }

    async function expectAccessible(page: Page): Promise<void> {
      expect(await seriousA11yViolations(page)).toEqual([]);
    }

    /** axe in the page's scheme (both with WEB_AUDIT=all; the app follows the emulated scheme while its theme is `system`), at the current size. */
    async function expectAccessibleInItsSchemes(page: Page, name: string): Promise<void> {
      for (const scheme of auditSchemes(name)) {
        await page.emulateMedia({ colorScheme: scheme });
        await expect.poll(() => page.evaluate<string>(THEME_IN_USE)).toBe(scheme);
        expect(await seriousA11yViolations(page), scheme).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }

    const titlesOf = (page: Page): Promise<string[]> =>
      page.getByRole('article').getByRole('heading').allTextContents();

    /** Creates a workspace through /workspaces → New workspace → Create; leaves the page on the list. */
    async function createWorkspace(page: Page, name: string): Promise<Locator> {
      await page.goto('/workspaces');
      await page.getByRole('button', { name: 'New workspace' }).click();
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      const row = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name, exact: true }) });
      await row.waitFor();
      return row;
    }

    it(
      'Summary dialog: Deep shows its stages, then TL;DR, key points and ' +
        'tags; Auto goes deep for an arXiv record; axe in light and dark with it open',
      async () => {
        const { context, page, errors } = await signedInPage();
        try {
          await page.goto(`/dashboard?q=${MANY}&providers=arxiv`);
          const first = page.getByRole('article').first();
          await first.waitFor();
          await first.getByRole('button', { name: 'Summarize' }).click();
          const dialog = page.getByRole('dialog', { name: 'Summary' });
          await expect
            .poll(() => dialog.locator('.summary-tldr').count(), { timeout: 15_000 })
            .toBe(1);

          // Deep: the PDF is being fetched (the stage is shown, no summary yet), then the stages and the summary.
          await dialog.getByRole('radio', { name: /Deep/ }).check();
          await expect
            .poll(() => dialog.getByRole('status').textContent(), { timeout: 10_000 })
            .toContain('Fetching the PDF…');
          expect(await dialog.locator('.summary-tldr').count()).toBe(0);
          await expect
            .poll(() => dialog.locator('.summary-tldr').textContent(), { timeout: 60_000 })
            .toMatch(/\w{3,}/);
          await expect.poll(() => dialog.textContent()).toContain('Summary complete.');
          expect(
            await dialog
              .getByRole('list', { name: 'Progress' })
              .getByRole('listitem')
              .allTextContents(),
          ).toEqual(['Fetching the PDF', 'Extracting its text', 'Summarising']);
          expect(
            await dialog
              .getByRole('region', { name: 'TL;DR' })
              .getByRole('heading', { name: 'TL;DR' })
              .count(),
          ).toBe(1);
          expect(
            await dialog.getByRole('region', { name: 'Key points' }).getByRole('listitem').count(),
          ).toBeGreaterThanOrEqual(3);
          expect(
            await dialog.getByRole('list', { name: 'Tags' }).getByRole('listitem').count(),
          ).toBeGreaterThan(0);
          // Deep was asked for and used: no "Summarised in … mode" note.
          expect(await dialog.textContent()).not.toContain('Summarised in');
          const deepTldr = await dialog.locator('.summary-tldr').textContent();

          // Auto: a PDF is found, so the summary is the deep one, and the dialog says which mode was used.
          await dialog.getByRole('radio', { name: /Auto/ }).check();
          await expect
            .poll(() => dialog.textContent(), { timeout: 60_000 })
            .toContain('Summarised in deep mode.');
          await expect
            .poll(() => dialog.textContent(), { timeout: 60_000 })
            .toContain('Summary complete.');
          expect(await dialog.locator('.summary-tldr').textContent()).toBe(deepTldr);
          expect(await dialog.getByRole('radio', { name: /Auto/ }).isChecked()).toBe(true);

          // The dialog in both themes at both sizes.
          expect(await auditPage(page, 'details-summary-deep')).toEqual({});
          await dialog.getByRole('button', { name: 'Close' }).click();
          await dialog.waitFor({ state: 'detached' });
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      150_000,
    );

    it('paging: Next page loads page 2 (page=2 in the URL), Back returns to page 1, and a pasted ?page=2 restores page 2', async () => {
      const { context, page, errors } = await signedInPage();
      try {
        await search(page, MANY);
        const pager = page.getByRole('navigation', { name: 'Pages' });
        expect(await pager.textContent()).toMatch(/Page 1 of (\d+)/);
        expect(await pager.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
        const pageOne = await titlesOf(page);
        expect(pageOne).toHaveLength(10);

        await pager.getByRole('button', { name: 'Next page' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
        await expect.poll(() => pager.textContent()).toMatch(/^Previous page\s*Page 2 of \d+/);
        await expect
          .poll(() => page.getByRole('region', { name: 'Results' }).getAttribute('aria-busy'))
          .toBe('false');
        const pageTwo = await titlesOf(page);
        expect(pageTwo.length).toBeGreaterThan(0);
        expect(pageTwo.filter((title) => pageOne.includes(title))).toEqual([]);
        expect(await pager.getByRole('button', { name: 'Previous page' }).isEnabled()).toBe(true);
        expect(new URL(page.url()).searchParams.get('q')).toBe(MANY);

        await page.goBack();
        await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBeNull();
        await expect.poll(() => titlesOf(page)).toEqual(pageOne);
        expect(await pager.textContent()).toContain('Page 1 of');

        // A pasted link (a fresh load) shows page 2 again.
        await page.goto(`/dashboard?q=${MANY}&page=2`);
        await page.getByRole('article').first().waitFor();
        expect(await titlesOf(page)).toEqual(pageTwo);
        expect(await page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain(
          'Page 2 of',
        );
        // Previous page goes back down, dropping page from the URL.
        await page.getByRole('button', { name: 'Previous page' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBeNull();
        await expect.poll(() => titlesOf(page)).toEqual(pageOne);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it('a result card: authors shortened with "et al.", the abstract expands and collapses, a merged record has one badge per source', async () => {
      const { context, page, errors } = await signedInPage();
      try {
        await search(page, CHEMISTRY);
        const merged = page.getByRole('article', { name: CHEMISTRY });
        expect(await merged.count()).toBe(1);
        const badges = await merged
          .getByRole('list', { name: 'Sources' })
          .getByRole('listitem')
          .allTextContents();
        expect([...badges].sort()).toEqual(['Crossref', 'OpenAlex', 'Semantic Scholar']);

        // The paper has six authors: three are named, then "et al.".
        const authors = (await merged.locator('.result-authors').textContent())!;
        expect(authors).toMatch(/^[^,]+, [^,]+, [^,]+ et al\.$/);
        // A record with few authors names them all.
        const allAuthors = await page.locator('.result-authors').allTextContents();
        expect(
          allAuthors.some((text) => !text.includes('et al.') && text !== 'Unknown authors'),
        ).toBe(true);

        const toggle = merged.getByRole('button', { name: 'Show abstract' });
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        const abstract = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
        expect(await abstract.isVisible()).toBe(false);
        await toggle.click();
        const hide = merged.getByRole('button', { name: 'Hide abstract' });
        expect(await hide.getAttribute('aria-expanded')).toBe('true');
        await abstract.waitFor();
        expect((await abstract.textContent())!.length).toBeGreaterThan(100);
        await expectAccessible(page);
        await hide.click();
        expect(
          await merged.getByRole('button', { name: 'Show abstract' }).getAttribute('aria-expanded'),
        ).toBe('false');
        await abstract.waitFor({ state: 'hidden' });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it('provider chips say "timed out" and "rate limited"; a query with no results says so; axe in light and dark', async () => {
      const { context, page, errors } = await signedInPage();
      try {
        const chips = page.getByRole('toolbar', { name: 'Sources' });
        await search(page, SLOW);
        expect(await chips.getByRole('button', { name: /OpenAlex/ }).textContent()).toContain(
          'timed out',
        );
        expect(
          await chips.getByRole('button', { name: /Semantic Scholar/ }).textContent(),
        ).toContain('rate limited');
        // The others answered; the failed chips are still there and still chosen.
        expect(await chips.getByRole('button', { name: /Crossref/ }).textContent()).toMatch(
          /\d+ results?/,
        );
        expect(
          await chips.getByRole('button', { name: /OpenAlex/ }).getAttribute('aria-pressed'),
        ).toBe('true');
        expect(await page.getByRole('article').count()).toBeGreaterThan(0);
        await expectAccessibleInItsSchemes(page, 'details-providers-failed');

        await search(page, NOTHING);
        expect(await page.getByRole('status').filter({ hasText: NOTHING }).textContent()).toBe(
          `No results for “${NOTHING}”.`,
        );
        await page.getByText('Nothing found', { exact: true }).waitFor();
        expect(await page.getByRole('article').count()).toBe(0);
        expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);
        for (const name of ['arXiv', 'Crossref', 'OpenAlex', 'Semantic Scholar', 'Zenodo']) {
          expect(
            await chips.getByRole('button', { name: new RegExp(name) }).textContent(),
            name,
          ).toContain('0 results');
        }
        await expectAccessibleInItsSchemes(page, 'details-nothing-found');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it('workspaces: created from /workspaces, saved into on the first save (an existing one), counted, and renamed on the list and on its page', async () => {
      const { context, page, errors } = await signedInPage('new');
      try {
        await page.goto('/workspaces');
        await page.getByText('No workspaces yet').waitFor();
        // Three, so that the one chosen is neither the first nor the last in the list.
        await createWorkspace(page, 'First list');
        const row = await createWorkspace(page, 'Tools for chemists');
        expect(await row.textContent()).toContain('0 resources · 0 live share links');
        await createWorkspace(page, 'Another list');

        // The first save of this user goes into an existing workspace chosen from the list.
        await page.goto(`/dashboard?q=${encodeURIComponent(CHEMISTRY)}`);
        const result = page.getByRole('article', { name: CHEMISTRY });
        await result.getByRole('button', { name: 'Save' }).click();
        const save = page.getByRole('dialog', { name: 'Save to a workspace' });
        const choice = save.getByLabel('Workspace', { exact: true });
        await expect
          .poll(() => choice.locator('option').allTextContents())
          .toEqual(
            expect.arrayContaining([
              'First list (0)',
              'Tools for chemists (0)',
              'Another list (0)',
              'New workspace…',
            ]),
          );
        await choice.selectOption({ label: 'Tools for chemists (0)' });
        expect(await save.getByLabel('New workspace name').count()).toBe(0);
        await save.getByRole('button', { name: 'Save' }).click();
        await expect
          .poll(() => save.getByRole('status').textContent())
          .toBe('Saved to Tools for chemists.');
        await expectAccessible(page);
        await save.getByRole('link', { name: 'Tools for chemists' }).click();
        await page.waitForURL(/\/workspaces\/[0-9a-f-]{36}$/);
        await page.getByRole('article', { name: CHEMISTRY }).waitFor();

        // A share link counts too.
        await page.getByRole('button', { name: 'Share' }).click();
        await page
          .getByRole('list', { name: 'Share links' })
          .getByRole('listitem')
          .first()
          .waitFor();
        await page.getByRole('link', { name: '← All workspaces' }).click();
        const saved = page
          .getByRole('listitem')
          .filter({ has: page.getByRole('link', { name: 'Tools for chemists', exact: true }) });
        await expect.poll(() => saved.textContent()).toContain('1 resource · 1 live share link');
        for (const other of ['First list', 'Another list']) {
          expect(
            await page
              .getByRole('listitem')
              .filter({ has: page.getByRole('link', { name: other, exact: true }) })
              .textContent(),
          ).toContain('0 resources · 0 live share links');
        }

        // Rename on the list.
        await page.getByRole('button', { name: 'Rename Another list' }).click();
        const nameField = page.getByLabel('Workspace name', { exact: true });
        expect(await nameField.inputValue()).toBe('Another list');
        await nameField.fill('Renamed on the list');
        await expectAccessible(page);
        await page.getByRole('button', { name: 'Save name' }).click();
        await page.getByRole('link', { name: 'Renamed on the list', exact: true }).waitFor();
        expect(await page.getByRole('link', { name: 'Another list', exact: true }).count()).toBe(0);

        // Rename on the workspace's page: the heading and the title follow, and a reload keeps it.
        await page.getByRole('link', { name: 'Tools for chemists', exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'Tools for chemists' }).waitFor();
        await page.getByRole('button', { name: 'Rename', exact: true }).click();
        await page.getByLabel('Workspace name', { exact: true }).fill('Chemistry tools, renamed');
        await page.getByRole('button', { name: 'Save name' }).click();
        await page.getByRole('heading', { level: 1, name: 'Chemistry tools, renamed' }).waitFor();
        // The heading follows the workspace's reply; the form closes when the library list is read again too.
        await expect.poll(() => page.getByLabel('Workspace name', { exact: true }).count()).toBe(0);
        await expect.poll(() => page.title()).toContain('Chemistry tools, renamed');
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Chemistry tools, renamed' }).waitFor();
        await page.getByRole('link', { name: '← All workspaces' }).click();
        await page.getByRole('link', { name: 'Chemistry tools, renamed', exact: true }).waitFor();
        expect(
          await page.getByRole('link', { name: 'Renamed on the list', exact: true }).count(),
        ).toBe(1);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it('profile: the two e-mail toggles are saved and shown again after a reload; the language shown is the browser’s', async () => {
      const { context, page, errors } = await signedInPage();
      try {
        await page.goto('/profile');
        const notifications = page.getByRole('checkbox', { name: 'E-mail notifications' });
        const news = page.getByRole('checkbox', { name: 'News and product e-mails' });
        const language = page.getByRole('group', { name: 'Language' });
        await notifications.waitFor();
        const before = {
          notifications: await notifications.isChecked(),
          news: await news.isChecked(),
        };

        const saved = (): Promise<unknown> =>
          page.waitForResponse(
            (response) =>
              response.url().endsWith('/api/profile') &&
              response.request().method() === 'PUT' &&
              response.ok(),
          );
        await Promise.all([saved(), notifications.click()]);
        await Promise.all([saved(), news.click()]);
        // The page says so once the reply is handled, which may be a render after the response arrives.
        await expect
          .poll(() => page.getByRole('status').filter({ hasText: 'Preferences saved.' }).count())
          .toBe(1);

        await page.reload();
        await notifications.waitFor();
        expect({
          notifications: await notifications.isChecked(),
          news: await news.isChecked(),
        }).toEqual({ notifications: !before.notifications, news: !before.news });
        // The language is the browser's (this one's en-US), not the profile's en-IN: nothing to choose.
        const browserLanguage = await page.evaluate<string>('navigator.language');
        expect(await language.textContent()).toContain(`(${browserLanguage})`);
        expect(await language.textContent()).not.toContain('English (India)');
        expect(await language.getByRole('combobox').count()).toBe(0);
        const stored = await page.evaluate(
          async () => (await (await fetch('/api/profile')).json()) as ApiSchema<'ProfileReply'>,
        );
        expect(stored.profile.preferences).toMatchObject({
          emailNotifications: !before.notifications,
          marketingEmails: !before.news,
          language: 'en-IN',
        });

        // And back again.
        await Promise.all([saved(), notifications.click()]);
        await page.reload();
        await notifications.waitFor();
        expect(await notifications.isChecked()).toBe(before.notifications);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it('no horizontal overflow at 360 px and 1440 px on the dashboard with results and on a workspace page; main controls visible', async () => {
      const { context, page, errors } = await signedInPage('new');
      try {
        await page.goto(`/dashboard?q=${encodeURIComponent(CHEMISTRY)}`);
        const result = page.getByRole('article', { name: CHEMISTRY });
        await result.getByRole('button', { name: 'Save' }).click();
        const save = page.getByRole('dialog', { name: 'Save to a workspace' });
        await save
          .getByLabel('New workspace name')
          .fill('A rather long workspace name that has to wrap on a narrow phone screen');
        await save.getByRole('button', { name: 'Save' }).click();
        await save.getByRole('status').waitFor();
        await save.getByRole('link').click();
        await page.waitForURL(/\/workspaces\/[0-9a-f-]{36}$/);
        const workspaceUrl = page.url();
        await page.getByRole('button', { name: 'Share' }).click();
        await page.getByRole('button', { name: 'Copy link' }).waitFor();

        for (const width of [360, 1440]) {
          await page.setViewportSize({ width, height: 800 });

          await page.goto(`/dashboard?q=${encodeURIComponent(CHEMISTRY)}`);
          await page.getByRole('article').first().waitFor();
          expect(
            await pageWidths(page).then(
              ({ scrollWidth, clientWidth }) => scrollWidth <= clientWidth,
            ),
            `dashboard at ${width} px`,
          ).toBe(true);
          for (const control of [
            page.getByRole('searchbox', { name: 'Search' }),
            page.getByRole('button', { name: 'Search', exact: true }),
            page.getByLabel('Sort by'),
            page.getByRole('toolbar', { name: 'Sources' }),
            page.getByRole('article').first().getByRole('button', { name: 'Summarize' }),
            page.getByRole('article').first().getByRole('button', { name: 'Save' }),
          ]) {
            expect(await control.isVisible()).toBe(true);
            const box = (await control.boundingBox())!;
            expect(box.x).toBeGreaterThanOrEqual(0);
            expect(box.x + box.width).toBeLessThanOrEqual(width);
          }

          await page.goto(workspaceUrl);
          await page.getByRole('heading', { level: 1 }).waitFor();
          await page.getByRole('button', { name: 'Copy link' }).waitFor();
          // The library list loads after the workspace: its first resource opens in the panel.
          await page.getByRole('article', { name: CHEMISTRY }).waitFor();
          expect(
            await pageWidths(page).then(
              ({ scrollWidth, clientWidth }) => scrollWidth <= clientWidth,
            ),
            `workspace at ${width} px`,
          ).toBe(true);
          for (const control of [
            page.getByRole('heading', { level: 1 }),
            page.getByRole('button', { name: 'Rename', exact: true }),
            page.getByRole('button', { name: 'Delete', exact: true }),
            page.getByRole('button', { name: 'BibTeX' }),
            page.getByRole('button', { name: 'Share' }),
            page.getByRole('button', { name: 'Copy link' }),
            page
              .getByRole('article', { name: CHEMISTRY })
              .getByRole('button', { name: 'Add annotation' }),
          ]) {
            expect(await control.isVisible()).toBe(true);
            const box = (await control.boundingBox())!;
            expect(box.x).toBeGreaterThanOrEqual(0);
            expect(box.x + box.width).toBeLessThanOrEqual(width);
          }
        }
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it('the not-found page and /auth/update-password without a token: a clear message, a way back, axe clean in light and dark', async () => {
      const context = await newContext(browser, server.base);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        // A mistyped address outside the app's routes: the server answers 404 with the app, which says so.
        const mistyped = await page.goto('/no/such/page');
        expect(mistyped?.status()).toBe(404);
        await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
        // Under the app's routes the page is the app's too.
        await page.goto('/auth/no-such-page');
        await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
        expect(await page.getByRole('main').textContent()).toContain(
          'There is nothing at this address.',
        );
        expect(await page.title()).toContain('Page not found');
        expect(await auditPage(page, 'details-not-found')).toEqual({});
        await page.getByRole('link', { name: 'Go to search' }).click();
        // Signed out, the search page sends the visitor to sign in.
        await page.waitForURL(/\/auth\/signin/);

        await page.goto('/auth/update-password');
        const alert = page.getByRole('alert');
        await alert.waitFor();
        expect(await alert.textContent()).toBe(
          'This page needs the link from the password reset e-mail.',
        );
        expect(await page.getByLabel('Password').count()).toBe(0);
        expect(await auditPage(page, 'details-update-password-no-token')).toEqual({});
        await page.getByRole('link', { name: 'Send a new reset link' }).click();
        await page.waitForURL('**/auth/forgot-password');
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(await page.getByLabel('Email').count()).toBe(1);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  },
);
