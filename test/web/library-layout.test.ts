/**
 * The library and search layouts (issue round 3, "The library and search views") in Chromium against
 * the real service: a workspace of 200 resources at 1440 × 900 in Zotero's three panes (workspaces |
 * items | item pane), each row one line (no year cell taller than one line, measured by its box),
 * columns chosen and resized (pointer and keyboard) and kept per user over a reload, another user
 * seeing the defaults; a search (providers answered from recorded fixtures) showing at least five
 * result cards whose top is inside the 900 px first screen; both in light and dark with axe, and at
 * 360 px with no sideways scroll and the same content reachable. The figures measured are printed.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import type { FixtureRoute } from '../support/fixture-server.js';
import {
  launchChromium,
  newContext,
  newCredentials,
  pageWidths,
  screenshot,
  seriousA11yViolations,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
} from '../support/web-browser.js';

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 360, height: 800 };
const SCHEMES = ['light', 'dark'] as const;
const THEME_IN_USE = 'document.documentElement.dataset.theme';
const RESOURCES = 200;
const QUERY = 'Augmenting large language models with chemistry tools';
const ROUTES: FixtureRoute[] = [
  { path: '/arxiv/query', fixture: 'arxiv/query_all-testing_start0_max10.xml' },
  { path: '/pubmed/esearch.fcgi', fixture: 'pubmed/esearch_no_results_PhraseNotFound.xml' },
  {
    path: '/crossref/works',
    fixture: 'crossref/works_query.title-augmenting-llm-chemistry-tools_rows1.json',
  },
  {
    path: '/openalex/works',
    fixture: 'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
  },
  {
    path: '/semanticscholar/paper/search',
    fixture: 'semanticscholar/paper_search_match_augmenting-llm-chemistry-tools.json',
  },
  { path: '/zenodo/records', fixture: 'zenodo/records_search_q-title_size2_page1.json' },
];

/** Titles of every length (a short one, and one of about 30 words), venues long and short, years of four digits. */
function seed(i: number) {
  const words =
    'attention graph neural networks for protein structure prediction at scale with'.split(' ');
  const length = 2 + ((i * 7) % 30);
  const title = `${i + 1}. ${Array.from({ length }, (_, k) => words[(i + k) % words.length]).join(' ')}`;
  return {
    title,
    authors: [`Given${i} Family${i}-Longname`, 'Second Author'],
    tags: i % 3 === 0 ? ['to-read', `topic-${i % 7}`] : [],
    data: {
      publishedDate: `${1843 + ((i * 13) % 183)}-01-01`,
      venue:
        i % 2 === 0
          ? 'Proceedings of the National Academy of Sciences of the United States'
          : 'Nature',
      abstract: `The abstract of resource ${i + 1}.`,
    },
  };
}

/**
 * Each year cell: the lines its text takes (the distinct tops of its text's boxes) and its box against
 * two lines of its text (its line height twice and its vertical padding): a year broken in two ("201" /
 * "5") takes two lines and a box that tall.
 */
const YEAR_CELLS = `(() => [...document.querySelectorAll('tbody td.col-year')].map((cell) => {
  const style = getComputedStyle(cell);
  const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
  const range = document.createRange();
  range.selectNodeContents(cell);
  const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
  return {
    text: cell.textContent,
    lines: tops.size,
    height: cell.getBoundingClientRect().height,
    twoLines: 2 * lineHeight + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom),
    oneLine: lineHeight + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom),
  };
}))()`;
interface YearCell {
  text: string;
  lines: number;
  height: number;
  twoLines: number;
  oneLine: number;
}
const ROW_HEIGHTS = `[...document.querySelectorAll('tbody tr')].map((row) => row.getBoundingClientRect().height)`;
const box = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return { left: rect.left, right: rect.right, top: rect.top, width: rect.width };
    });

