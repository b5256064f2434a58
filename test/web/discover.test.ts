/**
 * Journey in Chromium against the real service, OpenAlex and Semantic Scholar answered from recorded
 * bodies (test/fixtures/providers/SOURCES.md): on a workspace of two papers known by DOI, a saved
 * paper's "References" (GET /api/works/{resource id}/references) are followed and one is saved into the
 * workspace through the save dialog; then "Suggested for this workspace" (GET
 * /api/workspaces/{id}/suggestions) ranks the works both papers cite, says that Semantic Scholar was
 * rate limited for one call, and one suggestion is saved here in one click. Checked by axe in light
 * and dark at both viewports, and for sideways scroll at 360 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { readFixture, type FixtureRoute } from '../support/fixture-server.js';
import {
  auditPage,
  JOURNEY_TIMEOUT_MS,
  webSkipReason,
  type WebServer,
  pageWidths,
} from '../support/web-browser.js';
import {
  addResourcesThroughApi,
  createWorkspaceThroughApi,
  openJourney,
  type Journey,
} from '../support/web-journey.js';

const PAPER_DOI = '10.2139/ssrn.2250500';
const OTHER_DOI = '10.1000/other-paper';
const REFERENCES =
  'semanticscholar/paper_references_doi-10.2139_ssrn.2250500_fields-title_offset0_limit50.json';
const OPENALEX_WORK = 'openalex/work_by_doi_10.1016_j.xgen.2025.100814.json';
const OPENALEX_LIST =
  'openalex/works_filter-fulltext.search_toast-AND-biodiversity_cursor_per-page200_TRIMMED-first10.json';
const FOCUSED_LABEL = `document.activeElement?.getAttribute('aria-label')`;

/** The recorded bodies' works, read independently of the code under test. */
const semanticReferences = (
  JSON.parse(readFixture(REFERENCES)) as {
    data: Array<{ citedPaper: { paperId: string | null; title: string } }>;
  }
).data
  .map((edge) => edge.citedPaper)
  .filter((paper) => paper.paperId !== null)
  .map((paper) => paper.title);
const openalexWorks = (
  JSON.parse(readFixture(OPENALEX_LIST)) as {
    results: Array<{ title: string; cited_by_count: number }>;
  }
).results;
/** OpenAlex's works have citation counts and Semantic Scholar's (fields=title) none: most cited first puts them first. */
const mostCited = [...openalexWorks]
  .sort((a, b) => b.cited_by_count - a.cited_by_count)
  .map((work) => work.title);

