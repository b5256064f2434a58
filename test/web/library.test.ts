/**
 * The library view in Chromium against the real service: a workspace's resources as a table the server
 * sorts, filters and pages, kept in the address (reload and Back); the detail panel (focus moves to it);
 * several chosen to tag, move and remove (after a confirmation); axe on what the user sees, and no
 * sideways scrolling at 390 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditPage,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  VIEWPORTS,
  type WebServer,
} from '../support/web-browser.js';
import {
  addResourcesThroughApi,
  createWorkspaceThroughApi,
  openJourney,
  type Journey,
} from '../support/web-journey.js';

interface Seed {
  title: string;
  authors: string[];
  year: number;
  tags: string[];
}

/** Twelve resources: one page of 10 and a second of 2; three tagged `nlp`. */
const SEEDS: Seed[] = Array.from({ length: 12 }, (_, i) => ({
  title: `${String.fromCharCode(76 - i)}-paper number ${i + 1}`,
  authors: [`Author${String.fromCharCode(65 + ((i * 5) % 12))} Family${i}`],
  year: 2000 + ((i * 7) % 12),
  tags: i % 4 === 0 ? ['nlp'] : [],
}));

describe.skipIf(webSkipReason)(
  'the library view (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Journey;
    let server: WebServer;
    let context: BrowserContext;
    let page: Page;
    let library: string;
    let elsewhere: string;

    beforeAll(async () => {
      journey = await openJourney({ prefix: 'library' });
      ({ server, context, page } = journey);
      library = await createWorkspaceThroughApi(context, server.base, { title: 'Library' });
      elsewhere = await createWorkspaceThroughApi(context, server.base, { title: 'Elsewhere' });
      // One at a time, so that `added` follows SEEDS.
      await addResourcesThroughApi(
        context,
        server.base,
        library,
        SEEDS.map((seed) => ({
          title: seed.title,
          authors: seed.authors,
          tags: seed.tags,
          data: {
            publishedDate: `${seed.year}-01-01`,
            abstract: `The abstract of ${seed.title}.`,
          },
        })),
      );
    }, 240_000);
    afterAll(async () => journey?.close());

    const table = () => page.getByRole('table');
    const titles = () => table().locator('tbody .col-title a').allTextContents(); // the link: the cell holds the citation key too
    const ariaSortOf = (name: string) =>
      table().getByRole('columnheader', { name }).getAttribute('aria-sort');
    const stored = async (workspaceId: string) =>
      (await (
        await context.request.get(`/api/workspaces/${workspaceId}/resources?limit=100&sort=title`)
      ).json()) as Array<{ id: string; title: string; tags: string[] }>;

    it('sorts, filters and pages through the server, and keeps all of it in the address', async () => {
      await page.goto(`/workspaces/${library}?size=10`);
      await table().waitFor();
      // Newest first by default: the last seeds first.
      await expect.poll(titles).toEqual(
        SEEDS.slice(2)
          .map((seed) => seed.title)
          .reverse(),
      );
      await expect.poll(() => ariaSortOf('Added')).toBe('descending');
      await expect.poll(() => ariaSortOf('Title')).toBeNull();
      expect(await page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain(
        'Page 1 of 2 · 12 resources',
      );

      await table().getByRole('button', { name: 'Title' }).click();
      const byTitle = SEEDS.map((seed) => seed.title).sort((a, b) => a.localeCompare(b));
      await expect.poll(titles).toEqual(byTitle.slice(0, 10));
      await expect.poll(() => ariaSortOf('Title')).toBe('ascending');
      await expect.poll(() => ariaSortOf('Added')).toBeNull();
      await table().getByRole('button', { name: 'Title' }).click();
      await expect.poll(titles).toEqual([...byTitle].reverse().slice(0, 10));
      await expect.poll(() => ariaSortOf('Title')).toBe('descending');

      await page.getByRole('button', { name: 'Next page' }).click();
      await expect.poll(titles).toEqual([...byTitle].reverse().slice(10));
      expect(new URL(page.url()).searchParams.get('page')).toBe('2');
      await page.reload();
      await expect.poll(titles).toEqual([...byTitle].reverse().slice(10));
      await expect.poll(() => ariaSortOf('Title')).toBe('descending');

      await page.getByRole('button', { name: /^Filters/ }).click();
      await page.getByLabel('Tag', { exact: true }).fill('nlp');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const tagged = SEEDS.filter((seed) => seed.tags.includes('nlp'))
        .map((seed) => seed.title)
        .sort((a, b) => b.localeCompare(a));
      await expect.poll(titles).toEqual(tagged);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
        sort: 'title',
        order: 'desc',
        tag: 'nlp',
        size: '10',
      });

      await page.getByRole('button', { name: /^Filters/ }).click();
      await page.getByLabel('From year').fill('2005');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect.poll(titles).toEqual(
        SEEDS.filter((seed) => seed.tags.includes('nlp') && seed.year >= 2005)
          .map((seed) => seed.title)
          .sort((a, b) => b.localeCompare(a)),
      );

      // Back: the tag filter alone again, in the list and in the form.
      await page.goBack();
      await expect.poll(titles).toEqual(tagged);
      expect(await page.getByLabel('From year').inputValue()).toBe('');
      expect(await page.getByLabel('Tag', { exact: true }).inputValue()).toBe('nlp');

      await page.getByRole('button', { name: /^Filters/ }).click();
      await page.getByLabel('Title or author').fill('no such paper');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No resources match these filters').waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).first().click();
      await expect.poll(titles).toEqual([...byTitle].reverse().slice(0, 10));
    });

    it('opens a resource in the panel (focus moves there), from the address too', async () => {
      await page.goto(`/workspaces/${library}?sort=title`);
      const first = SEEDS.map((seed) => seed.title).sort((a, b) => a.localeCompare(b));
      await expect.poll(titles).toEqual(first.slice(0, 12));
      // The first row's resource shows before any choice.
      await page.getByRole('region', { name: `Details: ${first[0]}` }).waitFor();
      const chosen = first[3]!;
      await table().getByRole('link', { name: chosen }).click();
      const panel = page.getByRole('region', { name: `Details: ${chosen}` });
      await panel.getByText(`The abstract of ${chosen}.`).waitFor();
      await expect
        .poll(() =>
          page.evaluate<string | null>(
            'document.activeElement?.getAttribute("aria-label") ?? null',
          ),
        )
        .toBe(`Details: ${chosen}`);
      expect(await table().getByRole('link', { name: chosen }).getAttribute('aria-current')).toBe(
        'true',
      );
      const id = new URL(page.url()).searchParams.get('resource');
      expect((await stored(library)).find((resource) => resource.title === chosen)?.id).toBe(id);

      await page.reload();
      await page
        .getByRole('region', { name: `Details: ${chosen}` })
        .getByText(`The abstract of ${chosen}.`)
        .waitFor();
      // Escape on the panel, or its button, goes back to the row.
      await page
        .getByRole('region', { name: `Details: ${chosen}` })
        .getByRole('button', { name: 'Back to the list' })
        .click();
      await expect
        .poll(() => page.evaluate<string | null>('document.activeElement?.textContent ?? null'))
        .toBe(chosen);

      expect(await auditPage(page, 'library')).toEqual({});
      // 390 px: nothing scrolls sideways.
      await page.setViewportSize(VIEWPORTS.mobile);
      await page.getByRole('region', { name: `Details: ${chosen}` }).waitFor();
      expect(
        await page.evaluate<boolean>(
          'document.documentElement.scrollWidth <= document.documentElement.clientWidth',
        ),
      ).toBe(true);
      await page.setViewportSize(VIEWPORTS.desktop);
    });

    it('tags, moves and removes several chosen resources together; removal asks first', async () => {
      await page.goto(`/workspaces/${library}?sort=title`);
      const ordered = SEEDS.map((seed) => seed.title).sort((a, b) => a.localeCompare(b));
      await expect.poll(titles).toEqual(ordered);
      const choose = async (...names: string[]) => {
        for (const name of names)
          await table()
            .getByRole('checkbox', { name: `Select ${name}` })
            .check();
      };
      const [a, b, c] = ordered as [string, string, string];

      await choose(a, b);
      await page.getByText('2 selected').waitFor();
      await page.getByRole('button', { name: 'Tag selected…' }).click();
      const tagDialog = page.getByRole('dialog', { name: 'Tag 2 resources' });
      await tagDialog.getByLabel('Tags to add').fill('to-read, review');
      await tagDialog.getByRole('button', { name: 'Apply tags' }).click();
      await tagDialog.waitFor({ state: 'detached' });
      await expect
        .poll(async () =>
          (await stored(library)).filter((r) => r.tags.includes('to-read')).map((r) => r.title),
        )
        .toEqual([a, b]);
      await expect
        .poll(() =>
          table()
            .getByRole('row', { name: new RegExp(a) })
            .getByRole('list', { name: 'Tags' })
            .textContent(),
        )
        .toContain('to-read');
      await page.getByText('None selected').waitFor();

      await choose(c);
      await page.getByRole('button', { name: 'Move selected…', exact: true }).click();
      const moveDialog = page.getByRole('dialog', { name: 'Move 1 resource' });
      await moveDialog.getByLabel('To workspace').selectOption({ label: 'Elsewhere (0)' });
      await moveDialog.getByRole('button', { name: 'Move', exact: true }).click();
      await moveDialog.waitFor({ state: 'detached' });
      await expect.poll(titles).toEqual(ordered.filter((title) => title !== c));
      expect((await stored(elsewhere)).map((r) => r.title)).toEqual([c]);

      // Select all on the page, then cancel: nothing goes; confirm: all go.
      await table().getByRole('checkbox', { name: 'Select all on this page' }).check();
      await page.getByText('11 selected').waitFor();
      await page.getByRole('button', { name: 'Remove selected…' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Remove 11 resources?' });
      expect(await auditPage(page, 'library-remove-confirm')).toEqual({});
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect(await stored(library)).toHaveLength(11);
      await page.getByRole('button', { name: 'Remove selected…' }).click();
      await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
      await page.getByText('Nothing saved here yet').waitFor();
      expect(await stored(library)).toHaveLength(0);
    });
  },
);
