/**
 * Cite (issue 23): a selection, or one resource, cited in a chosen style. The references expected are
 * written from the style guides (APA 7, MLA 9), not from the service's output; Copy puts the text and
 * its HTML (italics kept) on the clipboard; the style chosen is remembered; a style is found by name
 * and a name that matches none says so; focus returns to the button that opened the dialog; the
 * dialog passes axe in light and dark at 360 and 1440 px and does not widen the page at 360 px.
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
import {
  addResourcesThroughApi,
  createWorkspaceThroughApi,
  copied,
  openJourney,
  type Journey,
} from '../support/web-journey.js';

const NTM = 'Neural Turing Machines';
const LOVELACE = 'Notes on the analytical engine';
/** Run in the page (strings: the tests are type-checked without the DOM's types). */
const FOCUSED_TEXT = 'document.activeElement?.textContent';

describe.skipIf(webSkipReason)('Cite (Chromium)', { timeout: JOURNEY_TIMEOUT_MS }, () => {
  let journey: Journey;
  let server: WebServer;
  let context: BrowserContext;
  let page: Page;
  let workspaceId: string;

  beforeAll(async () => {
    journey = await openJourney({
      prefix: 'cite',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    ({ server, context, page } = journey);
    workspaceId = await createWorkspaceThroughApi(context, server.base, { name: 'Memory papers' });
    await addResourcesThroughApi(context, server.base, workspaceId, [
      {
        title: NTM,
        url: 'https://arxiv.org/abs/1410.5401',
        type: 'preprint',
        authors: ['Alex Graves', 'Greg Wayne', 'Ivo Danihelka'],
        data: {
          arxivId: '1410.5401',
          venue: 'arXiv cs.NE',
          publishedDate: '2014-10-20',
          doi: '10.48550/arXiv.1410.5401',
        },
      },
      {
        title: LOVELACE,
        type: 'article',
        authors: ['Ada Lovelace'],
        data: { venue: 'Scientific Memoirs', volume: '3', pages: '666-731', year: 1843 },
      },
    ]);
  }, 240_000);
  afterAll(async () => journey?.close());

  const dialog = () => page.getByRole('dialog');
  const preview = () => dialog().getByRole('region', { name: 'Preview' });

  it('cites the selection in APA 7, then MLA 9, copies text and HTML, and returns focus to "Cite selected…"', async () => {
    await page.goto(`/workspaces/${workspaceId}`);
    await page.getByRole('checkbox', { name: `Select ${NTM}` }).check();
    await page.getByRole('checkbox', { name: `Select ${LOVELACE}` }).check();
    const opener = page.getByRole('button', { name: 'Cite selected…' });
    await opener.click();
    await dialog().getByRole('heading', { name: 'Cite 2 resources' }).waitFor();
    // APA 7: "Surname, I., Surname, I., & Surname, I. (Year)."; references by author; in text "(First et al., Year; …)".
    await preview()
      .getByText('Graves, A., Wayne, G., & Danihelka, I. (2014). Neural Turing Machines', {
        exact: false,
      })
      .waitFor({ timeout: 30_000 });
    const apa = await preview().locator('.cite-bibliography').innerText();
    expect(
      apa
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(0, 12)),
    ).toEqual(['Graves, A., ', 'Lovelace, A.']);
    await preview().getByText('(Graves et al., 2014; Lovelace, 1843)').waitFor();

    // MLA 9: "Surname, Given, et al." for three or more authors, the title in quotation marks; no year in text.
    await dialog()
      .getByLabel('Style', { exact: true })
      .selectOption({ label: 'MLA — MLA Handbook 9th edition (in-text citations)' });
    await preview()
      .getByText('Graves, Alex, et al. “Neural Turing Machines.”', { exact: false })
      .waitFor({ timeout: 30_000 });
    await preview().getByText('(Graves et al.; Lovelace)').waitFor();
    const copy = dialog().getByRole('button', { name: 'Copy bibliography' });
    await expect.poll(() => copy.isEnabled()).toBe(true);

    expect(await auditPage(page, 'cite-dialog')).toEqual({});
    await page.setViewportSize({ width: 360, height: 740 });
    const width = await pageWidths(page);
    expect(width.scrollWidth).toBeLessThanOrEqual(width.clientWidth);
    await page.setViewportSize({ width: 1440, height: 900 });

    await copy.click();
    await page.getByText('Copied the 2 references (MLA)').first().waitFor();
    const clipboard = await copied(page);
    expect(clipboard.text).toMatch(/^Graves, Alex, et al\. “Neural Turing Machines\.”/);
    expect(clipboard.text).toContain('Lovelace, Ada. “Notes on the Analytical Engine.”');
    // MLA italicises the container; the HTML keeps it.
    expect(clipboard.html).toContain('<i>Scientific Memoirs</i>');

    await dialog().getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.evaluate<unknown>(FOCUSED_TEXT)).toBe('Cite selected…');
  });

  it('remembers the style, cites one resource from its panel, and finds a style by name or says none has it', async () => {
    await page.goto(`/workspaces/${workspaceId}`);
    await page.getByRole('link', { name: NTM, exact: true }).click();
    const opener = page
      .getByRole('region', { name: `Details: ${NTM}` })
      .getByRole('button', { name: 'Cite this…' });
    await opener.click();
    await dialog().getByRole('heading', { name: 'Cite 1 resource' }).waitFor();
    await expect
      .poll(() => dialog().getByLabel('Style', { exact: true }).inputValue())
      .toBe('modern-language-association');
    await preview()
      .getByText('Graves, Alex, et al.', { exact: false })
      .waitFor({ timeout: 30_000 });

    await dialog().getByLabel('Find a style by name').fill('ieee');
    await expect
      .poll(() => dialog().getByLabel('Style', { exact: true }).locator('option').allInnerTexts())
      .toContain('IEEE — IEEE Reference Guide version 11.29.2023');
    await dialog().getByLabel('Style', { exact: true }).selectOption('ieee');
    // IEEE: numbered, initials first, "and" before the last author, the title in quotation marks.
    await preview()
      .getByText('A. Graves, G. Wayne, and I. Danihelka, “Neural Turing Machines,”', {
        exact: false,
      })
      .waitFor({ timeout: 30_000 });
    await preview().getByText('[1]', { exact: true }).waitFor();

    await dialog().getByLabel('Find a style by name').fill('no such style');
    await dialog()
      .getByText('No style is called “no such style”. Try another name, e.g. MLA, Chicago or IEEE.')
      .waitFor();
    expect(await auditPage(page, 'cite-no-style')).toEqual({});
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate<unknown>(FOCUSED_TEXT)).toBe('Cite this…');
  });
});
