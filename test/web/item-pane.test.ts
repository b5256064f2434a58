/**
 * The item pane (issue 35, "Edit every field"): a saved resource's record edited in place in
 * Chromium. The journal typed and saved with Enter from the keyboard (focus back on its value), the
 * year saved by leaving the box, a DOI refused by the API at its field and cancelled with Esc; an
 * editor and an organisation author added, the organisation moved up, saved; the type changed to a
 * book chapter (the journal becomes the book title); a change made meanwhile through the API (412)
 * shown with its value, then saved over; a field added from "More fields"; all of it kept over a reload, in the list's columns and in
 * the API's APA citation. `New item…` makes a report by hand and opens it. A name's particle and
 * suffix edited under its `More` disclosure. axe on the pane with the creators editor open and on the
 * dialog; no sideways scrolling at 390 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
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
  openJourney,
  type Journey,
} from '../support/web-journey.js';

const TITLE = 'Notes on the analytical engine';
/** Run in the page (strings: the tests are type-checked without the DOM's types). */
const FOCUSED_NAME = `document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent`;

type Saved = ApiSchema<'Resource'>;

describe.skipIf(webSkipReason)('the item pane (Chromium)', { timeout: JOURNEY_TIMEOUT_MS }, () => {
  let journey: Journey;
  let server: WebServer;
  let context: BrowserContext;
  let page: Page;
  let workspaceId: string;
  let resourceId: string;
  const headers = () => ({ origin: server.base });

  beforeAll(async () => {
    journey = await openJourney({ prefix: 'itempane' });
    ({ server, context, page } = journey);
    workspaceId = await createWorkspaceThroughApi(context, server.base, { name: 'Engines' });
    [resourceId] = (await addResourcesThroughApi(context, server.base, workspaceId, [
      {
        title: TITLE,
        type: 'article-journal',
        creators: [{ role: 'author', family: 'Lovelace', given: 'Ada' }],
      },
    ])) as [string];
  }, 240_000);
  afterAll(async () => journey?.close());

  const saved = async () =>
    (await (
      await context.request.get(`/api/workspaces/${workspaceId}/resources`)
    ).json()) as Saved[];
  const pane = () => page.getByRole('region', { name: `Details: ${TITLE}` });
  const value = (name: string) => pane().getByRole('button', { name, exact: true });

  it('edits the journal, the year, the creators and the type in place, and keeps them', async () => {
    await page.goto(`/workspaces/${workspaceId}?resource=${resourceId}`);
    await value('Journal: empty').waitFor();

    // The keyboard: Enter opens the box, Enter saves, the focus is back on the value.
    await value('Journal: empty').focus();
    await page.keyboard.press('Enter');
    await pane().getByLabel('Journal', { exact: true }).fill('Scientific Memoirs');
    await page.keyboard.press('Enter');
    await value('Journal: Scientific Memoirs').waitFor();
    await expect
      .poll(() => page.evaluate<unknown>(FOCUSED_NAME))
      .toBe('Journal: Scientific Memoirs');

    // The year, saved by leaving its box.
    await value('Date: empty').click();
    await pane().getByLabel('Date', { exact: true }).fill('1843');
    await page.keyboard.press('Tab');
    await value('Date: 1843').waitFor();

    // The API's refusal shows at the field, which stays open; Esc cancels.
    await value('DOI: empty').click();
    await pane().getByLabel('DOI', { exact: true }).fill('not a doi');
    await page.keyboard.press('Enter');
    const refusal = pane().locator('.item-field .field-error');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/doi|DOI/);
    expect(await pane().getByLabel('DOI', { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    await page.keyboard.press('Escape');
    await value('DOI: empty').waitFor();

    // Creators: an editor (two fields) and an organisation (one field) added; the organisation moved up.
    await pane().getByRole('button', { name: 'Edit creators' }).click();
    await pane().getByRole('button', { name: 'Add creator' }).click();
    const second = pane().getByRole('group', { name: 'Creator 2' });
    await expect.poll(() => page.evaluate<unknown>('document.activeElement?.id')).toMatch(/family/);
    await second.getByLabel('Family name').fill('Menabrea');
    await second.getByLabel('Given name').fill('Luigi');
    await second.getByLabel('Role').selectOption({ label: 'Editor' });
    await pane().getByRole('button', { name: 'Add creator' }).click();
    const third = pane().getByRole('group', { name: 'Creator 3' });
    await third.getByRole('button', { name: 'Creator 3: use one field (organisation)' }).click();
    await third.getByLabel('Organisation or name').fill('Royal Society');
    expect(await auditPage(page, 'item-pane-creators')).toEqual({});
    await third.getByRole('button', { name: 'Move creator 3 up' }).click();
    // The moved row keeps the focus on its own button, now "Move creator 2 up".
    await expect.poll(() => page.evaluate<unknown>(FOCUSED_NAME)).toBe('Move creator 2 up');
    await pane().getByText('Royal Society moved to position 2 of 3.').waitFor();
    await pane().getByRole('button', { name: 'Save creators' }).click();
    await pane().getByRole('button', { name: 'Edit creators' }).waitFor();
    expect(await pane().locator('.creator-list li').allInnerTexts()).toEqual([
      'Lovelace, Ada',
      'Royal Society',
      'Menabrea, Luigi (editor)',
    ]);

    // The type: a book chapter, whose container is the book.
    await pane().getByLabel('Item type').selectOption({ label: 'Book chapter' });
    await value('Book title: Scientific Memoirs').waitFor();

    // A change saved meanwhile elsewhere (412): the value saved now is shown; Enter saves over it.
    await value('Pages: empty').click();
    const before = (await saved()).find((each) => each.containerTitle)!;
    const elsewhere = await context.request.patch(
      `/api/workspaces/${workspaceId}/resources/${resourceId}`,
      { headers: { ...headers(), 'if-match': `"r${before.version}"` }, data: { pages: '666-731' } },
    );
    expect(elsewhere.status()).toBe(200);
    await pane().getByLabel('Pages', { exact: true }).fill('666-732');
    await page.keyboard.press('Enter');
    await pane()
      .getByText('Someone else changed this resource meanwhile: Pages is now “666-731”.', {
        exact: false,
      })
      .waitFor();
    await page.keyboard.press('Enter');
    await value('Pages: 666-732').waitFor();

    // "More fields": any other field of the record, opened in its box at once.
    await pane().getByLabel('More fields').selectOption({ label: 'Series' });
    await pane().getByRole('button', { name: 'Add field' }).click();
    await expect
      .poll(() => page.evaluate<unknown>('document.activeElement?.tagName'))
      .toBe('INPUT');
    await page.keyboard.type('Taylor’s Scientific Memoirs');
    await page.keyboard.press('Enter');
    await value('Series: Taylor’s Scientific Memoirs').waitFor();

    // The abstract, in its own section (where its text is selected to highlight it).
    await pane().getByRole('button', { name: 'Add abstract' }).click();
    await pane()
      .getByLabel('Abstract', { exact: true })
      .fill('Sketch of the engine invented by Babbage.');
    await page.keyboard.press('Enter');
    await pane()
      .getByTestId('abstract')
      .getByText('Sketch of the engine invented by Babbage.')
      .waitFor();
    await expect.poll(() => page.evaluate<unknown>(FOCUSED_NAME)).toBe('Edit abstract');

    // Kept: over a reload, in the API, in the list's columns, and in the APA reference.
    await page.reload();
    await value('Book title: Scientific Memoirs').waitFor();
    await value('Date: 1843').waitFor();
    await value('Series: Taylor’s Scientific Memoirs').waitFor();
    expect(await pane().getByLabel('Item type').inputValue()).toBe('chapter');
    expect(await pane().locator('.creator-list li').allInnerTexts()).toEqual([
      'Lovelace, Ada',
      'Royal Society',
      'Menabrea, Luigi (editor)',
    ]);
    const [record] = await saved();
    expect(record).toMatchObject({
      type: 'chapter',
      containerTitle: 'Scientific Memoirs',
      pages: '666-732',
      collectionTitle: 'Taylor’s Scientific Memoirs',
      issued: { year: 1843 },
      creators: [
        { role: 'author', family: 'Lovelace', given: 'Ada' },
        { role: 'author', literal: 'Royal Society' },
        { role: 'editor', family: 'Menabrea', given: 'Luigi' },
      ],
    });
    const row = page.getByRole('row', { name: new RegExp(TITLE) });
    expect(await row.locator('.col-author').innerText()).toBe('Lovelace and Royal Society');
    expect(await row.locator('.col-year').innerText()).toBe('1843');
    expect(await row.locator('.col-venue').innerText()).toBe('Scientific Memoirs');
    const cite = (await (
      await context.request.get(
        `/api/workspaces/${workspaceId}/cite?resourceIds=${resourceId}&style=apa&format=text`,
      )
    ).json()) as ApiSchema<'Citations'>;
    const apa = [cite.bibliography].flat().join('\n');
    // APA 7's chapter: the editor before the book's title, the pages after it.
    expect(apa).toMatch(
      /^Lovelace, A\.,? & Royal Society\. \(1843\)\. Notes on the analytical engine\./,
    );
    expect(apa).toContain('In L. Menabrea (Ed.), Scientific Memoirs (pp. 666–732).');

    await page.setViewportSize({ width: 390, height: 844 });
    const width = await pageWidths(page);
    expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('makes a report by hand with "New item…" and opens it in the pane', async () => {
    await page.goto(`/workspaces/${workspaceId}`);
    const opener = page.getByRole('button', { name: 'New item…' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'New item' });
    await dialog.getByLabel('Item type').selectOption({ label: 'Report' });
    // A report's fields, named as a report names them.
    await dialog.getByLabel('Institution').fill('CERN');
    await dialog.getByLabel('Report number').fill('CERN-2020-001');
    await dialog.getByLabel('Date').fill('2020-02');
    await dialog.getByRole('button', { name: 'Add item' }).click();
    await dialog.getByText('Enter a title.').waitFor();
    await dialog.getByLabel('Title').fill('Annual report');
    expect(await dialog.getByText('Enter a title.').count()).toBe(0);
    expect(await auditPage(page, 'new-item-dialog')).toEqual({});
    await dialog.getByRole('button', { name: 'Add item' }).click();
    const made = page.getByRole('region', { name: 'Details: Annual report' });
    await made.getByRole('button', { name: 'Institution: CERN', exact: true }).waitFor();
    await made.getByRole('button', { name: 'Date: 2020-02', exact: true }).waitFor();
    expect(await made.getByLabel('Item type').inputValue()).toBe('report');
    const report = (await saved()).find((each) => each.title === 'Annual report');
    expect(report).toMatchObject({
      type: 'report',
      publisher: 'CERN',
      number: 'CERN-2020-001',
      issued: { year: 2020, month: 2 },
    });
  });
  it('edits a name’s particle and suffix under its "More" disclosure', async () => {
    const [id] = await addResourcesThroughApi(context, server.base, workspaceId, [
      {
        title: 'Letters',
        type: 'book',
        creators: [
          { role: 'author', family: 'Gogh', given: 'Vincent' },
          { role: 'author', family: 'King', given: 'Martin Luther', suffix: 'Sr.' },
        ],
      },
    ]);
    await page.goto(`/workspaces/${workspaceId}?resource=${id}`);
    const letters = page.getByRole('region', { name: 'Details: Letters' });
    await letters.getByRole('button', { name: 'Edit creators' }).click();
    const first = letters.getByRole('group', { name: 'Creator 1' });
    const second = letters.getByRole('group', { name: 'Creator 2' });
    // Closed for a name without particles or suffix, open for one with a suffix.
    const more = first.getByRole('button', { name: 'Creator 1: particles and suffix' });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await second.getByRole('textbox', { name: 'Suffix', exact: true }).inputValue()).toBe(
      'Sr.',
    );
    await more.press('Enter');
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    await first.getByRole('textbox', { name: 'Family name particle', exact: true }).fill('van');
    await second.getByRole('textbox', { name: 'Suffix', exact: true }).fill('Jr.');
    expect(await auditPage(page, 'item-pane-name-parts')).toEqual({});
    await letters.getByRole('button', { name: 'Save creators' }).click();
    await letters.getByRole('button', { name: 'Edit creators' }).waitFor();
    expect(await letters.locator('.creator-list li').allInnerTexts()).toEqual([
      'van Gogh, Vincent',
      'King, Martin Luther, Jr.',
    ]);
    const book = (await saved()).find((each) => each.title === 'Letters');
    expect(book?.creators).toEqual([
      { role: 'author', family: 'Gogh', given: 'Vincent', nonDroppingParticle: 'van' },
      { role: 'author', family: 'King', given: 'Martin Luther', suffix: 'Jr.' },
    ]);
  });
});