const ROUTES: FixtureRoute[] = [
  { path: `/openalex/works/doi:${PAPER_DOI}`, fixture: OPENALEX_WORK },
  // The referenced works (filter=openalex:W…|…) and the citing ones (filter=cites:W…): the same recording.
  { path: '/openalex/works', fixture: OPENALEX_LIST },
  { path: /^\/openalex\/works\//, status: 404, fixture: 'openalex/error_404_work_not_found.html' },
  // Both papers cite the same recorded list: every Semantic Scholar reference connects to both.
  { path: `/semanticscholar/paper/DOI:${PAPER_DOI}/references`, fixture: REFERENCES },
  { path: `/semanticscholar/paper/DOI:${OTHER_DOI}/references`, fixture: REFERENCES },
  {
    path: `/semanticscholar/paper/DOI:${OTHER_DOI}/citations`,
    status: 429,
    fixture: 'semanticscholar/error_429_too_many_requests.json',
  },
  {
    path: /^\/semanticscholar\//,
    status: 404,
    fixture: 'semanticscholar/error_404_paper_not_found.json',
  },
];

describe.skipIf(webSkipReason)(
  'web app related works of a saved paper and suggestions (Chromium)',
  () => {
    let journey: Journey;
    let server: WebServer;
    let context: BrowserContext;
    let page: Page;
    let workspaceId: string;
    let firstPaperId: string;

    beforeAll(async () => {
      journey = await openJourney({ prefix: 'discover', server: { routes: ROUTES } });
      ({ server, context, page } = journey);
      workspaceId = await createWorkspaceThroughApi(context, server.base, { name: 'Microcredit' });
      [firstPaperId] = (await addResourcesThroughApi(context, server.base, workspaceId, [
        { title: 'First paper', type: 'article', data: { doi: PAPER_DOI } },
        { title: 'Second paper', type: 'article', data: { doi: OTHER_DOI } },
      ])) as [string, string];
      // Another workspace, newer and first by name: the save dialog on Microcredit's page still chooses Microcredit.
      await createWorkspaceThroughApi(context, server.base, { name: 'A reading list' });
    }, 240_000);
    afterAll(async () => journey?.close());

    const noSidewaysScrollAt360 = async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      const width = await pageWidths(page);
      expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);
      await page.setViewportSize({ width: 1440, height: 900 });
    };

    it(
      'follows a saved paper’s references and saves one into the workspace',
      { timeout: JOURNEY_TIMEOUT_MS },
      async () => {
        await page.goto(`/workspaces/${workspaceId}?resource=${firstPaperId}`);
        const panel = page.getByRole('region', { name: 'Details: First paper' });
        const toggle = panel.getByRole('button', { name: 'References' });
        await toggle.click();
        await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
        const list = panel.getByRole('region', { name: 'References' });
        await expect
          .poll(() => list.getByRole('status').textContent(), { timeout: 20_000 })
          .toBe(
            `10 of ${openalexWorks.length + semanticReferences.length} shown, most cited first.`,
          );
        expect(await list.getByRole('heading', { level: 3 }).allTextContents()).toEqual(mostCited);

        expect(await auditPage(page, 'discover-references')).toEqual({});
        await noSidewaysScrollAt360();

        const chosen = mostCited[0]!;
        await list.getByRole('button', { name: `Save “${chosen}”` }).click();
        const save = page.getByRole('dialog', { name: 'Save to a workspace' });
        await save.getByText(chosen).waitFor();
        // The page's own workspace is chosen first.
        await expect.poll(() => save.getByLabel('Workspace').inputValue()).toBe(workspaceId);
        await save.getByRole('button', { name: 'Save' }).click();
        await expect
          .poll(() => save.getByRole('status').textContent())
          .toBe('Saved to Microcredit.');
        await save.getByRole('button', { name: 'Close' }).click();
        await expect.poll(() => save.count()).toBe(0);
        await expect
          .poll(() =>
            list
              .getByRole('listitem')
              .filter({ hasText: 'In your library' })
              .getByRole('heading')
              .allTextContents(),
          )
          .toEqual([chosen]);
        // The library list holds it now.
        await page.getByRole('checkbox', { name: `Select ${chosen}` }).waitFor();
      },
    );

    it(
      'ranks the works both papers cite, says what Semantic Scholar did not answer, and saves one in one click',
      { timeout: JOURNEY_TIMEOUT_MS },
      async () => {
        await page.goto(`/workspaces/${workspaceId}`);
        const section = page.getByRole('region', { name: 'Suggested for this workspace' });
        const show = section.getByRole('button', { name: 'Show suggestions' });
        // Nothing is asked before the user opens it.
        expect(await show.getAttribute('aria-expanded')).toBe('false');
        expect(server.fixtures.requestsTo(/\/citations$/)).toEqual([]);
        await show.click();

        const ranked = section.getByRole('list', { name: 'Suggestions' });
        await ranked.waitFor({ timeout: 30_000 });
        const titles = await ranked.getByRole('heading', { level: 3 }).allTextContents();
        expect(titles).toHaveLength(20);
        for (const title of titles) expect(semanticReferences).toContain(title);
        expect(await ranked.getByRole('listitem').first().textContent()).toContain(
          'Cites or is cited by 2 of your papers',
        );
        await section
          .getByText('Semantic Scholar was rate limited; ask again in a minute for more.')
          .waitFor();
        await section.getByRole('button', { name: 'Ask again' }).waitFor();

        expect(await auditPage(page, 'discover-suggestions')).toEqual({});
        await noSidewaysScrollAt360();

        const chosen = titles[0]!;
        const item = ranked
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { name: chosen, exact: true }) });
        await item.getByRole('button', { name: `Save “${chosen}” to this workspace` }).click();
        await expect
          .poll(() => item.getByRole('status').textContent())
          .toBe('Saved to this workspace.');
        await page.getByRole('checkbox', { name: `Select ${chosen}` }).waitFor();
        // The button keeps the focus once it has done its work.
        await expect
          .poll(() => page.evaluate<unknown>(FOCUSED_LABEL))
          .toBe(`Save “${chosen}” to this workspace`);

        // Summarize opens the summary dialog on the suggestion (Semantic Scholar recorded titles only: no abstract).
        const other = titles[1]!;
        await ranked.getByRole('button', { name: `Summarize “${other}”` }).click();
        const summary = page.getByRole('dialog', { name: 'Summary' });
        await summary.getByText(other).waitFor();
        await summary
          .getByText('There is nothing to summarise: this result has no abstract and names no PDF.')
          .waitFor();
        await page.keyboard.press('Escape');
        await expect.poll(() => summary.count()).toBe(0);
      },
    );

    it(
      'says what suggestions need when no paper of the workspace can be followed',
      { timeout: JOURNEY_TIMEOUT_MS },
      async () => {
        const headers = { origin: server.base };
        const id = (
          (await (
            await context.request.post('/api/workspaces', { headers, data: { name: 'Notes only' } })
          ).json()) as ApiSchema<'Workspace'>
        ).id;
        expect(
          (
            await context.request.post(`/api/workspaces/${id}/resources`, {
              headers,
              data: { title: 'A talk I attended', type: 'other' },
            })
          ).status(),
        ).toBe(201);
        await page.goto(`/workspaces/${id}`);
        const section = page.getByRole('region', { name: 'Suggested for this workspace' });
        await section.getByRole('button', { name: 'Show suggestions' }).click();
        await section.getByText('No paper here can be followed yet').waitFor();
        await section
          .getByText(
            'Suggestions follow the references and citations of papers with a DOI, an arXiv id or a PubMed id (PMID).',
            { exact: false },
          )
          .waitFor();
        expect(await auditPage(page, 'discover-suggestions-empty')).toEqual({});
      },
    );
  },
);
