/**
 * Journey in Chromium against the real service, providers answered from recorded bodies: a search
 * result's "References" list (GET /api/works/{id}/references, Semantic Scholar's recorded references of
 * another paper), read by keyboard, checked by axe in light and dark and at 360 px, and one reference
 * saved into a new workspace, after which the list says it is in the library.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, type FixtureRoute } from '../support/fixture-server.js';
import {
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

const CHEMISTRY = 'Augmenting large language models with chemistry tools';
const CHEMISTRY_DOI = '10.1038/s42256-024-00832-8';
const REFERENCES =
  'semanticscholar/paper_references_doi-10.2139_ssrn.2250500_fields-title_offset0_limit50.json';
const THEME_IN_USE = 'document.documentElement.dataset.theme';

/** The recorded references with a paper id, as the list should show them: alphabetical (no counts nor years recorded). */
const referenced = (
  JSON.parse(readFixture(REFERENCES)) as {
    data: Array<{ citedPaper: { paperId: string | null; title: string } }>;
  }
).data
  .map((edge) => edge.citedPaper)
  .filter((paper) => paper.paperId !== null)
  .map((paper) => paper.title)
  .sort((a, b) => a.localeCompare(b));

const ROUTES: FixtureRoute[] = [
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
  { path: `/semanticscholar/paper/DOI:${CHEMISTRY_DOI}/references`, fixture: REFERENCES },
  { path: /^\/openalex\/works\//, status: 404, fixture: 'openalex/error_404_work_not_found.html' },
  { path: '/arxiv/query', fixture: 'arxiv/empty_idlist_0000.0000_totalResults0.xml' },
  { path: '/pubmed/esearch.fcgi', fixture: 'pubmed/esearch_no_results_PhraseNotFound.xml' },
  { path: '/zenodo/records', fixture: 'zenodo/records_search_q-title_size2_page1.json' },
];

describe.skipIf(webSkipReason)('web app related works (Chromium)', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startWebServer({ routes: ROUTES });
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('follows a result’s references, reads them by keyboard in light, dark and at 360 px, and saves one', async () => {
    const context = await newContext(browser, server.base);
    try {
      await signUpThroughApi(context, server.base, newCredentials('related'));
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`/dashboard?q=${encodeURIComponent(CHEMISTRY)}`);
      const result = page.getByRole('article', { name: CHEMISTRY });
      // The related works open on demand: the card stays compact until asked.
      const related = result.getByRole('button', { name: 'Related works' });
      expect(await related.getAttribute('aria-expanded')).toBe('false');
      expect(await result.getByRole('button', { name: 'References' }).count()).toBe(0);
      await related.click();
      expect(await related.getAttribute('aria-expanded')).toBe('true');
      const toggle = result.getByRole('button', { name: 'References' });
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');

      const list = result.getByRole('region', { name: 'References' });
      await expect
        .poll(() => list.getByRole('status').textContent())
        .toBe(`10 of ${referenced.length} shown, most cited first.`);
      expect(await list.getByRole('heading', { level: 3 }).allTextContents()).toEqual(
        referenced.slice(0, 10),
      );

      for (const scheme of auditSchemes('related-references')) {
        await page.emulateMedia({ colorScheme: scheme });
        await expect.poll(() => page.evaluate<string>(THEME_IN_USE)).toBe(scheme);
        expect(await seriousA11yViolations(page), scheme).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 360, height: 800 });
      const { scrollWidth, clientWidth } = await pageWidths(page);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      await page.setViewportSize({ width: 1280, height: 800 });

      const first = referenced[0]!;
      await list.getByRole('button', { name: `Save “${first}”` }).click();
      const save = page.getByRole('dialog', { name: 'Save to a workspace' });
      await save.getByText(first).waitFor();
      await save.getByLabel('New workspace name').fill('Followed references');
      await save.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() => save.getByRole('status').textContent())
        .toBe('Saved to Followed references.');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await save.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => save.count()).toBe(0);
      // The list now says where the saved reference is; the others say nothing.
      const items = list.getByRole('listitem');
      await expect
        .poll(() =>
          items.filter({ hasText: 'In your library' }).getByRole('heading').allTextContents(),
        )
        .toEqual([first]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
