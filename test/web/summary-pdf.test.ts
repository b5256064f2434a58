/**
 * The deep summary of a search result uses what the result knows of its PDF (issue 23, item 1): a
 * Semantic Scholar record's arXiv id, not only its semanticscholar.org page; and when a deep summary
 * fails, the quick summary stays on screen with the reason (item 1). A result without an abstract has
 * nothing for a quick summary, and the dialog says so and offers the full text (item 3). Real recorded Semantic Scholar results,
 * their addresses moved onto the fixture server so that nothing leaves the machine.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  newContext,
  newCredentials,
  seriousA11yViolations,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
} from '../support/web-browser.js';

interface S2Paper {
  title: string;
  url?: string;
  openAccessPdf?: { url?: string } | null;
}

/** The recorded search, every page and PDF address it names moved to `base` (pages are HTML, PDFs 404). */
function recordedSearchAt(base: string): string {
  const recorded = JSON.parse(
    readFileSync(
      new URL(
        '../fixtures/providers/semanticscholar/paper_search_turing_all-fields_limit100.json',
        import.meta.url,
      ),
      'utf8',
    ),
  ) as { data: S2Paper[] };
  recorded.data.forEach((paper, index) => {
    paper.url = `${base}/s2-page/${index}`;
    if (paper.openAccessPdf?.url) paper.openAccessPdf.url = `${base}/missing-pdf/${index}.pdf`;
  });
  return JSON.stringify(recorded);
}

describe.skipIf(webSkipReason)(
  'deep summaries of search results (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      server = await startWebServer({
        routes: [
          {
            path: /^\/arxiv-pdf\//,
            fixture: '../pdfs/specter-acl2020-2col.pdf',
            headers: { 'content-type': 'application/pdf' },
          },
          {
            path: /^\/s2-page\//,
            body: '<!doctype html><title>A paper page</title>',
            headers: { 'content-type': 'text/html; charset=utf-8' },
          },
        ],
      });
      server.fixtures.addRoute({
        path: '/semanticscholar/paper/search',
        body: recordedSearchAt(server.fixtures.url),
        headers: { 'content-type': 'application/json' },
      });
      browser = await launchChromium();
      context = await newContext(browser, server.base);
      await signUpThroughApi(context, server.base, newCredentials('deep'));
      page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto('/dashboard?q=turing&providers=semanticscholar');
      await page.getByRole('article').first().waitFor();
    }, 240_000);
    afterAll(async () => {
      await context?.close();
      await browser?.close();
      await server?.close();
      expect(pageErrors).toEqual([]);
    });

    const resultCard = (title: string) =>
      page
        .getByRole('article')
        .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

    async function openSummary(title: string) {
      await resultCard(title).getByRole('button', { name: 'Summarize' }).click();
      const dialog = page.getByRole('dialog', { name: 'Summary' });
      // The dialog remembers the last mode chosen: start from Quick.
      await dialog.getByRole('radio', { name: /Quick/ }).check();
      await expect
        .poll(() => dialog.textContent(), { timeout: 15_000 })
        .toContain('Summary complete.');
      return dialog;
    }

    it('reads the arXiv PDF of a Semantic Scholar result that names an arXiv id, not its semanticscholar.org page', async () => {
      const dialog = await openSummary('Neural Turing Machines');
      const asked = page.waitForRequest(
        (request) =>
          request.url().includes('/api/summarize?') && request.url().includes('mode=deep'),
      );
      await dialog.getByRole('radio', { name: /Deep/ }).check();
      const query = new URL((await asked).url()).searchParams;
      expect(query.get('arxivId')).toBe('1410.5401');
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
      expect(server.fixtures.requestsTo('/arxiv-pdf/1410.5401').length).toBe(1);
      expect(server.fixtures.requestsTo(/^\/s2-page\//)).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    });

    it('says a result without an abstract has nothing for a quick summary, and offers the full text when its PDF is known', async () => {
      // "Implementing Neural Turing Machines": no abstract, an arXiv id. Found on whichever page it is.
      const title = 'Implementing Neural Turing Machines';
      for (let number = 1; number <= 10 && (await resultCard(title).count()) === 0; number++) {
        await page.goto(`/dashboard?q=turing&providers=semanticscholar&page=${number}`);
        await page.getByRole('article').first().waitFor();
      }
      await resultCard(title).getByRole('button', { name: 'Summarize' }).click();
      const dialog = page.getByRole('dialog', { name: 'Summary' });
      await dialog.getByRole('radio', { name: /Quick/ }).check();
      await dialog
        .getByText('This result has no abstract to summarise; its full text may be.')
        .waitFor();
      // Nothing was asked of the service, and no title is passed off as a summary.
      expect(await dialog.locator('.summary-tldr').count()).toBe(0);
      expect(await dialog.textContent()).not.toContain('Summary complete.');
      await dialog.getByRole('button', { name: 'Summarise the full text (deep)' }).click();
      expect(await dialog.getByRole('radio', { name: /Deep/ }).isChecked()).toBe(true);
      await expect
        .poll(() => dialog.textContent(), { timeout: 60_000 })
        .toContain('Summary complete.');
      expect(server.fixtures.requestsTo('/arxiv-pdf/1807.08518').length).toBe(1);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.goto('/dashboard?q=turing&providers=semanticscholar');
      await page.getByRole('article').first().waitFor();
    });

    it('keeps the quick summary on screen, with the reason, when the deep one fails', async () => {
      // No arXiv id; its open-access PDF address answers 404 and its page is HTML.
      const dialog = await openSummary(
        'Polyamide membranes with nanoscale Turing structures for water purification',
      );
      const quickTldr = await dialog.locator('.summary-tldr').textContent();
      expect(quickTldr).toMatch(/\w{3,}/);
      await dialog.getByRole('radio', { name: /Deep/ }).check();
      const failure = dialog.getByRole('alert');
      await expect
        .poll(() => failure.textContent(), { timeout: 60_000 })
        .toContain('The deep summary could not be made');
      expect(server.fixtures.requestsTo(/^\/missing-pdf\//).length).toBeGreaterThan(0);
      // The dialog stays open and the quick summary is still there, under its own heading.
      const kept = dialog.getByRole('region', { name: 'Quick summary' });
      expect(await kept.locator('.summary-tldr').textContent()).toBe(quickTldr);
      expect(
        await kept.getByRole('region', { name: 'Key points' }).getByRole('listitem').count(),
      ).toBeGreaterThan(0);
      expect(await failure.getByRole('button', { name: 'Try again' }).count()).toBe(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  },
);
