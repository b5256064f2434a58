/**
 * Save a summary into the notes (issue 23): the summary dialog of a search result that is in the
 * library offers "Save to notes"; the TL;DR and key points shown, headed with the mode and the date,
 * are appended after notes edited meanwhile in another tab (not over them); notes that would pass
 * 10,000 characters are refused with a sentence and left as they were. axe in light and dark at 360
 * and 1440 px. Real recorded Semantic Scholar results, answered by the fixture server.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditPage,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
} from '../support/web-browser.js';
import { createWorkspaceThroughApi, openJourney, type Journey } from '../support/web-journey.js';

const TITLE = 'Neural Turing Machines';

describe.skipIf(webSkipReason)(
  'Save a summary to notes (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Journey;
    let server: WebServer;
    let context: BrowserContext;
    let page: Page;
    let workspaceId: string;
    const headers = () => ({ origin: server.base });

    beforeAll(async () => {
      journey = await openJourney({ prefix: 'notes' });
      ({ server, context, page } = journey);
      const recorded = readFileSync(
        new URL(
          '../fixtures/providers/semanticscholar/paper_search_turing_all-fields_limit100.json',
          import.meta.url,
        ),
        'utf8',
      );
      server.fixtures.addRoute({
        path: '/semanticscholar/paper/search',
        body: recorded,
        headers: { 'content-type': 'application/json' },
      });
      workspaceId = await createWorkspaceThroughApi(context, server.base, { name: 'Reading' });
    }, 240_000);
    afterAll(async () => journey?.close());

    const resultCard = () =>
      page
        .getByRole('article')
        .filter({ has: page.getByRole('heading', { name: TITLE, exact: true }) });
    const saved = async () =>
      (
        (await (
          await context.request.get(`/api/workspaces/${workspaceId}/resources`)
        ).json()) as Array<{ id: string; title: string; notes: string }>
      ).find((each) => each.title === TITLE);
    const setNotes = async (notes: string) => {
      const resource = await saved();
      const res = await context.request.patch(
        `/api/workspaces/${workspaceId}/resources/${resource!.id}`,
        { headers: headers(), data: { notes } },
      );
      expect(res.status()).toBe(200);
    };

    it('appends the TL;DR and key points after notes edited meanwhile, and refuses past 10,000 characters with a sentence', async () => {
      await page.goto('/dashboard?q=turing&providers=semanticscholar');
      await resultCard().waitFor();
      await resultCard().getByRole('button', { name: 'Save' }).click();
      const save = page.getByRole('dialog', { name: 'Save to a workspace' });
      await save.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Reading (0)' });
      await save.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => save.getByRole('status').textContent()).toContain('Saved to Reading');
      await page.keyboard.press('Escape');

      await resultCard().getByRole('button', { name: 'Summarize' }).click();
      const dialog = page.getByRole('dialog', { name: 'Summary' });
      await dialog.getByRole('radio', { name: /Quick/ }).check();
      await expect
        .poll(() => dialog.textContent(), { timeout: 15_000 })
        .toContain('Summary complete.');
      const tldr = (await dialog.locator('.summary-tldr').textContent()) ?? '';
      const bullets = await dialog
        .getByRole('region', { name: 'Key points' })
        .getByRole('listitem')
        .allTextContents();
      expect(tldr.length).toBeGreaterThan(10);

      // Another tab saved notes after this dialog opened: they stay, and the summary comes after them.
      await setNotes('Edited in another tab');
      await dialog.getByRole('button', { name: 'Save to notes' }).click();
      await dialog.getByText('Saved to the notes of this paper in Reading.').waitFor();
      const today = new Date().toISOString().slice(0, 10);
      expect((await saved())?.notes).toBe(
        [
          'Edited in another tab',
          '',
          `Summary (quick, ${today})`,
          `TL;DR: ${tldr}`,
          'Key points:',
          ...bullets.map((bullet) => `- ${bullet}`),
        ].join('\n'),
      );

      // Nearly full notes: nothing is written and the refusal says why, as a sentence.
      await setNotes('n'.repeat(9_990));
      await dialog.getByRole('button', { name: 'Save to notes' }).click();
      await dialog
        .getByRole('alert')
        .filter({
          hasText: new RegExp(
            String.raw`^The summary was not saved: The notes would be [\d,]+ characters, ` +
              String.raw`[\d,]+ more than the 10,000 they may hold\. ` +
              String.raw`Shorten the notes first, then save again\.$`,
          ),
        })
        .waitFor();
      expect((await saved())?.notes).toBe('n'.repeat(9_990));
      expect(await auditPage(page, 'summary-save-notes')).toEqual({});
    });
  },
);
