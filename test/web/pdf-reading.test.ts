/**
 * Reading a real multi-page PDF in Chromium at 360 and 1440 px (one server, one browser): zoom in and
 * out (buttons, fit page, fit width, Ctrl+wheel) without the page itself scrolling sideways; find a word
 * with pdf.js's find controller (the count, next and previous, the current match marked and brought into
 * view on its page); go to a page by the page box and by the document's outline; annotate a selection
 * across a page break in red and a phrase in green (one annotation each, their colours and pages in the
 * API, the marks drawn on both pages, the list filtered by colour); axe finds nothing at any impact.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import {
  JOURNEY_TIMEOUT_MS,
  launchChromium,
  newContext,
  newCredentials,
  pageWidths,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  type WebServer,
} from '../support/web-browser.js';

const PDF_PATH = join(import.meta.dirname, '..', 'fixtures', 'pdfs', 'qi-malawi-bmc2014.pdf');
const PAGES = 10; // pdfinfo
/** `pdftotext` finds "Lilongwe" 5 times: once on page 1, three times on page 9, once on page 10. */
const WORD = 'Lilongwe';
const WORD_COUNT = 5;
/** The last line of page 2's text and the first of page 3's body, from `pdftotext -f 2 -l 3`. */
const PAGE_2_END = 'In order to validate the questions before posing';
const PAGE_3_START = 'them to the study interviewees';
/** A phrase of page 1 (its abstract), from `pdftotext -f 1 -l 1`. */
const PAGE_1_PHRASE = 'Kamuzu Central Hospital';
/** The outline's "Leadership" entry (under Discussion) points at page 8 (`mutool show … outline`). */
const OUTLINE_ENTRY = 'Leadership';
const OUTLINE_PAGE = 8;

/**
 * Selects from the first occurrence of `fromPhrase` in one page's text layer to the end of the first
 * `toPhrase` in another's (the same page when equal), with a DOM Range (run in the page).
 */
const SELECT_BETWEEN = `(([fromPage, fromPhrase, toPage, toPhrase]) => {
  const locate = (pageNumber, phrase, end) => {
    const layer = document.querySelector('.pdf-page[data-page-number="' + pageNumber + '"] .textLayer');
    const walker = document.createTreeWalker(layer, NodeFilter.SHOW_TEXT);
    const nodes = [];
    let text = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push({ node, start: text.length });
      text += node.data;
    }
    const at = text.indexOf(phrase);
    if (at < 0) return null;
    const offset = end ? at + phrase.length - 1 : at;
    const found = nodes.findLast((entry) => entry.start <= offset);
    return [found.node, offset - found.start + (end ? 1 : 0)];
  };
  const start = locate(fromPage, fromPhrase, false);
  const end = locate(toPage, toPhrase, true);
  if (!start || !end) return false;
  const range = document.createRange();
  range.setStart(...start);
  range.setEnd(...end);
  const selection = document.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
})`;

/** The text of the find controller's current match, as the page marks it (CSS Custom Highlight API). */
const CURRENT_MATCH = `(() => {
  const highlight = CSS.highlights.get('pdf-find-current');
  const [range] = highlight ? [...highlight] : [];
  if (!range) return null;
  const box = range.getBoundingClientRect();
  const page = range.startContainer.parentElement.closest('.pdf-page').dataset.pageNumber;
  return { text: range.toString(), page: Number(page), top: box.top, bottom: box.bottom };
})()`;

type Annotation = ApiSchema<'Annotation'>;

interface Match {
  text: string;
  page: number;
  top: number;
  bottom: number;
}
const currentMatch = (page: Page) => page.evaluate<Match | null>(CURRENT_MATCH);

async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  return box !== null && viewport !== null && box.y < viewport.height && box.y + box.height > 0;
}

/** axe's findings of every impact (minor and moderate too) on the page as it is. */
async function allA11yFindings(page: Page): Promise<Array<{ id: string; impact: string }>> {
  const results = await new AxeBuilder({ page })
    // The text layer is transparent text over the drawing: thousands of boxes whose contrast means nothing.
    .exclude('.textLayer')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .setLegacyMode()
    .analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: String(violation.impact),
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}

