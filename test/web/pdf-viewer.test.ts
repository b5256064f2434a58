/**
 * The PDF viewer in Chromium against the real service (one server, one browser): a real paper's PDF
 * kept with a resource (set up through the API) is drawn with pdf.js, its text selectable; a phrase
 * selected on page 2 is annotated, and the API holds the quote, the page and boxes within the page;
 * after a reload, choosing the annotation scrolls to page 2 and marks it; deleting it removes the mark.
 * `?page=3` opens at page 3; the detail panel links to the viewer; axe finds nothing serious and
 * nothing scrolls sideways at 360 or 390 px.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import {
  auditPage,
  JOURNEY_TIMEOUT_MS,
  launchChromium,
  newContext,
  newCredentials,
  signUpThroughApi,
  startWebServer,
  VIEWPORTS,
  webSkipReason,
  type WebServer,
  pageWidths,
} from '../support/web-browser.js';

const PDF_PATH = join(import.meta.dirname, '..', 'fixtures', 'pdfs', 'vespa-peerjcs2017.pdf');
/** Read from the PDF with `pdftotext -f 2 -l 2` (one line of its page 2); not from the app. */
const PAGE_2_PHRASE = 'VESPA automates selective pressure analyses';
/** Page 1's first line of text, from `pdftotext -f 1 -l 1`. */
const PAGE_1_TEXT = 'VESPA: Very large-scale Evolutionary and';

/** Selects the first occurrence of `phrase` in a page's text layer with a DOM Range (run in the page). */
const SELECT_PHRASE = `(([pageNumber, phrase]) => {
  const layer = document.querySelector('.pdf-page[data-page-number="' + pageNumber + '"] .textLayer');
  const walker = document.createTreeWalker(layer, NodeFilter.SHOW_TEXT);
  const nodes = [];
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push({ node, start: text.length });
    text += node.data;
  }
  const at = text.indexOf(phrase);
  if (at < 0) return false;
  const place = (offset) => {
    const found = nodes.findLast((entry) => entry.start <= offset);
    return [found.node, offset - found.start];
  };
  const range = document.createRange();
  range.setStart(...place(at));
  const [endNode, endOffset] = place(at + phrase.length - 1);
  range.setEnd(endNode, endOffset + 1);
  const selection = document.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
})`;

type Annotation = ApiSchema<'Annotation'>;

/** Whether the element's box overlaps the viewport. */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  return box !== null && viewport !== null && box.y < viewport.height && box.y + box.height > 0;
}