describe.skipIf(webSkipReason)(
  'the library and search layouts (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let workspaceId: string;
    const pageErrors: string[] = [];
    const origin = () => ({ origin: server.base });

    beforeAll(async () => {
      [server, browser] = await Promise.all([startWebServer({ routes: ROUTES }), launchChromium()]);
      context = await newContext(browser, server.base);
      await signUpThroughApi(context, server.base, newCredentials('layout'));
      const create = async (title: string) =>
        (
          (await (
            await context.request.post('/api/workspaces', { headers: origin(), data: { title } })
          ).json()) as ApiSchema<'Workspace'>
        ).id;
      workspaceId = await create('Two hundred papers');
      await create('Reading group');
      for (let start = 0; start < RESOURCES; start += 10) {
        const replies = await Promise.all(
          Array.from({ length: 10 }, (_, k) =>
            context.request.post(`/api/workspaces/${workspaceId}/resources`, {
              headers: origin(),
              data: seed(start + k),
            }),
          ),
        );
        for (const reply of replies)
          if (reply.status() !== 201) throw new Error(`seed: ${reply.status()}`);
      }
      page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
    }, 240_000);
    afterAll(async () => {
      await context?.close();
      await browser?.close();
      await server?.close();
      expect(pageErrors).toEqual([]);
    });

    async function useScheme(scheme: 'light' | 'dark') {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => page.evaluate<string>(THEME_IN_USE)).toBe(scheme);
    }
    async function noSidewaysScroll(what: string) {
      const { scrollWidth, clientWidth } = await pageWidths(page);
      expect(scrollWidth, what).toBeLessThanOrEqual(clientWidth);
    }
    const table = () => page.getByRole('table');
    const header = (name: string) => table().getByRole('columnheader', { name, exact: true });

    it('shows 200 resources at 1440 px in three panes, one line a row, light and dark', async () => {
      await page.setViewportSize(WIDE);
      await page.goto(`/workspaces/${workspaceId}?size=100`);
      await expect.poll(() => table().locator('tbody tr').count()).toBe(100);
      expect(await page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain(
        `Page 1 of 2 · ${RESOURCES} resources`,
      );

      // The three panes side by side: workspaces | items | item pane.
      const panes = page.getByRole('navigation', { name: 'Workspaces' });
      expect(
        await panes.getByRole('link', { name: /Two hundred papers/ }).getAttribute('aria-current'),
      ).toBe('page');
      await panes.getByRole('link', { name: /Reading group/ }).waitFor();
      const workspaces = await box(page, '.library-workspaces');
      const items = await box(page, '.library-list');
      const itemPane = await box(page, '.library-detail');
      expect(workspaces.right).toBeLessThanOrEqual(items.left);
      expect(items.right).toBeLessThanOrEqual(itemPane.left);
      expect(itemPane.right).toBeLessThanOrEqual(WIDE.width);
      // The width is used: the items pane takes more than half the window.
      expect(items.width).toBeGreaterThan(WIDE.width / 2);

      for (const scheme of SCHEMES) {
        await useScheme(scheme);
        const years = await page.evaluate<YearCell[]>(YEAR_CELLS);
        expect(years).toHaveLength(100);
        for (const year of years) {
          expect(year.text, 'a year of four digits').toMatch(/^\d{4}$/);
          expect(year.lines, `year ${year.text}`).toBe(1);
          expect(year.height, `year ${year.text}`).toBeLessThan(year.twoLines);
        }
        const rows = await page.evaluate<number[]>(ROW_HEIGHTS);
        const titleWidth = (await box(page, 'thead th.col-title')).width;
        const px = (value: number) => value.toFixed(1);
        console.log(
          `[layout] 1440×900 ${scheme}: ${rows.length} rows, row height ` +
            `${px(Math.min(...rows))}–${px(Math.max(...rows))} px ` +
            `(a line of text and padding: ${px(years[0]!.oneLine)} px), title column ${px(titleWidth)} px, ` +
            `panes ${px(workspaces.width)} | ${px(items.width)} | ${px(itemPane.width)} px`,
        );
        await noSidewaysScroll(`1440 ${scheme}`);
        expect(await seriousA11yViolations(page), `1440 ${scheme}`).toEqual([]);
        await screenshot(page, `library-layout-1440-${scheme}`, false);
      }
      await useScheme('light');
    });

    it('chooses and resizes columns, kept for this user over a reload and not for another', async () => {
      await page.setViewportSize(WIDE);
      await page.goto(`/workspaces/${workspaceId}?size=25`);
      await header('Venue').waitFor();
      expect(await header('Type').count()).toBe(0);

      await page.getByRole('button', { name: 'Columns', exact: true }).click();
      const choices = page.getByRole('group', { name: 'Columns shown' });
      await choices.getByLabel('Venue').uncheck();
      await choices.getByLabel('Type').check();
      await expect.poll(() => header('Venue').count()).toBe(0);
      await header('Type').waitFor();
      expect(await choices.getByLabel('Title').isDisabled()).toBe(true);
      await expect
        .poll(() => table().locator('tbody tr').first().locator('td.col-type').textContent())
        .not.toBeNull();

      // The Year column, wider by keyboard (8 px a press) and by dragging its edge.
      const yearWidth = () =>
        table()
          .locator('thead th.col-year')
          .evaluate((th) => th.getBoundingClientRect().width);
      const handle = page.getByRole('separator', { name: 'Width of Year' });
      const before = Number(await handle.getAttribute('aria-valuenow'));
      const shownBefore = await yearWidth();
      await handle.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => handle.getAttribute('aria-valuenow')).toBe(String(before + 16));
      await expect.poll(yearWidth).toBeCloseTo(shownBefore + 16, 0);
      const edge = (await handle.boundingBox())!;
      await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
      await page.mouse.down();
      await page.mouse.move(edge.x + edge.width / 2 + 40, edge.y + edge.height / 2, { steps: 4 });
      await page.mouse.up();
      await expect.poll(() => handle.getAttribute('aria-valuenow')).toBe(String(before + 56));
      // The year still fits on one line, and the column header is named by its label alone.
      expect(await table().getByRole('columnheader', { name: 'Year' }).count()).toBe(1);

      await page.reload();
      await header('Type').waitFor();
      expect(await header('Venue').count()).toBe(0);
      expect(
        await page.getByRole('separator', { name: 'Width of Year' }).getAttribute('aria-valuenow'),
      ).toBe(String(before + 56));
      expect(await seriousA11yViolations(page), 'columns chosen').toEqual([]);

      // Another user on this browser sees the defaults, not this one's choice.
      const other = await newContext(browser, server.base);
      try {
        await signUpThroughApi(other, server.base, newCredentials('layout-other'));
        const theirs = (await (
          await other.request.post('/api/workspaces', {
            headers: origin(),
            data: { title: 'Mine' },
          })
        ).json()) as ApiSchema<'Workspace'>;
        await other.request.post(`/api/workspaces/${theirs.id}/resources`, {
          headers: origin(),
          data: seed(1),
        });
        const otherPage = await other.newPage();
        await otherPage.setViewportSize(WIDE);
        // The same browser storage as the first user's page: the choice is keyed by the user.
        await otherPage.goto(`/workspaces/${theirs.id}`);
        await otherPage
          .getByRole('table')
          .getByRole('columnheader', { name: 'Venue', exact: true })
          .waitFor();
        expect(
          await otherPage
            .getByRole('table')
            .getByRole('columnheader', { name: 'Type', exact: true })
            .count(),
        ).toBe(0);
      } finally {
        await other.close();
      }

      // Reset: the defaults again.
      await page.getByRole('button', { name: 'Columns', exact: true }).click();
      await page.getByRole('button', { name: 'Reset columns' }).click();
      await header('Venue').waitFor();
      expect(await header('Type').count()).toBe(0);
      expect(
        await page.getByRole('separator', { name: 'Width of Year' }).getAttribute('aria-valuenow'),
      ).toBe(String(before));
    });

    it('keeps the 360 px layout: no sideways scroll, the same content reachable, light and dark', async () => {
      await page.setViewportSize(PHONE);
      await page.goto(`/workspaces/${workspaceId}?size=25`);
      await expect.poll(() => table().locator('tbody tr').count()).toBe(25);
      for (const scheme of SCHEMES) {
        await useScheme(scheme);
        await noSidewaysScroll(`360 ${scheme}`);
        // The titles, first author and year in the table; the workspaces through the link above it;
        // the open resource's item pane below the list; the filters behind their button.
        for (const name of ['Title', 'First author', 'Year'])
          expect(await header(name).isVisible(), name).toBe(true);
        expect(await page.getByRole('link', { name: '← All workspaces' }).isVisible()).toBe(true);
        const list = await box(page, '.library-list');
        const itemPane = await box(page, '.library-detail');
        expect(itemPane.top).toBeGreaterThan(list.top);
        await page.getByRole('button', { name: /^Filters/ }).click();
        await page.getByLabel('From year').waitFor();
        await noSidewaysScroll(`360 ${scheme} filters open`);
        expect(await seriousA11yViolations(page), `360 ${scheme}`).toEqual([]);
        await page.getByRole('button', { name: /^Filters/ }).click();
        await screenshot(page, `library-layout-360-${scheme}`, false);
      }
      await useScheme('light');
      await page.setViewportSize(WIDE);
    });

    it('shows at least five search results in the first screen at 1440 × 900, light and dark; 360 px still works', async () => {
      await page.setViewportSize(WIDE);
      await page.goto(`/dashboard?q=${encodeURIComponent(QUERY)}`);
      const cards = page.getByRole('region', { name: 'Results' }).getByRole('article');
      await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(8);
      await page
        .getByRole('region', { name: 'Results' })
        .and(page.locator('[aria-busy="false"]'))
        .waitFor();
      for (const scheme of SCHEMES) {
        await useScheme(scheme);
        const boxes = await cards.evaluateAll((articles) =>
          articles.map((article) => {
            const rect = article.getBoundingClientRect();
            return { top: rect.top, height: rect.height };
          }),
        );
        const inFirstScreen = boxes.filter((each) => each.top < WIDE.height).length;
        const heights = boxes.map((each) => each.height);
        console.log(
          `[layout] search 1440×900 ${scheme}: ${inFirstScreen} result cards begin in the first screen; ` +
            `card heights ${Math.min(...heights).toFixed(0)}–${Math.max(...heights).toFixed(0)} px, ` +
            `first card at ${boxes[0]!.top.toFixed(0)} px`,
        );
        expect(inFirstScreen).toBeGreaterThanOrEqual(5);
        await noSidewaysScroll(`search 1440 ${scheme}`);
        expect(await seriousA11yViolations(page), `search 1440 ${scheme}`).toEqual([]);
        await screenshot(page, `search-compact-1440-${scheme}`, false);
      }

      // The abstract and the related works open on demand, under the card's own lines.
      const first = cards.first();
      await first.getByRole('button', { name: 'Show abstract' }).click();
      await first.getByRole('button', { name: 'Related works' }).click();
      await first.getByRole('button', { name: 'References' }).waitFor();
      expect(await seriousA11yViolations(page), 'search card opened').toEqual([]);

      await page.setViewportSize(PHONE);
      for (const scheme of SCHEMES) {
        await useScheme(scheme);
        await noSidewaysScroll(`search 360 ${scheme}`);
        for (const name of ['Summarize', 'Save', 'Related works'])
          expect(await cards.nth(1).getByRole('button', { name }).isVisible(), name).toBe(true);
        expect(await seriousA11yViolations(page), `search 360 ${scheme}`).toEqual([]);
      }
      await useScheme('light');
      await page.setViewportSize(WIDE);
    });
  },
);