describe.skipIf(webSkipReason)(
  'Reading a PDF: zoom, find, go to a page, colours (Chromium)',
  () => {
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let api: APIRequestContext;
    let workspaceId: string;

    beforeAll(async () => {
      [server, browser] = await Promise.all([startWebServer(), launchChromium()]);
      context = await newContext(browser, server.base);
      await signUpThroughApi(context, server.base, newCredentials('reader'));
      api = context.request;
      workspaceId = (
        (await (
          await api.post('/api/workspaces', {
            headers: { origin: server.base },
            data: { name: 'Reading' },
          })
        ).json()) as ApiSchema<'Workspace'>
      ).id;
    }, JOURNEY_TIMEOUT_MS);

    afterAll(async () => {
      await context?.close();
      await browser?.close();
      await server?.close();
    });

    /** A resource holding the PDF, once its text is extracted. */
    async function resourceWithPdf(title: string): Promise<string> {
      const headers = { origin: server.base };
      const id = (
        (await (
          await api.post(`/api/workspaces/${workspaceId}/resources`, { headers, data: { title } })
        ).json()) as ApiSchema<'Resource'>
      ).id;
      const put = await api.put(`/api/workspaces/${workspaceId}/resources/${id}/pdf`, {
        headers,
        multipart: {
          file: { name: 'qi.pdf', mimeType: 'application/pdf', buffer: readFileSync(PDF_PATH) },
        },
      });
      expect(put.status()).toBe(200);
      await vi.waitFor(
        async () => {
          const list = (await (
            await api.get(`/api/workspaces/${workspaceId}/resources`)
          ).json()) as Array<{ id: string; pdf: { extraction: string } | null }>;
          expect(list.find((resource) => resource.id === id)?.pdf?.extraction).toBe('ready');
        },
        { timeout: 60_000, interval: 200 },
      );
      return id;
    }

    for (const width of [360, 1440]) {
      it(
        `at ${width} px: zooms, finds a word, goes to a page, annotates in two colours across a page break; axe finds nothing`,
        async () => {
          const resourceId = await resourceWithPdf(`Quality improvement at ${width}`);
          const page = await context.newPage();
          await page.setViewportSize({ width, height: 800 });
          const pageBox = (number: number) =>
            page.locator(`.pdf-page[data-page-number="${number}"]`);
          const pageNumberBox = page.getByRole('textbox', { name: 'Page' });
          const annotations = async (): Promise<Annotation[]> =>
            (await (
              await api.get(`/api/resources/${resourceId}/annotations?limit=100`)
            ).json()) as Annotation[];
          // A page's text layer is written again when the page comes back into view or changes width:
          // a selection made in the spans it replaces is dropped, so the journey selects again.
          const textLayerDone = (number: number) =>
            pageBox(number).locator('.textLayer span').first().waitFor();
          /** Selects (a script returning true when it could) until the page offers Annotate, then takes it. */
          const selectAndAnnotate = async (number: number, select: string) => {
            const annotate = pageBox(number).getByRole('button', { name: 'Annotate' });
            await expect
              .poll(async () => (await page.evaluate<boolean>(select)) && annotate.isVisible(), {
                timeout: 30_000,
              })
              .toBe(true);
            await annotate.click();
          };
          const noSidewaysScroll = async () => {
            const widths = await pageWidths(page);
            expect(widths.scrollWidth, `at ${width} px`).toBeLessThanOrEqual(widths.clientWidth);
          };

          await page.goto(`/workspaces/${workspaceId}/resources/${resourceId}/pdf`);
          await pageBox(1).locator('.textLayer span').first().waitFor();
          expect(await page.locator('.pdf-page').count()).toBe(PAGES);
          expect(await pageNumberBox.inputValue()).toBe('1');

          // --- Zoom: fit width at first; in, fit page, fit width, Ctrl+wheel.
          const pagesWidth = async () => (await pageBox(1).boundingBox())!.width;
          const column = await page
            .locator('.pdf-pages')
            .evaluate((element) => element.clientWidth);
          const fitWidth = await pagesWidth();
          expect(Math.abs(fitWidth - column)).toBeLessThanOrEqual(1);
          // From fit width, two steps in: past the next preset scale (100 % may be a hair over fit width).
          await page.getByRole('button', { name: 'Zoom in' }).click();
          await page.getByRole('button', { name: 'Zoom in' }).click();
          await expect.poll(pagesWidth).toBeGreaterThan(fitWidth * 1.05);
          await noSidewaysScroll();
          if (width === 360) {
            // Wider than the column: the pages scroll sideways in their region, not the page.
            const region = await page
              .getByRole('region', { name: 'Pages' })
              .evaluate((element) => [element.scrollWidth, element.clientWidth]);
            expect(region[0]).toBeGreaterThan(region[1] ?? Infinity);
          }
          await page.getByRole('combobox', { name: 'Zoom' }).selectOption('fit-page');
          await expect
            .poll(async () => (await pageBox(1).boundingBox())!.height)
            .toBeLessThanOrEqual(800);
          await page.getByRole('combobox', { name: 'Zoom' }).selectOption('fit-width');
          await expect.poll(pagesWidth).toBeCloseTo(fitWidth, 0);
          const before = await pagesWidth();
          const box = (await pageBox(1).boundingBox())!;
          await page.mouse.move(box.x + box.width / 2, Math.max(box.y, 0) + 50);
          await page.keyboard.down('Control');
          await page.mouse.wheel(0, -200);
          await page.keyboard.up('Control');
          await expect.poll(pagesWidth).toBeGreaterThan(before * 1.2);
          await page.getByRole('combobox', { name: 'Zoom' }).selectOption('fit-width');
          await expect.poll(pagesWidth).toBeCloseTo(fitWidth, 0);
          await noSidewaysScroll();

          // --- Find: the count, the current match marked on its page and in view; next goes on to page 9; previous comes back.
          const find = page.getByRole('searchbox', { name: 'Find in the document' });
          const status = page.getByRole('search').getByRole('status');
          await find.fill(WORD);
          await find.press('Enter');
          await expect.poll(() => status.textContent()).toBe(`1 of ${WORD_COUNT} matches`);
          let match = await currentMatch(page);
          expect(match?.text.toLowerCase()).toBe(WORD.toLowerCase());
          expect(match?.page).toBe(1);
          await find.press('Enter');
          await expect.poll(() => status.textContent()).toBe(`2 of ${WORD_COUNT} matches`);
          await expect.poll(async () => (await currentMatch(page))?.page).toBe(9);
          await expect
            .poll(async () => {
              match = await currentMatch(page);
              return match !== null && match.top >= 0 && match.bottom <= 800;
            })
            .toBe(true);
          expect(match?.text.toLowerCase()).toBe(WORD.toLowerCase());
          expect(await pageNumberBox.inputValue()).toBe('9');
          await find.press('Shift+Enter');
          await expect.poll(() => status.textContent()).toBe(`1 of ${WORD_COUNT} matches`);
          await find.press('Escape');
          expect(await currentMatch(page)).toBeNull();

          // --- Go to a page: the page box, then the outline.
          await pageNumberBox.fill('7');
          await pageNumberBox.press('Enter');
          await expect.poll(() => inView(page, pageBox(7))).toBe(true);
          await expect.poll(() => pageNumberBox.inputValue()).toBe('7');
          await page.getByText('Outline', { exact: true }).click();
          await page
            .getByRole('navigation', { name: 'Outline' })
            .getByRole('button', { name: OUTLINE_ENTRY, exact: true })
            .first()
            .click();
          await expect.poll(() => pageNumberBox.inputValue()).toBe(String(OUTLINE_PAGE));
          expect(await inView(page, pageBox(OUTLINE_PAGE))).toBe(true);

          // --- Annotate across the break from page 2 to page 3, in red.
          await pageNumberBox.fill('2');
          await pageNumberBox.press('Enter');
          await textLayerDone(2);
          await pageBox(3).scrollIntoViewIfNeeded();
          await textLayerDone(3);
          await selectAndAnnotate(
            3,
            `${SELECT_BETWEEN}([2, ${JSON.stringify(PAGE_2_END)}, 3, ${JSON.stringify(PAGE_3_START)}])`,
          );
          await pageBox(3).getByRole('radio', { name: 'Red' }).check();
          await page.getByLabel('Note (optional)').fill('Validated before use');
          await page.getByRole('button', { name: 'Save annotation' }).click();
          await page.getByRole('heading', { name: 'Annotations (1)' }).waitFor();
          const [across] = await annotations();
          expect(across?.color).toBe('red');
          const anchor = across!.highlights.pdf!;
          expect(anchor.page).toBe(2);
          expect(anchor.quote.startsWith(PAGE_2_END)).toBe(true);
          expect(anchor.quote.endsWith(PAGE_3_START)).toBe(true);
          const onPage3 = anchor.rects.filter((rect) => rect.page === 3);
          const onPage2 = anchor.rects.filter((rect) => rect.page === undefined);
          expect(onPage2.length).toBeGreaterThanOrEqual(1);
          expect(onPage3.length).toBeGreaterThanOrEqual(1);
          expect(onPage2.length + onPage3.length).toBe(anchor.rects.length);
          // The end of page 2 lies low on its page, the start of page 3 high on its own.
          expect(Math.max(...onPage2.map((rect) => rect.y))).toBeGreaterThan(0.5);
          expect(Math.min(...onPage3.map((rect) => rect.y))).toBeLessThan(0.5);
          for (const number of [2, 3])
            await pageBox(number)
              .locator(`.pdf-mark[data-annotation-id="${across!.id}"][data-color="red"]`)
              .first()
              .waitFor();

          // --- A phrase of page 1 in green (the colour chosen last is offered first: red, so change it).
          await pageNumberBox.fill('1');
          await pageNumberBox.press('Enter');
          await textLayerDone(1);
          await selectAndAnnotate(
            1,
            `${SELECT_BETWEEN}([1, ${JSON.stringify(PAGE_1_PHRASE)}, 1, ${JSON.stringify(PAGE_1_PHRASE)}])`,
          );
          expect(await pageBox(1).getByRole('radio', { name: 'Red' }).isChecked()).toBe(true);
          await pageBox(1).getByRole('radio', { name: 'Green' }).check();
          await page.getByRole('button', { name: 'Save annotation' }).click();
          await page.getByRole('heading', { name: 'Annotations (2)' }).waitFor();
          const green = (await annotations()).find((annotation) => annotation.id !== across!.id);
          expect(green).toMatchObject({
            color: 'green',
            body: `“${PAGE_1_PHRASE}”`,
            highlights: { pdf: { page: 1, quote: PAGE_1_PHRASE } },
          });

          // The list names each colour and its pages, and shows one colour when asked.
          const list = page.getByRole('complementary', { name: /Annotations/ });
          await list.getByText('Red · pages 2–3').waitFor();
          await list.getByText('Green · page 1').waitFor();
          await list.getByRole('button', { name: 'Red', exact: true }).click();
          await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
          await list.getByText('Red · pages 2–3').waitFor();
          await list.getByRole('button', { name: 'All', exact: true }).click();
          await expect.poll(() => list.getByRole('listitem').count()).toBe(2);

          await noSidewaysScroll();
          expect(await allA11yFindings(page)).toEqual([]);

          // The workspace's panel shows the red annotation's pages and opens the viewer there.
          await page.goto(`/workspaces/${workspaceId}?resource=${resourceId}`);
          await page.getByRole('link', { name: 'pages 2–3' }).first().click();
          await page.waitForURL(/\/pdf\?page=2$/);
          await expect.poll(() => inView(page, pageBox(2))).toBe(true);
          await page.close();
        },
        JOURNEY_TIMEOUT_MS * 2,
      );
    }
  },
);
