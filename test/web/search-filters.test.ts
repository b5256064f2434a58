/**
 * Search filters and how a result reads (issue 23: search filters, item 12), in Chromium against the
 * real service with the providers answered from recorded fixtures (every provider answers unfiltered,
 * as one that ignores a filter would: the service filters the merged list). The filter bar opens from a
 * "Filters" disclosure, applies year, type and PDF filters kept in the URL (back/forward restore them),
 * says the active filters in a sentence the button is described by, and clears them; a range the wrong
 * way round is refused at its field. A result says its date as the browser's language (en-US) writes it,
 * its type in words, and nothing rather than "0 citations" when the count is unknown (arXiv); analytics'
 * "Last searched" follows the language too. Every state
 * passes axe and scrolls nothing sideways, in light and dark at 360 and 1440 px.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRoute } from '../support/fixture-server.js';
import {
  auditCombinations,
  launchChromium,
  newContext,
  newCredentials,
  screenshot,
  seriousA11yViolations,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
  pageWidths,
} from '../support/web-browser.js';

const QUERY = 'Augmenting large language models with chemistry tools';
const ROUTES: FixtureRoute[] = [
  { path: '/arxiv/query', fixture: 'arxiv/query_all-testing_start0_max10.xml' },
  { path: '/pubmed/esearch.fcgi', fixture: 'pubmed/esearch_no_results_PhraseNotFound.xml' },
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
/** The article every provider but arXiv and Zenodo knows (Crossref: published 2024-05-08, journal-article). */
const ARTICLE = /Augmenting large language models with chemistry tools/i;
/** An arXiv preprint of the fixture (submitted 2022-02-24); arXiv publishes no citation counts. */
const PREPRINT =
  'Testing Deep Learning Models: A First Comparative Study of Multiple Testing Techniques';
const SIZES = [
  { width: 360, height: 800 },
  { width: 1440, height: 900 },
] as const;
const THEME_IN_USE = 'document.documentElement.dataset.theme';
/** The focused element's text, and whether it shows a focus ring (:focus-visible with an outline of 2 px or more). */
const FOCUSED =
  `(() => {
  const element = document.activeElement;
  const style = getComputedStyle(element);
  return { text: (element.textContent ?? '').trim(), visible: ` +
  `element.matches(':focus-visible') && style.outlineStyle !== 'none' && ` +
  `parseFloat(style.outlineWidth) >= 2 };
})()`;
/** The text of the elements the Filters button's description points at. */
const DESCRIPTION_OF = (name: string) =>
  `(() => { const button = ` +
  `[...document.querySelectorAll('button')].find((b) => ` +
  `b.textContent.startsWith(${JSON.stringify(name)})); return ` +
  `(button.getAttribute('aria-describedby') ?? '').split(' ').map((id) => ` +
  `document.getElementById(id)?.textContent ?? '').join(' '); })()`;

