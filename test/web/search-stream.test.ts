/**
 * The search flow as a newcomer met it (issue 23, items 2, 10, 11 and the chips of 17), in Chromium
 * against the real service with the providers answered from recorded fixtures:
 * - one slow provider (Semantic Scholar, 3 s) no longer holds the others' results: they are on screen
 *   while its chip says "searching…", then its record merges into the card already shown, which keeps
 *   the focus; PubMed failing is a notice beside the results, not a silence;
 * - no source answering says so, with each source's reason (on screen and as each chip's
 *   description), and Retry asks again;
 * - the chips are one Tab stop (a toolbar: arrow keys, Home and End move within it);
 * - re-sorting, turning to a page already fetched and narrowing the sources are not new searches:
 *   the search limit's count and analytics stay as the first search left them.
 * Each state passes axe (serious/critical) in light and dark, at the two journey sizes, and no page
 * scrolls sideways at 360 px.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRoute, QueryMatcher } from '../support/fixture-server.js';
import {
  auditPage,
  JOURNEY_TIMEOUT_MS,
  launchChromium,
  newContext,
  newCredentials,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  type WebServer,
  pageWidths,
} from '../support/web-browser.js';

/** The paper Crossref, OpenAlex and Semantic Scholar all record (same DOI): one merged card. */
const CHEMISTRY = 'Augmenting large language models with chemistry tools';
/** Semantic Scholar answers this after SLOW_MS; PubMed fails; the others answer at once. */
const STREAMED = 'chemistry tools streamed';
const SLOW_MS = 3_000;
/** No source answers this; Crossref does the second time it is asked. */
const NO_SOURCE = 'nosource chemistry tools';
/** Semantic Scholar's hundred records and Zenodo's two: every source asked answers, over several pages. */
const PAGED = 'turing';

function mentions(word: string): QueryMatcher {
  return (query) => [...query.values()].some((value) => value.toLowerCase().includes(word));
}

const ROUTES: FixtureRoute[] = [
  // NO_SOURCE: every source fails, each its own way; Crossref only the first time.
  { path: '/arxiv/query', query: mentions('nosource'), status: 500, body: 'upstream failure' },
  {
    path: '/pubmed/esearch.fcgi',
    query: mentions('nosource'),
    status: 500,
    body: 'upstream failure',
  },
  {
    path: '/crossref/works',
    query: mentions('nosource'),
    status: 500,
    body: 'upstream failure',
    times: 1,
  },
  { path: '/openalex/works', query: mentions('nosource'), status: 500, body: 'upstream failure' },
  {
    path: '/semanticscholar/paper/search',
    query: mentions('nosource'),
    status: 429,
    fixture: 'semanticscholar/error_429_too_many_requests.json',
  },
  // Zenodo cannot be reached at all: the connection closes before any answer.
  { path: '/zenodo/records', query: mentions('nosource'), hangUp: true },
  // STREAMED: Semantic Scholar is slow.
  {
    path: '/semanticscholar/paper/search',
    query: mentions('streamed'),
    fixture: 'semanticscholar/paper_search_match_augmenting-llm-chemistry-tools.json',
    delayMs: SLOW_MS,
  },
  // PAGED: a hundred records from Semantic Scholar.
  {
    path: '/semanticscholar/paper/search',
    query: mentions(PAGED),
    fixture: 'semanticscholar/paper_search_turing_all-fields_limit100.json',
  },
  // Any other query, and what is left of those above.
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
];

// Run in the page (the service's tsconfig has no DOM types, so these are given as source text).
/** The focused element: a chip's name is its first span. */
const FOCUSED = `(() => {
  const element = document.activeElement;
  return {
    name: (element.querySelector('span')?.textContent ?? element.getAttribute('aria-label') ?? element.textContent ?? '').trim(),
    inToolbar: element.closest('[role="toolbar"]') !== null,
    tag: element.tagName.toLowerCase(),
  };
})()`;

type InPage = { ownerDocument: { activeElement: unknown } };
const isFocused = (locator: Locator) =>
  locator.evaluate((element: InPage) => element === element.ownerDocument.activeElement);

