/**
 * Forms and long text as a newcomer met them (issue 23, items 4, 6 and 7): a double click on "Add
 * annotation" saves one annotation; 20,000 characters pasted into notes are neither cut silently nor
 * saved, the count says so; a 200-letter name without a space makes no page scroll sideways at 360 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
  pageWidths,
} from '../support/web-browser.js';
import {
  addResourcesThroughApi,
  createWorkspaceThroughApi,
  openJourney,
  type Journey,
} from '../support/web-journey.js';

const LONG_NAME = 'W'.repeat(200);
const LONG_TITLE = `Unbroken${'x'.repeat(280)}`;

describe.skipIf(webSkipReason)(
  'forms and long text (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Journey;
    let server: WebServer;
    let context: BrowserContext;
    let page: Page;
    let workspaceId: string;
    let resourceId: string;

    beforeAll(async () => {
      journey = await openJourney({ prefix: 'forms' });
      ({ server, context, page } = journey);
      workspaceId = await createWorkspaceThroughApi(context, server.base, { title: LONG_NAME });
      [resourceId] = (await addResourcesThroughApi(context, server.base, workspaceId, [
        { title: LONG_TITLE, notes: 'First notes' },
      ])) as [string];
    }, 240_000);
    afterAll(async () => journey?.close());

    const panel = () => page.getByRole('region', { name: `Details: ${LONG_TITLE}` });
    const annotations = async () =>
      (await (
        await context.request.get(`/api/resources/${resourceId}/annotations`)
      ).json()) as Array<{ body: string }>;
    const storedNotes = async () =>
      (
        (await (
          await context.request.get(`/api/workspaces/${workspaceId}/resources`)
        ).json()) as Array<{ id: string; notes: string }>
      ).find((resource) => resource.id === resourceId)?.notes;

    it('saves one annotation for a double click on "Add annotation"', async () => {
      await page.goto(`/workspaces/${workspaceId}`);
      await panel().getByLabel('Annotation', { exact: true }).fill('Read section 3 again');
      // Two clicks in one task, as a double click lands on a machine too busy to draw between them: the
      // button cannot be disabled in time, so the form itself must refuse the second submit.
      const add = panel().getByRole('button', { name: 'Add annotation' });
      await expect.poll(() => add.isEnabled()).toBe(true);
      await add.evaluate((button: { click: () => void }) => {
        button.click();
        button.click();
      });
      await panel().getByText('Read section 3 again').waitFor();
      // Whatever a second request would have done is done by the time the first's answer is shown.
      await expect.poll(async () => (await annotations()).length).toBe(1);
      await page.reload();
      await panel().getByText('Read section 3 again').waitFor();
      expect((await annotations()).map((annotation) => annotation.body)).toEqual([
        'Read section 3 again',
      ]);
    });

    it('keeps 20,000 pasted characters of notes, says they are 10,000 too many, and saves nothing', async () => {
      await page.goto(`/workspaces/${workspaceId}`);
      await panel().getByRole('button', { name: 'Edit notes' }).click();
      const notes = panel().getByLabel('Notes', { exact: true });
      await notes.fill('n'.repeat(20_000));
      expect((await notes.inputValue()).length).toBe(20_000);
      await panel().getByText('20,000 / 10,000 characters: 10,000 too many').waitFor();
      await panel().getByRole('button', { name: 'Save', exact: true }).click();
      await panel()
        .getByText(/At most 10,000 characters/)
        .waitFor();
      expect(await storedNotes()).toBe('First notes');
      // Back under the limit, the count says so and the notes save.
      await notes.fill('n'.repeat(10_000));
      await panel().getByText('10,000 / 10,000 characters', { exact: true }).waitFor();
      await panel().getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(storedNotes).toBe('n'.repeat(10_000));
    });

    it('scrolls no page sideways at 360 px with a 200-letter workspace name and a 288-letter title', async () => {
      await page.setViewportSize({ width: 360, height: 800 });
      for (const path of ['/workspaces', `/workspaces/${workspaceId}`, '/dashboard']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        if (path !== '/dashboard') await page.getByText(LONG_NAME.slice(0, 50)).first().waitFor();
        const { scrollWidth, clientWidth } = await pageWidths(page);
        expect(scrollWidth, path).toBeLessThanOrEqual(clientWidth);
      }
    });
  },
);
