/**
 * Citation keys in the app (issue "Write your paper from it"), in Chromium: each resource's key shown in
 * the library list, edited in the item pane (a key BibTeX cannot read refused at its field, a taken one
 * refused naming why, a good one saved and kept over a reload); two resources selected and copied as
 * `\cite{…}`, `\citep{…}` and `[@…; @…]`, read back from the clipboard. axe on the list with a
 * selection; no sideways scrolling at 360 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditPage,
  pageWidths,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
} from '../support/web-browser.js';
import {
  addResourcesThroughApi,
  createWorkspaceThroughApi,
  copied,
  openJourney,
  type Journey,
} from '../support/web-journey.js';

const LOVELACE = 'Notes on the analytical engine';
const BABBAGE = 'On the economy of machinery and manufactures';

describe.skipIf(webSkipReason)('citation keys (Chromium)', { timeout: JOURNEY_TIMEOUT_MS }, () => {
  let journey: Journey;
  let server: WebServer;
  let context: BrowserContext;
  let page: Page;
  let workspaceId: string;

  beforeAll(async () => {
    journey = await openJourney({
      prefix: 'keys',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    ({ server, context, page } = journey);
    workspaceId = await createWorkspaceThroughApi(context, server.base, { name: 'Engines' });
    await addResourcesThroughApi(context, server.base, workspaceId, [
      { title: LOVELACE, authors: ['Ada Lovelace'], issued: '1843' },
      { title: BABBAGE, authors: ['Charles Babbage'], issued: '1832' },
    ]);
  }, 240_000);
  afterAll(async () => journey?.close());

  const keysInList = () => page.locator('.library-table .citation-key').allInnerTexts();
  const pane = () => page.getByRole('region', { name: `Details: ${LOVELACE}` });
  const keyValue = (key: string) =>
    pane().getByRole('button', { name: `Citation key: ${key}`, exact: true });

  it('shows each key in the list and edits one in the item pane', async () => {
    await page.goto(`/workspaces/${workspaceId}?sort=title&order=asc`);
    await page.locator('.library-table .citation-key').first().waitFor();
    expect((await keysInList()).sort()).toEqual(['babbage1832economy', 'lovelace1843notes']);

    await page.getByRole('link', { name: LOVELACE }).click();
    await keyValue('lovelace1843notes').click();
    const box = pane().getByLabel('Citation key', { exact: true });
    // A key BibTeX cannot read: refused at its field, which stays open.
    await box.fill('has space');
    await page.keyboard.press('Enter');
    const refusal = pane().locator('.item-field .field-error');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/spaces/);
    // A key the other resource holds (in another case): refused, saying so.
    await box.fill('Babbage1832Economy');
    await page.keyboard.press('Enter');
    await expect.poll(() => refusal.innerText()).toMatch(/taken/);
    // A good one, with the characters keys are often written with.
    await box.fill('Lovelace:1843/notes-G');
    await page.keyboard.press('Enter');
    await keyValue('Lovelace:1843/notes-G').waitFor();
    await expect.poll(keysInList).toContain('Lovelace:1843/notes-G');

    await page.reload();
    await keyValue('Lovelace:1843/notes-G').waitFor();
    const saved = (await (
      await context.request.get(`/api/workspaces/${workspaceId}/resources`)
    ).json()) as Array<{ title: string; citationKey: string }>;
    expect(saved.find((resource) => resource.title === LOVELACE)?.citationKey).toBe(
      'Lovelace:1843/notes-G',
    );
  });

  it('copies the selected keys as \\cite{…}, \\citep{…} and [@…; @…]', async () => {
    await page.goto(`/workspaces/${workspaceId}?sort=title&order=asc`);
    const copyCite = page.getByRole('button', { name: 'Copy \\cite{…}' });
    await copyCite.waitFor();
    expect(await copyCite.isDisabled()).toBe(true);
    // In the list's order (title A–Z: Notes…, then On the economy…).
    await page.getByRole('checkbox', { name: `Select ${LOVELACE}` }).check();
    await page.getByRole('checkbox', { name: `Select ${BABBAGE}` }).check();

    await copyCite.click();
    const status = page.locator('.copied-cite');
    await expect
      .poll(() => status.innerText())
      .toBe('Copied \\cite{Lovelace:1843/notes-G,babbage1832economy}');
    expect((await copied(page)).text).toBe('\\cite{Lovelace:1843/notes-G,babbage1832economy}');
    await page.getByRole('button', { name: 'Copy \\citep{…}' }).click();
    await expect
      .poll(async () => (await copied(page)).text)
      .toBe('\\citep{Lovelace:1843/notes-G,babbage1832economy}');
    await page.getByRole('button', { name: 'Copy [@…]' }).click();
    await expect
      .poll(async () => (await copied(page)).text)
      .toBe('[@Lovelace:1843/notes-G; @babbage1832economy]');

    expect(await auditPage(page, 'citation-keys-selection')).toEqual({});
    await page.setViewportSize({ width: 360, height: 740 });
    const width = await pageWidths(page);
    expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);
  });
});