describe.skipIf(webSkipReason)(
  'the search flow: streamed results, failed sources, the chips, what counts as a search (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      [server, browser] = await Promise.all([startWebServer({ routes: ROUTES }), launchChromium()]);
      context = await newContext(browser, server.base);
      await signUpThroughApi(context, server.base, newCredentials('stream'));
      page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
    }, 240_000);
    afterAll(async () => {
      await context?.close();
      await browser?.close();
      await server?.close();
      expect(pageErrors).toEqual([]);
    });

    const chips = () => page.getByRole('toolbar', { name: 'Sources' });
    const chip = (name: string) => chips().getByRole('button', { name: new RegExp(`^${name}`) });
    const results = () => page.getByRole('region', { name: 'Results' });
    /** Every provider has answered: the results are no longer busy. */
    const settled = () =>
      page.locator('section[aria-label="Results"][aria-busy="false"]').waitFor();
    /** A chip's description (aria-describedby): its state in a sentence. */
    const descriptionOf = async (element: Locator) => {
      const id = await element.getAttribute('aria-describedby');
      return id ? page.locator(`[id="${id}"]`).textContent() : null;
    };
    const noSideways = async () => {
      await page.setViewportSize({ width: 360, height: 800 });
      const { scrollWidth, clientWidth } = await pageWidths(page);
      await page.setViewportSize({ width: 1280, height: 800 });
      return scrollWidth <= clientWidth;
    };

    it('shows the fast sources’ results while a slow one is searching, then merges its record into the card in place, focus kept', async () => {
      await page.goto(`/dashboard?q=${encodeURIComponent(STREAMED)}`);
      const merged = page.getByRole('article', { name: CHEMISTRY });
      await merged.waitFor();
      // Semantic Scholar has not answered: its chip says so, the others' results are already here.
      expect(await chip('Semantic Scholar').textContent()).toContain('searching…');
      expect(await descriptionOf(chip('Semantic Scholar'))).toBe(
        'Semantic Scholar has not answered yet.',
      );
      expect(await results().getAttribute('aria-busy')).toBe('true');
      expect(await results().getByRole('status').textContent()).toMatch(
        /^Searching… \d of 6 sources have answered; \d+ results? so far\.$/,
      );
      expect(
        [
          ...(await merged
            .getByRole('list', { name: 'Sources' })
            .getByRole('listitem')
            .allTextContents()),
        ].sort(),
      ).toEqual(['Crossref', 'OpenAlex']);
      const save = merged.getByRole('button', { name: 'Save' });
      await save.focus();

      // Its answer merges into the same card: one more source badge, and the focus is where it was.
      await expect
        .poll(() => chip('Semantic Scholar').textContent(), { timeout: SLOW_MS * 3 })
        .toMatch(/\d+ results?$/);
      await settled();
      expect(
        [
          ...(await merged
            .getByRole('list', { name: 'Sources' })
            .getByRole('listitem')
            .allTextContents()),
        ].sort(),
      ).toEqual(['Crossref', 'OpenAlex', 'Semantic Scholar']);
      expect(await isFocused(save)).toBe(true);
      expect(await results().getByRole('status').textContent()).toMatch(
        new RegExp(`^\\d+ results for “${STREAMED}” \\(\\d+\\.\\d s\\)$`),
      );

      // PubMed failed: said beside the results, with its reason and a way to ask again.
      const notice = results().locator('.sources-notice');
      expect(await notice.textContent()).toContain(
        'Some sources did not answer, so their results are missing. PubMed answered with an error.',
      );
      expect(await notice.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
      expect(await chip('PubMed').textContent()).toContain('failed');
      expect(await descriptionOf(chip('PubMed'))).toBe('PubMed answered with an error.');
      expect(await noSideways()).toBe(true);
      expect(await auditPage(page, 'search-streamed-partly-failed')).toEqual({});
    });

    it('says that no source answered, and why, instead of "Nothing found"; Retry asks again', async () => {
      await page.goto(`/dashboard?q=${encodeURIComponent(NO_SOURCE)}`);
      const alert = page.getByRole('alert').filter({ hasText: 'No source answered' });
      await alert.waitFor();
      expect(await page.getByText('Nothing found').count()).toBe(0);
      expect(await results().getByRole('status').textContent()).toBe(
        `No source answered for “${NO_SOURCE}”.`,
      );
      expect([...(await alert.getByRole('listitem').allTextContents())].sort()).toEqual([
        'Crossref answered with an error.',
        'OpenAlex answered with an error.',
        'PubMed answered with an error.',
        'Semantic Scholar is refusing requests for now (rate limited).',
        'Zenodo could not be reached.',
        'arXiv answered with an error.',
      ]);
      expect(await chip('Zenodo').textContent()).toContain('unreachable');
      // Each chip carries its reason too, for whoever reaches it by keyboard or screen reader.
      expect(await chip('Semantic Scholar').textContent()).toContain('rate limited');
      expect(await descriptionOf(chip('Semantic Scholar'))).toBe(
        'Semantic Scholar is refusing requests for now (rate limited).',
      );
      expect(await descriptionOf(chip('YouTube'))).toBe('YouTube is not set up on this server.');
      expect(await noSideways()).toBe(true);
      expect(await auditPage(page, 'search-no-source-answered')).toEqual({});

      // Crossref answers the second time: its result shows, the others are a notice.
      const asked = server.fixtures.requestsTo('/crossref/works').length;
      await alert.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('article', { name: CHEMISTRY }).waitFor();
      await settled();
      expect(server.fixtures.requestsTo('/crossref/works').length).toBe(asked + 1);
      expect(await alert.count()).toBe(0);
      const missing = await results().locator('.sources-notice').textContent();
      expect(missing).toContain('Some sources did not answer, so their results are missing.');
      for (const name of ['arXiv', 'PubMed', 'OpenAlex', 'Semantic Scholar', 'Zenodo'])
        expect(missing).toContain(`${name} `);
      expect(missing).not.toContain('Crossref');
    });

    it('makes the chips one Tab stop: arrow keys, Home and End move within them, Space toggles one', async () => {
      await page.goto(`/dashboard?q=${encodeURIComponent(CHEMISTRY)}`);
      await page.getByRole('article').first().waitFor();
      await settled();
      await page.getByRole('button', { name: 'Search', exact: true }).focus();
      await page.keyboard.press('Tab');
      const focused = () =>
        page.evaluate<{ name: string; inToolbar: boolean; tag: string }>(FOCUSED);
      expect(await focused()).toEqual({ name: 'arXiv', inToolbar: true, tag: 'button' });
      // One Tab leaves the chips for the sort.
      await page.keyboard.press('Tab');
      expect(await isFocused(page.getByLabel('Sort by'))).toBe(true);
      await page.keyboard.press('Shift+Tab');
      expect((await focused()).name).toBe('arXiv');
      await page.keyboard.press('ArrowRight');
      expect((await focused()).name).toBe('PubMed');
      await page.keyboard.press('End');
      expect((await focused()).name).toBe('YouTube');
      expect(await chip('YouTube').getAttribute('aria-disabled')).toBe('true');
      await page.keyboard.press('ArrowRight');
      expect((await focused()).name).toBe('arXiv');
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowLeft');
      expect((await focused()).name).toBe('YouTube');
      // Tab leaves from whichever chip was last; coming back lands on it again.
      await page.keyboard.press('ArrowLeft');
      expect((await focused()).name).toBe('Zenodo');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Shift+Tab');
      expect((await focused()).name).toBe('Zenodo');
      await page.keyboard.press(' ');
      await expect
        .poll(() => new URL(page.url()).searchParams.get('providers'))
        .toBe('arxiv,pubmed,crossref,openalex,semanticscholar');
      expect(await chip('Zenodo').getAttribute('aria-pressed')).toBe('false');
      // From the search box, the first result's Summarize is a few Tabs away: not one per chip.
      await page.getByRole('searchbox', { name: 'Search' }).focus();
      let presses = 0;
      const summarize = page
        .getByRole('article')
        .first()
        .getByRole('button', { name: 'Summarize' });
      while (!(await isFocused(summarize)) && presses < 30) {
        await page.keyboard.press('Tab');
        presses += 1;
      }
      expect(presses).toBeLessThanOrEqual(8);
    });

    it('counts a re-sort, a page already fetched and fewer sources as no new search, in the limit and in analytics', async () => {
      const remaining: string[] = [];
      const onResponse = (response: { url(): string; headers(): Record<string, string> }) => {
        if (
          new URL(response.url()).pathname.startsWith('/api/search') &&
          !response.url().includes('/providers')
        )
          remaining.push(response.headers()['ratelimit-remaining'] ?? 'none');
      };
      page.on('response', onResponse);
      try {
        await page.goto(`/dashboard?q=${PAGED}&providers=semanticscholar,zenodo`);
        await page.getByRole('article').first().waitFor();
        await settled();
        await page.getByLabel('Sort by').selectOption('date');
        await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('date');
        await settled();
        await page.getByRole('button', { name: 'Next page' }).click();
        await expect
          .poll(() => page.getByRole('navigation', { name: 'Pages' }).textContent())
          .toContain('Page 2 of');
        await settled();
        await chip('Zenodo').click();
        await expect
          .poll(() => new URL(page.url()).searchParams.get('providers'))
          .toBe('semanticscholar');
        await settled();
        // The page can look settled (the previous page kept on screen) before the last answer's headers
        // arrive: wait for the fourth answer itself.
        await expect.poll(() => remaining.length).toBe(4);
      } finally {
        page.off('response', onResponse);
      }
      // The first search was counted once it asked the providers; nothing since has been.
      expect(remaining).toHaveLength(4);
      expect(new Set(remaining.slice(1)).size).toBe(1);
      expect(Number(remaining[1])).toBe(Number(remaining[0]) - 1);
      type SearchAnalytics = { searches: Array<{ query: string; count: number }> };
      await expect
        .poll(async () =>
          (
            (await (
              await page.request.get('/api/analytics/search?period=day')
            ).json()) as SearchAnalytics
          ).searches.filter((search) => search.query.toLowerCase() === PAGED),
        )
        .toEqual([expect.objectContaining({ count: 1 })]);
    });
  },
);
