/**
 * Add by identifier (issue 23): DOIs and other identifiers pasted one a line are looked up; what was
 * found is shown (title, authors, year, venue) before anything is added, and each other line says why
 * not as a sentence: not recognised, nothing found, the sources did not answer. `Add` adds the ones
 * found; a second time they are reported as already in the workspace. More than ten lines are refused
 * at the field. axe in light and dark at 360 and 1440 px. Providers are answered by the fixture
 * server from recorded replies (Crossref's record of 10.1371/journal.pone.0033693).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditPage,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
  pageWidths,
} from '../support/web-browser.js';
import { createWorkspaceThroughApi, openJourney, type Journey } from '../support/web-journey.js';

const FOUND_DOI = '10.1371/journal.pone.0033693';
const FOUND_TITLE =
  'Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia in the Basal Ganglia of Mice';
const MISSING_DOI = '10.1016/j.notreal.2020.1';
const DOWN_DOI = '10.9999/unreachable.1';

describe.skipIf(webSkipReason)(
  'Add by identifier (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Journey;
    let server: WebServer;
    let context: BrowserContext;
    let page: Page;
    let workspaceId: string;

    beforeAll(async () => {
      journey = await openJourney({
        prefix: 'addid',
        server: {
          routes: [
            {
              path: `/crossref/works/${FOUND_DOI}`,
              fixture: 'crossref/work_doi_10.1371_journal.pone.0033693.json',
            },
            {
              path: /^\/crossref\/works\/10\.1016\//,
              status: 404,
              fixture: 'crossref/error_404_works_notarealdoi.txt',
            },
            {
              path: /^\/openalex\/works\/doi:10\.1016\//,
              status: 404,
              fixture: 'openalex/error_404_work_not_found.html',
            },
            {
              path: /^\/semanticscholar\/paper\/DOI:10\.1016\//,
              status: 404,
              fixture: 'semanticscholar/error_404_paper_not_found.json',
            },
            { path: /^\/crossref\/works\/10\.9999\//, status: 500, body: 'down' },
            { path: /^\/openalex\/works\/doi:10\.9999\//, status: 500, body: 'down' },
            { path: /^\/semanticscholar\/paper\/DOI:10\.9999\//, status: 500, body: 'down' },
          ],
        },
      });
      ({ server, context, page } = journey);
      workspaceId = await createWorkspaceThroughApi(context, server.base, { name: 'Dopamine' });
    }, 240_000);
    afterAll(async () => journey?.close());

    const dialog = () => page.getByRole('dialog', { name: 'Add by identifier' });
    const line = (identifier: string) =>
      dialog()
        .getByRole('list', { name: 'What was found' })
        .getByRole('listitem')
        .filter({ hasText: identifier });
    const titles = async () =>
      (
        (await (
          await context.request.get(`/api/workspaces/${workspaceId}/resources`)
        ).json()) as Array<{ title: string }>
      ).map((each) => each.title);

    it('shows what each identifier finds, or why not, then adds the one found, and says so the second time', async () => {
      await page.goto(`/workspaces/${workspaceId}`);
      const opener = page.getByRole('button', { name: 'Add by identifier…' });
      await opener.click();
      const field = dialog().getByLabel('Identifiers');
      await field.fill(
        Array.from({ length: 11 }, (_, index) => `10.1234/many.${index}`).join('\n'),
      );
      await dialog().getByText('At most 10 identifiers at once: 11 are given. Remove 1.').waitFor();

      await field.fill(
        [`https://doi.org/${FOUND_DOI}`, 'not an identifier', MISSING_DOI, DOWN_DOI, ''].join('\n'),
      );
      await dialog().getByRole('button', { name: 'Look up' }).click();
      // Found: the record's title, first authors, year and venue as Crossref gives them, before any adding.
      await line(FOUND_DOI).getByText(FOUND_TITLE).waitFor({ timeout: 30_000 });
      expect(await line(FOUND_DOI).textContent()).toMatch(/Sadasivan.*2012.*PLoS ONE/);
      await line('not an identifier')
        .getByText('Not recognised: give a DOI, arXiv id, PMID, OpenAlex id or a URL.')
        .waitFor();
      await line(MISSING_DOI).getByText('Nothing was found for this identifier.').waitFor();
      await line(DOWN_DOI)
        .getByText('The sources that know this identifier did not answer. Try again later.')
        .waitFor();
      expect(await titles()).toEqual([]);
      expect(await auditPage(page, 'add-by-id-found')).toEqual({});
      await page.setViewportSize({ width: 360, height: 740 });
      const width = await pageWidths(page);
      expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);
      await page.setViewportSize({ width: 1440, height: 900 });

      await dialog().getByRole('button', { name: 'Add 1 paper' }).click();
      await line(FOUND_DOI).getByText('Added', { exact: true }).waitFor();
      await expect.poll(titles).toEqual([FOUND_TITLE]);
      await dialog().getByRole('button', { name: 'Close' }).click();
      await page.getByRole('table').getByRole('link', { name: FOUND_TITLE }).waitFor();

      // The same DOI again: found, and said to be here already; nothing is added twice.
      await opener.click();
      await dialog().getByLabel('Identifiers').fill(FOUND_DOI);
      await dialog().getByRole('button', { name: 'Look up' }).click();
      await dialog().getByRole('button', { name: 'Add 1 paper' }).click();
      await line(FOUND_DOI).getByText('Already in this workspace').waitFor();
      expect(await titles()).toEqual([FOUND_TITLE]);
    });
  },
);