describe.skipIf(webSkipReason)(
  'search filters and result facts (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      [server, browser] = await Promise.all([startWebServer({ routes: ROUTES }), launchChromium()]);
      // An en-US browser: dates are written its way, signed in or not (the profile's en-IN is not used).
      context = await newContext(browser, server.base, 'desktop', 'light', 'en-US');
      await signUpThroughApi(context, server.base, newCredentials('filters'));
      page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
    }, 240_000);
    afterAll(async () => {
      await context?.close();
      await browser?.close();
      await server?.close();
      expect(pageErrors).toEqual([]);
    });

    const results = () => page.getByRole('region', { name: 'Results' });
    const card = (title: string | RegExp): Locator =>
      results()
        .getByRole('article')
        .filter({ has: page.getByRole('heading', { name: title }) });
    const filtersButton = () => page.getByRole('button', { name: /^Filters/ });

    /**
     * No sideways scroll at 360 and 1440 px; axe (serious/critical) and a photograph at the page's
     * combination of size and scheme (`auditCombinations`: one, all four with WEB_AUDIT=all).
     */
    async function auditAtBothSizes(name: string): Promise<void> {
      for (const size of SIZES) {
        await page.setViewportSize(size);
        const { scrollWidth, clientWidth } = await pageWidths(page);
        expect(scrollWidth, `${name} ${size.width}`).toBeLessThanOrEqual(clientWidth);
      }
      for (const [viewport, scheme] of auditCombinations(name)) {
        const size = SIZES[viewport === 'mobile' ? 0 : 1];
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await expect.poll(() => page.evaluate<string>(THEME_IN_USE)).toBe(scheme);
        expect(await seriousA11yViolations(page), `${name} ${size.width} ${scheme}`).toEqual([]);
        const { scrollWidth, clientWidth } = await pageWidths(page);
        expect(scrollWidth, `${name} ${size.width} ${scheme}`).toBeLessThanOrEqual(clientWidth);
        await screenshot(page, `${name}-${size.width}-${scheme}`);
      }
      await page.setViewportSize(SIZES[1]);
      await page.emulateMedia({ colorScheme: 'light' });
    }

    it('shows dates as the browser writes them (en-US), the same for a visitor, types as words, and no count when citations are unknown', async () => {
      await page.goto(`/dashboard?q=${encodeURIComponent(QUERY)}`);
      await card(PREPRINT).waitFor();

      const preprint = card(PREPRINT);
      const preprintFacts = await preprint.locator('.result-facts').textContent();
      expect(preprintFacts).toContain('Feb 24, 2022');
      expect(preprintFacts).not.toContain('24 Feb 2022');
      expect(preprintFacts).toContain('Preprint');
      expect(preprintFacts).not.toMatch(/citation/);
      expect(await preprint.locator('time').getAttribute('datetime')).toBe('2022-02-24');

      const article = card(ARTICLE).first();
      const articleFacts = await article.locator('.result-facts').textContent();
      expect(articleFacts).toContain('May 8, 2024');
      expect(articleFacts).not.toContain('8 May 2024');
      expect(articleFacts).toContain('Journal article');
      expect(articleFacts).not.toMatch(/journal-article|JournalArticle/);
      expect(await article.locator('.result-facts span').allTextContents()).toContain(
        '488 citations',
      );
      await auditAtBothSizes('search-result-facts');

      // Visitors (the front page's search): the same format in the same browser language, and their
      // own browser's in another.
      for (const [locale, date] of [
        ['en-US', 'Feb 24, 2022'],
        ['en-GB', '24 Feb 2022'],
      ] as const) {
        const visitorContext = await newContext(browser, server.base, 'desktop', 'light', locale);
        try {
          const visitor = await visitorContext.newPage();
          await visitor.goto(`/?q=${encodeURIComponent(QUERY)}`);
          const facts = visitor
            .getByRole('article')
            .filter({ has: visitor.getByRole('heading', { name: PREPRINT }) })
            .locator('.result-facts');
          await facts.waitFor();
          expect(await facts.textContent(), locale).toContain(date);
        } finally {
          await visitorContext.close();
        }
      }
    });

    it('filters by year, type and PDF through the Filters disclosure, keeps them in the URL, and clears them', async () => {
      await page.goto(`/dashboard?q=${encodeURIComponent(QUERY)}`);
      await card(PREPRINT).waitFor();
      const unfiltered = await results().getByRole('article').count();
      expect(unfiltered).toBeGreaterThan(5);

      // Compact: the filters are behind one button until it is opened.
      expect(await filtersButton().getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByLabel('From year').isVisible()).toBe(false);
      await filtersButton().click();
      expect(await filtersButton().getAttribute('aria-expanded')).toBe('true');
      const form = page.getByRole('form', { name: 'Search filters' });
      await auditAtBothSizes('search-filters-open');

      // A range the wrong way round is refused at its field, in a sentence; nothing is searched.
      await form.getByLabel('From year').fill('2022');
      await form.getByLabel('To year').fill('2020');
      await form.getByRole('button', { name: 'Apply filters' }).click();
      await form.getByText('Not before the first year.').waitFor();
      expect(await form.getByLabel('To year').getAttribute('aria-invalid')).toBe('true');
      expect(new URL(page.url()).searchParams.has('yearFrom')).toBe(false);

      // By keyboard: the fields, the checkbox and Apply; focus then returns to the Filters button, visibly.
      await form.getByLabel('From year').fill('2023');
      await form.getByLabel('To year').fill('');
      await form.getByLabel('Type').selectOption({ label: 'Article' });
      await form.getByLabel('Venue').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      expect(await form.getByLabel('Only with a free PDF').isChecked()).toBe(true);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('yearFrom') === '2023');
      await expect
        .poll(() => page.evaluate<{ text: string; visible: boolean }>(FOCUSED))
        .toEqual({ text: 'Filters (3)', visible: true });
      const params = new URL(page.url()).searchParams;
      expect(Object.fromEntries(params)).toEqual({
        q: QUERY,
        yearFrom: '2023',
        type: 'article',
        hasPdf: 'true',
      });
      await expect.poll(() => results().getByRole('article').count()).toBe(1);
      await card(ARTICLE).waitFor();
      expect(await page.locator('.results-summary').textContent()).toContain('1 result');

      // The active filters read as a sentence, which also describes the Filters button to a screen reader.
      const summary = 'Filtered: Published in or after 2023, With a free PDF, Article.';
      expect(await filtersButton().textContent()).toBe('Filters (3)');
      expect(await page.getByText(summary).isVisible()).toBe(true);
      expect(await page.evaluate<string>(DESCRIPTION_OF('Filters'))).toContain(summary);
      await auditAtBothSizes('search-filters-active');

      // Back restores the unfiltered list, Forward the filtered one (the form follows).
      await page.goBack();
      await expect.poll(() => results().getByRole('article').count()).toBe(unfiltered);
      expect(await filtersButton().textContent()).toBe('Filters');
      await page.goForward();
      await expect.poll(() => results().getByRole('article').count()).toBe(1);
      await filtersButton().click();
      expect(
        await page
          .getByRole('form', { name: 'Search filters' })
          .getByLabel('From year')
          .inputValue(),
      ).toBe('2023');

      // A type no result has: nothing found, and the words say the filters may be why.
      await page.goto(`/dashboard?q=${encodeURIComponent(QUERY)}&type=video`);
      await page.getByText('Nothing found').waitFor();
      expect(await page.locator('main').textContent()).toContain('fewer filters');

      // Clear filters: every result again, and the URL keeps only the query.
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.waitForURL((url) => !url.searchParams.has('type'));
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ q: QUERY });
      await expect.poll(() => results().getByRole('article').count()).toBe(unfiltered);
      expect(await page.getByRole('button', { name: 'Clear filters' }).count()).toBe(0);
    });

    it('writes when a query was last searched as the browser’s language does (analytics)', async () => {
      await page.goto('/analytics');
      const row = page
        .getByRole('table', { name: /Top queries/ })
        .getByRole('row')
        .filter({ hasText: QUERY });
      await row.waitFor();
      const when = row.locator('time');
      expect(await when.getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      // en-US, the browser's: "Nov 27, 2026, 6:19 PM", not the profile's en-IN ("27 Nov 2026, 6:19 pm").
      expect(await when.textContent()).toMatch(
        /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s(AM|PM)$/,
      );
    });
  },
);
