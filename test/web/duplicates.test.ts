/**
 * Duplicate items and "Update from source" in Chromium. Two copies of one paper (the same DOI, one of
 * them a row kept from before DOIs were checked, as an import of old data leaves it) each holding a
 * note: `Duplicate items (2)` opens the view, the second copy is chosen to keep from the keyboard and
 * the preview shows the creators it takes from the first (a viewer sees the group and no way to merge
 * it); a change saved meanwhile through the API
 * makes the merge a 409, said, and the group shown again; merging then leaves one resource with both
 * notes. "Update from source" on a resource with a DOI: the changes Crossref's recorded record
 * proposes (the fixture server answers the lookup), a change saved meanwhile (412) said, one change
 * left unticked and the rest applied, then that one, then "nothing to update"; the sources down said
 * in words. axe on the duplicates view and on the proposal; no sideways scrolling at 390 px.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { workspaceResources } from '../../src/platform/db/schema.js';
import { recordColumns } from '../../src/workspaces/resources/resource-record.js';
import {
  auditPage,
  newContext,
  newCredentials,
  pageWidths,
  signUpThroughApi,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
} from '../support/web-browser.js';
import { createWorkspaceThroughApi, openJourney, type Journey } from '../support/web-journey.js';

const DUP_DOI = '10.5555/dopamine.2012';
const FIRST_NOTE = 'Read for the methods section.';
const SECOND_NOTE = 'Cited in chapter 2.';
const FOUND_DOI = '10.1371/journal.pone.0033693';
const FOUND_TITLE =
  'Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia in the Basal Ganglia of Mice';
const DOWN_DOI = '10.9999/unreachable.1';

type Saved = ApiSchema<'Resource'>;

describe.skipIf(webSkipReason)(
  'duplicate items and update from source (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Journey;
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let workspaceId: string;
    let pageErrors: string[];
    const headers = () => ({ origin: server.base });

    beforeAll(async () => {
      journey = await openJourney({
        prefix: 'dups',
        server: {
          routes: [
            {
              path: `/crossref/works/${FOUND_DOI}`,
              fixture: 'crossref/work_doi_10.1371_journal.pone.0033693.json',
            },
            { path: /^\/crossref\/works\/10\.9999\//, status: 500, body: 'down' },
            { path: /^\/openalex\/works\/doi:10\.9999\//, status: 500, body: 'down' },
            { path: /^\/semanticscholar\/paper\/DOI:10\.9999\//, status: 500, body: 'down' },
          ],
        },
      });
      ({ server, browser, context, page, pageErrors } = journey);
      workspaceId = await createWorkspaceThroughApi(context, server.base, { name: 'Dopamine' });
    }, 240_000);
    afterAll(async () => journey?.close());

    const saved = async () =>
      (await (
        await context.request.get(`/api/workspaces/${workspaceId}/resources?limit=100`)
      ).json()) as Saved[];
    const add = async (data: Record<string, unknown>) => {
      const added = await context.request.post(`/api/workspaces/${workspaceId}/resources`, {
        headers: headers(),
        data,
      });
      expect(added.status()).toBe(201);
      return (await added.json()) as Saved;
    };
    const patch = async (resource: Saved, data: Record<string, unknown>) => {
      const done = await context.request.patch(
        `/api/workspaces/${workspaceId}/resources/${resource.id}`,
        { headers: { ...headers(), 'if-match': `"r${resource.version}"` }, data },
      );
      expect(done.status()).toBe(200);
    };

    it('merges two copies of one paper into the one chosen, with both notes, after a change made meanwhile', async () => {
      const first = await add({
        title: 'Methylphenidate and dopamine neurons',
        type: 'article-journal',
        doi: DUP_DOI,
        creators: [{ role: 'author', family: 'Sadasivan', given: 'Shankar' }],
        notes: FIRST_NOTE,
      });
      // The second copy: a row from before the DOI was a work's identity (adding it now is refused).
      const [row] = await server.t.app.ctx.db
        .insert(workspaceResources)
        .values({
          workspaceId,
          addedBy: null,
          title: 'Methylphenidate exposure (journal copy)',
          url: null,
          workKey: 'url:journals.plos.org/dopamine',
          ...recordColumns(
            { doi: DUP_DOI.toUpperCase(), containerTitle: 'PLoS ONE', pages: 'e33693' },
            'article-journal',
            null,
          ),
          notes: SECOND_NOTE,
          tags: [],
        })
        .returning({ id: workspaceResources.id });
      const secondId = row!.id;

      // A viewer sees the group, and no way to merge it (the service refuses a viewer's merge).
      const viewer = await newContext(browser, server.base);
      const viewerCredentials = newCredentials('dups-viewer');
      await signUpThroughApi(viewer, server.base, viewerCredentials);
      const joined = await context.request.post(`/api/workspaces/${workspaceId}/members`, {
        headers: headers(),
        data: { email: viewerCredentials.email, role: 'viewer' },
      });
      expect(joined.status()).toBe(201);
      const viewerPage = await viewer.newPage();
      viewerPage.on('pageerror', (error) => pageErrors.push(error.message));
      await viewerPage.goto(`/workspaces/${workspaceId}/duplicates`);
      const seen = viewerPage.getByRole('region', { name: 'Methylphenidate and dopamine neurons' });
      await seen.getByText(`Same DOI: ${DUP_DOI}`, { exact: false }).waitFor();
      await viewerPage
        .getByText('Only editors and the owner can merge them.', { exact: false })
        .waitFor();
      expect(await seen.getByRole('listitem').count()).toBe(2);
      expect(await seen.getByRole('radio').count()).toBe(0);
      expect(await viewerPage.getByRole('button', { name: /^Merge/ }).count()).toBe(0);
      await viewer.close();

      await page.goto(`/workspaces/${workspaceId}`);
      await page.getByRole('link', { name: 'Duplicate items (2)' }).click();
      await page.getByRole('heading', { level: 1, name: 'Duplicate items' }).waitFor();
      const group = page.getByRole('region', { name: 'Methylphenidate and dopamine neurons' });
      await group.getByText(`Same DOI: ${DUP_DOI}`, { exact: false }).waitFor();
      const keep = group.getByRole('group', { name: 'Version to keep' });
      expect(await keep.getByRole('radio').count()).toBe(2);
      expect(await keep.getByRole('radio', { name: /Item 1/ }).isChecked()).toBe(true);
      // What the oldest takes from the other: its journal and pages.
      const preview = group.getByRole('definition').filter({ hasText: 'e33693' });
      expect(await preview.innerText()).toBe('e33693 (added from item 2)');

      // The keyboard: the arrow moves the choice to the journal copy; the preview follows.
      await keep.getByRole('radio', { name: /Item 1/ }).focus();
      await page.keyboard.press('ArrowDown');
      expect(await keep.getByRole('radio', { name: /Item 2/ }).isChecked()).toBe(true);
      await group.getByText('Sadasivan, Shankar (added from item 1)').waitFor();
      expect(await auditPage(page, 'duplicates')).toEqual({});
      await page.setViewportSize({ width: 390, height: 844 });
      const width = await pageWidths(page);
      expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);
      await page.setViewportSize({ width: 1280, height: 800 });

      // Someone tags the first copy meanwhile: the merge is refused, said, and the group shown again.
      await patch(first, { tags: ['tagged meanwhile'] });
      await group.getByRole('button', { name: 'Merge 2 items' }).click();
      await page.getByRole('alert').getByText('Nothing was merged', { exact: false }).waitFor();
      await group.getByText('has notes, 1 tag').waitFor();
      expect((await saved()).length).toBe(2);

      await keep.getByRole('radio', { name: /Item 2/ }).check();
      await group.getByRole('button', { name: 'Merge 2 items' }).click();
      await page
        .getByRole('status')
        .getByText('Merged 2 items into “Methylphenidate exposure (journal copy)”.')
        .waitFor();
      await page.getByText('No duplicates found').waitFor();
      const [kept, ...others] = await saved();
      expect(others).toEqual([]);
      expect(kept).toMatchObject({
        id: secondId,
        notes: `${SECOND_NOTE}\n\n${FIRST_NOTE}`,
        tags: ['tagged meanwhile'],
        creators: [{ family: 'Sadasivan', given: 'Shankar' }],
      });

      // Into the library: one resource, both notes in its panel; the link has no count now.
      await page.getByRole('link', { name: 'Open it in the library' }).click();
      const pane = page.getByRole('region', {
        name: 'Details: Methylphenidate exposure (journal copy)',
      });
      await pane.getByText(FIRST_NOTE, { exact: false }).first().waitFor();
      await pane.getByText(SECOND_NOTE, { exact: false }).first().waitFor();
      await page.getByRole('link', { name: 'Duplicate items', exact: true }).waitFor();
    });

    it('updates a resource from its DOI’s record: the changes chosen, a change meanwhile said, then nothing to update', async () => {
      const resource = await add({
        title: 'An old title',
        type: 'article-journal',
        doi: FOUND_DOI,
        volume: '9',
      });
      await page.goto(`/workspaces/${workspaceId}?resource=${resource.id}`);
      const pane = () => page.locator('.library-detail');
      const lookUp = () => pane().getByRole('button', { name: 'Update from source' });
      const proposal = () => pane().getByRole('form', { name: /^Update from Crossref/ });

      await lookUp().click();
      await proposal().waitFor({ timeout: 30_000 });
      const title = proposal().getByRole('checkbox', { name: 'Title', exact: true });
      expect(await title.isChecked()).toBe(true);
      // The focus is on the first change; each shows what the resource holds and what the source says.
      await expect
        .poll(() => title.evaluate((box) => box === box.ownerDocument.activeElement))
        .toBe(true);
      const titleRow = proposal()
        .getByRole('listitem')
        .filter({ has: page.getByRole('checkbox', { name: 'Title', exact: true }) });
      expect(await titleRow.innerText()).toContain('An old title');
      expect(await titleRow.innerText()).toContain(FOUND_TITLE);
      const volume = proposal().getByRole('checkbox', { name: 'Volume', exact: true });
      await volume.waitFor();
      expect(await auditPage(page, 'update-from-source')).toEqual({});

      // A change saved meanwhile: nothing applied, said as the pane says it.
      await patch(resource, { notes: 'A note saved meanwhile.' });
      await proposal().getByRole('button', { name: 'Apply selected' }).click();
      await pane()
        .getByRole('alert')
        .getByText('Someone else changed this resource meanwhile, so nothing was applied.', {
          exact: false,
        })
        .waitFor();
      expect((await saved()).find((each) => each.id === resource.id)?.title).toBe('An old title');

      // Again: every change but the volume.
      await lookUp().click();
      await volume.uncheck();
      const count = await proposal().getByRole('checkbox').count();
      await proposal().getByRole('button', { name: 'Apply selected' }).click();
      await pane()
        .getByRole('status')
        .getByText(`Updated ${count - 1} fields from Crossref.`)
        .waitFor();
      let now = (await saved()).find((each) => each.id === resource.id)!;
      expect(now).toMatchObject({ title: FOUND_TITLE, volume: '9', containerTitle: 'PLoS ONE' });
      expect(now.creators[0]).toMatchObject({ family: 'Sadasivan', given: 'Shankar' });

      // The volume is still proposed, alone; applied, nothing is left to update.
      await lookUp().click();
      await proposal().getByRole('checkbox', { name: 'Volume', exact: true }).waitFor();
      expect(await proposal().getByRole('checkbox').count()).toBe(1);
      await proposal().getByRole('button', { name: 'Apply selected' }).click();
      await pane().getByText('Updated 1 field from Crossref.').waitFor();
      now = (await saved()).find((each) => each.id === resource.id)!;
      expect(now.volume).not.toBe('9');
      await lookUp().click();
      await pane()
        .getByText('Nothing to update: this resource already says what Crossref says.')
        .waitFor();
    });

    it('says so when the sources do not answer', async () => {
      const resource = await add({ title: 'Unreachable', doi: DOWN_DOI });
      await page.goto(`/workspaces/${workspaceId}?resource=${resource.id}`);
      await page
        .locator('.library-detail')
        .getByRole('button', { name: 'Update from source' })
        .click();
      await page
        .locator('.library-detail')
        .getByRole('alert')
        .getByText('The sources did not answer, so nothing was looked up.', { exact: false })
        .waitFor({ timeout: 30_000 });
    });
  },
);