describe.skipIf(webSkipReason)('PDF viewer: read, select, annotate (Chromium)', () => {
  let server: WebServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: APIRequestContext;
  let viewerPath: string;
  let workspaceId: string;
  let resourceId: string;
  let annotationId: string;

  const annotations = async (): Promise<Annotation[]> =>
    (await (
      await api.get(`/api/resources/${resourceId}/annotations?limit=100`)
    ).json()) as Annotation[];
  const pageBox = (number: number) => page.locator(`.pdf-page[data-page-number="${number}"]`);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchChromium()]);
    context = await newContext(browser, server.base);
    await signUpThroughApi(context, server.base, newCredentials('pdf'));
    api = context.request;
    const headers = { origin: server.base };
    workspaceId = (
      (await (
        await api.post('/api/workspaces', { headers, data: { name: 'Reading' } })
      ).json()) as ApiSchema<'Workspace'>
    ).id;
    resourceId = (
      (await (
        await api.post(`/api/workspaces/${workspaceId}/resources`, {
          headers,
          data: { title: 'VESPA' },
        })
      ).json()) as ApiSchema<'Resource'>
    ).id;
    const put = await api.put(`/api/workspaces/${workspaceId}/resources/${resourceId}/pdf`, {
      headers,
      multipart: {
        file: { name: 'vespa.pdf', mimeType: 'application/pdf', buffer: readFileSync(PDF_PATH) },
      },
    });
    expect(put.status()).toBe(200);
    // Extraction runs in the background: the resource says when it is done.
    await vi.waitFor(
      async () => {
        const list = (await (
          await api.get(`/api/workspaces/${workspaceId}/resources`)
        ).json()) as Array<{ id: string; pdf: { extraction: string } | null }>;
        expect(list.find((resource) => resource.id === resourceId)?.pdf?.extraction).toBe('ready');
      },
      { timeout: 60_000, interval: 200 },
    );
    viewerPath = `/workspaces/${workspaceId}/resources/${resourceId}/pdf`;
    page = await context.newPage();
  }, JOURNEY_TIMEOUT_MS);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  it("is linked from the resource's detail panel once its PDF is ready, and draws the PDF's own text", async () => {
    await page.goto(`/workspaces/${workspaceId}?resource=${resourceId}`);
    await page.getByRole('link', { name: 'Read the PDF', exact: true }).click();
    await page.waitForURL(`**${viewerPath}`);
    await page
      .getByRole('group', { name: 'Page 1', exact: true })
      .locator('.textLayer')
      .getByText(PAGE_1_TEXT, { exact: true })
      .waitFor();
    expect(await page.locator('.pdf-page').count()).toBe(16);
    expect(await inView(page, pageBox(2))).toBe(false);
  });

  it('annotates a phrase selected on page 2: the API holds its quote, page and boxes within the page', async () => {
    await pageBox(2).scrollIntoViewIfNeeded();
    await pageBox(2)
      .locator('.textLayer')
      .getByText('VESPA automates', { exact: false })
      .first()
      .waitFor();
    expect(await page.evaluate(`${SELECT_PHRASE}([2, ${JSON.stringify(PAGE_2_PHRASE)}])`)).toBe(
      true,
    );
    await pageBox(2).getByRole('button', { name: 'Annotate' }).click();
    await page.getByLabel('Note (optional)').fill('What VESPA does');
    await page.getByRole('button', { name: 'Save annotation' }).click();
    await page.getByRole('heading', { name: 'Annotations (1)' }).waitFor();

    const [annotation] = await annotations();
    expect(annotation?.body).toBe('What VESPA does');
    const anchor = annotation!.highlights.pdf!;
    expect(anchor.page).toBe(2);
    expect(anchor.quote).toBe(PAGE_2_PHRASE);
    expect(anchor.rects.length).toBeGreaterThanOrEqual(1);
    for (const rect of anchor.rects) {
      for (const value of [
        rect.x,
        rect.y,
        rect.width,
        rect.height,
        rect.x + rect.width,
        rect.y + rect.height,
      ]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
      expect(rect.width).toBeGreaterThan(0.1); // six words of a line, on a page of one column
      expect(rect.height).toBeLessThan(0.05); // one line
    }
    annotationId = annotation!.id;
    // The new annotation's mark is drawn on its page at once.
    await pageBox(2).locator(`[data-annotation-id="${annotationId}"]`).first().waitFor();
  });

  it('after a reload, choosing the annotation scrolls to its page and marks its place; axe; no sideways scroll at 360 and 390 px', async () => {
    await page.goto(viewerPath);
    const choose = page.getByRole('button', { name: 'Show on page 2' });
    await choose.waitFor();
    expect(await inView(page, pageBox(2))).toBe(false);
    await choose.click();
    const mark = pageBox(2).locator(`[data-annotation-id="${annotationId}"]`).first();
    await expect.poll(() => inView(page, mark)).toBe(true);
    expect(await mark.getAttribute('class')).toContain('pdf-mark-active');
    expect(await mark.isVisible()).toBe(true);
    expect(
      await page
        .getByRole('listitem')
        .filter({ hasText: 'What VESPA does' })
        .getAttribute('aria-current'),
    ).toBe('true');

    // The text layer is transparent text over the drawing, thousands of boxes: axe's contrast check of each would take seconds and mean nothing.
    expect(
      await auditPage(page, 'pdf-viewer', { exclude: ['.textLayer'], fullPage: false }),
    ).toEqual({});
    for (const width of [360, 390]) {
      await page.setViewportSize({ width, height: VIEWPORTS.mobile.height });
      const overflow = await pageWidths(page);
      expect(overflow.scrollWidth, `at ${width} px`).toBeLessThanOrEqual(overflow.clientWidth);
    }
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('a delete of an annotation changed meanwhile is refused and shows the change; deleting again removes it and its mark', async () => {
    // Someone changes the annotation after the page read it: the page's delete names the old version.
    const changed = await api.patch(`/api/annotations/${annotationId}`, {
      headers: { origin: server.base },
      data: { body: 'What VESPA does, revised' },
    });
    expect(changed.status()).toBe(200);
    await page.getByRole('button', { name: 'Delete annotation' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /changed/i })
      .waitFor();
    await page.getByRole('listitem').filter({ hasText: 'What VESPA does, revised' }).waitFor();
    expect(await annotations()).toHaveLength(1);

    await page.getByRole('button', { name: 'Delete annotation' }).click();
    await page.getByRole('heading', { name: 'Annotations (0)' }).waitFor();
    expect(await page.locator(`[data-annotation-id="${annotationId}"]`).count()).toBe(0);
    expect(await annotations()).toEqual([]);
  });

  it('?page=3 opens at page 3', async () => {
    await page.goto(`${viewerPath}?page=3`);
    await expect.poll(() => inView(page, pageBox(3))).toBe(true);
    expect(await inView(page, pageBox(1))).toBe(false);
    // Page 3 is drawn (its text is there), not only placed.
    await pageBox(3).locator('.textLayer span').first().waitFor();
  });
});
