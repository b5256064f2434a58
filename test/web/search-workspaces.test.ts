/**
 * Journeys of the search and workspaces pages in Chromium, against the real service with the search
 * providers answered from recorded fixtures (PubMed made to fail, YouTube without a key: disabled):
 * search → provider chips → Summarize (quick, streamed) → Save (twice: already there) → workspace →
 * Share → Copy link → the share page; annotations with a highlight; a saved resource's notes and tags
 * edited (a field error, then saved and reloaded); the three exports (and one failing: its message, no
 * file); the same journey by keyboard alone; the URL restoring the results; a streamed `error` event
 * and a 429. The dashboard with results, a workspace and the workspace list pass axe (no
 * serious/critical findings) in light and dark and are photographed at both sizes; the summary
 * dialog, annotations, the notes form and the failed export pass it in light at 1280×800.
 */
import { text as streamText } from 'node:stream/consumers';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import type { FixtureRoute } from '../support/fixture-server.js';
import {
  auditCombinations,
  launchChromium,
  newContext,
  newCredentials,
  presetTheme,
  screenshot,
  seriousA11yViolations,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  VIEWPORTS,
  type ViewportName,
  type WebServer,
} from '../support/web-browser.js';
import { copied, recordClipboard } from '../support/web-journey.js';

const QUERY = 'Augmenting large language models with chemistry tools';
const ROUTES: FixtureRoute[] = [
  { path: '/arxiv/query', fixture: 'arxiv/empty_idlist_0000.0000_totalResults0.xml' },
  { path: '/pubmed/esearch.fcgi', status: 500, body: 'upstream failure' },
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

// Run in the page (the service's tsconfig has no DOM types, so these are given as source text).
const THEME_IN_USE = 'document.documentElement.dataset.theme';
const SELECT_ABSTRACT_5_TO_30 = `(() => {
  const text = document.querySelector('[data-testid="abstract"]').firstChild.firstChild;
  const range = document.createRange();
  range.setStart(text, 5);
  range.setEnd(text, 30);
  document.getSelection().removeAllRanges();
  document.getSelection().addRange(range);
})()`;
interface FocusedElement {
  role: string | null;
  name: string;
  tag: string;
  /** Matches :focus-visible and draws an outline of at least 2 px. */
  visible: boolean;
}
const FOCUSED_ELEMENT = `(() => {
  const element = document.activeElement;
  if (!element) return null;
  const style = getComputedStyle(element);
  return {
    role: element.getAttribute('role') ?? (element.getAttribute('type') === 'search' ? 'searchbox' : null),
    name: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim(),
    tag: element.tagName.toLowerCase(),
    visible: element.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
  };
})()`;

describe.skipIf(webSkipReason)('web app: search, summary, save and workspaces (Chromium)', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startWebServer({ routes: ROUTES });
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A signed-up user's dashboard (signed up through the API; clipboard allowed, page errors collected). */
  async function signedInPage(
    viewport: ViewportName = 'desktop',
    theme: 'light' | 'dark' = 'light',
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await newContext(browser, server.base, viewport, theme);
    await presetTheme(context, theme);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    await recordClipboard(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpThroughApi(context, server.base, newCredentials('search'));
    await page.goto('/dashboard');
    return { context, page, errors };
  }

  async function search(page: Page, query = QUERY): Promise<void> {
    await page.getByRole('searchbox', { name: 'Search' }).fill(query);
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await page.getByRole('article').first().waitFor();
    await settled(page);
  }

  /** The first page streams: every provider has answered once the results are no longer busy. */
  async function settled(page: Page): Promise<void> {
    await page.locator('section[aria-label="Results"][aria-busy="false"]').waitFor();
  }

  async function expectAccessible(page: Page): Promise<void> {
    expect(await seriousA11yViolations(page)).toEqual([]);
  }

  it('search → chips → Summarize (streamed) → Save twice → workspace → Share → Copy link → share page', async () => {
    const { context, page, errors } = await signedInPage();
    try {
      await search(page);
      const url = new URL(page.url());
      expect(url.pathname).toBe('/dashboard');
      expect(url.searchParams.get('q')).toBe(QUERY);

      // Each provider's chip says how it did: the failing one says so, the keyless one is disabled.
      const chips = page.getByRole('toolbar', { name: 'Sources' });
      // The first page streams: each chip says so as its provider answers.
      await expect
        .poll(() => chips.getByRole('button', { name: /PubMed/ }).textContent())
        .toContain('failed');
      expect(await chips.getByRole('button', { name: /YouTube/ }).textContent()).toContain(
        'disabled',
      );
      await expect
        .poll(() => chips.getByRole('button', { name: /Crossref/ }).textContent())
        .toMatch(/\d+ results?/);
      await expect
        .poll(() => chips.getByRole('button', { name: /arXiv/ }).textContent())
        .toContain('0 results');

      const first = page.getByRole('article').first();
      const title = (await first.getByRole('heading').textContent())!.trim();
      expect(title.length).toBeGreaterThan(10);
      expect(await first.getByRole('heading').getByRole('link').getAttribute('href')).toMatch(
        /^https?:\/\//,
      );
      await expectAccessible(page);
      await screenshot(page, 'search-results-desktop-light');

      // Summarize: the dialog streams the quick summary.
      await first.getByRole('button', { name: 'Summarize' }).click();
      const dialog = page.getByRole('dialog', { name: 'Summary' });
      await dialog.waitFor();
      await expect
        .poll(() => dialog.locator('.summary-tldr').textContent(), { timeout: 15_000 })
        .toMatch(/\w{3,}/);
      await expect
        .poll(() => dialog.getByRole('list', { name: 'Tags' }).getByRole('listitem').count())
        .toBeGreaterThan(0);
      expect(await dialog.getByRole('radio', { name: /Quick/ }).isChecked()).toBe(true);
      await expectAccessible(page);
      await screenshot(page, 'summary-dialog-desktop-light');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The second identical summary comes from the cache.
      await first.getByRole('button', { name: 'Summarize' }).click();
      await expect
        .poll(() => dialog.textContent(), { timeout: 15_000 })
        .toContain('From the in-memory cache');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // Save into a workspace created on the spot, then again: already there.
      await first.getByRole('button', { name: 'Save' }).click();
      const save = page.getByRole('dialog', { name: 'Save to a workspace' });
      await save.getByLabel('Workspace', { exact: true }).selectOption({ label: 'New workspace…' });
      await save.getByLabel('New workspace name').fill('Chemistry agents');
      await save.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() => save.getByRole('status').textContent())
        .toContain('Saved to Chemistry agents');
      await save.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => save.textContent()).toContain('already in');
      await save.getByRole('link', { name: 'Chemistry agents' }).click();
      await page.waitForURL(/\/workspaces\/[0-9a-f-]{36}$/);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Chemistry agents');
      // The library list loads after the workspace: its first resource opens in the panel.
      await page.getByRole('article').getByRole('heading', { name: title }).waitFor();
      expect(await page.getByRole('article').getByRole('heading', { name: title }).count()).toBe(1);

      // Share with a 30-day expiry, copy the link, open the public page.
      await page.getByLabel('Expires in').selectOption('30');
      await page.getByRole('button', { name: 'Share' }).click();
      const links = page.getByRole('list', { name: 'Share links' });
      await links.getByRole('listitem').first().waitFor();
      const expiry = await links.locator('time').first().getAttribute('datetime');
      const days = (Date.parse(expiry!) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29);
      expect(days).toBeLessThan(31);
      await links.getByRole('button', { name: 'Copy link' }).click();
      await expect.poll(() => links.getByRole('status').first().textContent()).toContain('Copied');
      const link = (await copied(page)).text;
      expect(link).toMatch(new RegExp(`^${server.base.replace(/[.]/g, '\\.')}/share/`));
      await expectAccessible(page);
      await screenshot(page, 'workspace-desktop-light');

      const shared = await context.newPage();
      const reply = await shared.goto(link);
      expect(reply?.status()).toBe(200);
      expect(await shared.textContent('body')).toContain(title);
      await shared.close();

      // Revoke: the link stops working.
      await links.getByRole('button', { name: 'Revoke' }).click();
      await expect.poll(() => links.getByRole('listitem').count()).toBe(0);
      const revoked = await context.request.get(link);
      expect(revoked.status()).toBe(404);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('annotations (add, highlight from the abstract, edit, delete), notes and tags (edit, reload), and the three exports', async () => {
    const { context, page, errors } = await signedInPage();
    try {
      await search(page);
      const first = page.getByRole('article').first();
      const title = (await first.getByRole('heading').textContent())!.trim();
      await first.getByRole('button', { name: 'Save' }).click();
      const save = page.getByRole('dialog', { name: 'Save to a workspace' });
      await save.getByLabel('New workspace name').fill('Reading list');
      await save.getByRole('button', { name: 'Save' }).click();
      await save.getByRole('link', { name: 'Reading list' }).click();
      await page.waitForURL(/\/workspaces\/[0-9a-f-]{36}$/);
      const workspaceId = new URL(page.url()).pathname.split('/').pop()!;

      const resource = page.getByRole('article', { name: title });
      await resource.getByLabel('Annotation', { exact: true }).fill('Read the tool list again');
      await resource.getByRole('button', { name: 'Add annotation' }).click();
      await expect
        .poll(() => resource.locator('.annotation-body').allTextContents())
        .toEqual(['Read the tool list again']);

      // A highlight: select the 5th–30th characters of the abstract, as a mouse drag would.
      const abstract = resource.getByTestId('abstract');
      const abstractText = (await abstract.textContent())!;
      expect(abstractText.length).toBeGreaterThan(40);
      await page.evaluate(SELECT_ABSTRACT_5_TO_30);
      await resource.getByRole('button', { name: 'Highlight selection' }).click();
      await expect
        .poll(() => resource.locator('mark').first().textContent())
        .toBe(abstractText.slice(5, 30));

      const stored = await page.evaluate(
        async (id) =>
          (await (
            await fetch(`/api/workspaces/${id}`)
          ).json()) as ApiSchema<'WorkspaceWithResources'>,
        workspaceId,
      );
      const highlight = stored.resources[0]!.annotations.find(
        (annotation) => annotation.highlights.ranges,
      );
      expect(highlight?.highlights.ranges).toEqual([
        { start: 5, end: 30, text: abstractText.slice(5, 30) },
      ]);
      await expectAccessible(page);
      await screenshot(page, 'workspace-annotations-desktop-light');

      // Edit the first annotation, delete the highlight.
      const firstNote = resource
        .getByRole('listitem')
        .filter({ hasText: 'Read the tool list again' });
      await firstNote.getByRole('button', { name: 'Edit' }).click();
      // The item's text changes as it is edited: find the one form open.
      await resource
        .getByLabel('Edit annotation', { exact: true })
        .fill('Read the tool list twice');
      await resource.getByRole('button', { name: 'Save annotation' }).click();
      await expect
        .poll(() => resource.locator('.annotation-body').allTextContents())
        .toContain('Read the tool list twice');
      const highlighted = resource
        .getByRole('listitem')
        .filter({ has: page.locator('blockquote') });
      await highlighted.getByRole('button', { name: 'Delete annotation' }).click();
      await expect.poll(() => resource.locator('.annotation').count()).toBe(1);
      expect(await resource.locator('mark').count()).toBe(0);

      // Notes and tags: a tag too long is refused at the Tags field; once fixed, both are saved (HTML
      // stripped, tags de-duplicated) and are still there after a reload.
      await resource.getByRole('button', { name: 'Edit notes', exact: true }).click();
      const notesForm = resource.getByRole('form', { name: 'Notes and tags of' });
      await notesForm
        .getByLabel('Notes', { exact: true })
        .fill('Compare with <b>ChemCrow</b>.\nThen the benchmarks.');
      await notesForm.getByLabel('Tags', { exact: true }).fill(`agents, ${'x'.repeat(51)}`);
      await notesForm.getByRole('button', { name: 'Save', exact: true }).click();
      await expect
        .poll(() => notesForm.getByLabel('Tags', { exact: true }).getAttribute('aria-invalid'))
        .toBe('true');
      expect(await notesForm.locator('.field-error').textContent()).toBe(
        'Tag 2: must be at most 50 characters',
      );
      expect(
        await notesForm.getByLabel('Notes', { exact: true }).getAttribute('aria-invalid'),
      ).toBeNull();
      await expectAccessible(page);
      await screenshot(page, 'workspace-notes-edit-desktop-light');
      await notesForm.getByLabel('Tags', { exact: true }).fill('agents, chemistry, Agents');
      await notesForm.getByRole('button', { name: 'Save', exact: true }).click();
      await notesForm.waitFor({ state: 'detached' });
      const savedNotes = async (): Promise<{ tags: string[]; notes: string | null }> => ({
        tags: await resource
          .getByRole('list', { name: 'Tags' })
          .getByRole('listitem')
          .allTextContents(),
        // As read: the notes are Markdown, their line break a break.
        notes: await resource.locator('.resource-notes .markdown').innerText(),
      });
      const expected = {
        tags: ['agents', 'chemistry'],
        notes: 'Compare with ChemCrow.\nThen the benchmarks.',
      };
      expect(await savedNotes()).toEqual(expected);
      // Focus is back on the button that opened the form.
      expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe(
        'Edit notes',
      );
      await page.reload();
      await resource.getByRole('button', { name: 'Edit notes', exact: true }).waitFor();
      expect(await savedNotes()).toEqual(expected);
      // Cancel leaves them as they are.
      await resource.getByRole('button', { name: 'Edit notes', exact: true }).click();
      await notesForm.getByLabel('Notes', { exact: true }).fill('not kept');
      await notesForm.getByRole('button', { name: 'Cancel', exact: true }).click();
      await notesForm.waitFor({ state: 'detached' });
      expect(await savedNotes()).toEqual(expected);

      // Exports are fetched by the app and arrive as downloads named by the server, whose content
      // parses as their format.
      const downloaded = async (name: string): Promise<{ file: string; text: string }> => {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name, exact: true }).click(),
        ]);
        // The run's Chromium is a browser server: its download is read as a stream, not from its path.
        return {
          file: download.suggestedFilename(),
          text: await streamText(await download.createReadStream()),
        };
      };
      const bibtex = await downloaded('BibTeX');
      expect(bibtex.file).toBe('Reading list.bib');
      expect(bibtex.text).toMatch(/^@\w+\{/m);
      const ris = await downloaded('RIS');
      expect(ris.file).toBe('Reading list.ris');
      expect(ris.text).toMatch(/^TY {2}- /m);
      expect(ris.text).toMatch(/^ER {2}-/m);
      const csl = await downloaded('CSL-JSON');
      expect(csl.file).toBe('Reading list.json');
      const items = JSON.parse(csl.text) as Array<{ title?: string }>;
      expect(items).toHaveLength(1);
      expect(items[0]!.title).toBe(title);
      expect(
        await page.getByRole('button', { name: 'CSL-JSON', exact: true }).getAttribute('aria-busy'),
      ).toBe('false');

      // Remove the resource; delete the workspace after confirming.
      await resource.getByRole('button', { name: 'Remove from workspace' }).click();
      await expect.poll(() => page.getByRole('article').count()).toBe(0);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete Reading list?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL('**/workspaces');
      expect(
        (await context.request.get(`${server.base}/api/workspaces/${workspaceId}`)).status(),
      ).toBe(404);

      // An export that fails (its workspace deleted by another request while the page is open) shows
      // the API's message, and nothing is downloaded: the error body is not saved as the file. The page's
      // live stream is cut here (as a proxy might): with it, the page would leave on the deletion instead
      // (test/web/live-updates.test.ts), and no one could press Export.
      await page.route('**/api/workspaces/*/events*', (route) => route.abort());
      const created = await context.request.post(`${server.base}/api/workspaces`, {
        headers: { origin: server.base },
        data: { name: 'Short-lived' },
      });
      expect(created.status()).toBe(201);
      const doomed = ((await created.json()) as ApiSchema<'Workspace'>).id;
      await page.goto(`/workspaces/${doomed}`);
      await page.getByRole('heading', { level: 1, name: 'Short-lived' }).waitFor();
      expect(
        (
          await context.request.delete(`${server.base}/api/workspaces/${doomed}`, {
            headers: { origin: server.base },
          })
        ).ok(),
      ).toBe(true);
      const gone = await context.request.get(
        `${server.base}/api/workspaces/${doomed}/export?format=ris`,
      );
      expect(gone.status()).toBe(404);
      const message = ((await gone.json()) as ApiSchema<'Error'>).error.message;
      const downloads: string[] = [];
      page.on('download', (download) => downloads.push(download.suggestedFilename()));
      await page.getByRole('button', { name: 'RIS', exact: true }).click();
      const failed = page.getByRole('alert').filter({ hasText: 'The export could not be made' });
      await expect
        .poll(() => failed.textContent())
        .toBe(`The export could not be made: ${message}`);
      expect(
        await page.getByRole('button', { name: 'RIS', exact: true }).getAttribute('aria-busy'),
      ).toBe('false');
      expect(downloads).toEqual([]);
      await expectAccessible(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the search → summarize → save → share journey by keyboard alone, with visible focus', async () => {
    const { context, page, errors } = await signedInPage();
    try {
      /** Presses Tab until the focused element matches, checking that focus is visibly outlined. */
      const tabTo = async (
        matches: (element: { role: string | null; name: string; tag: string }) => boolean,
        limit = 60,
      ): Promise<void> => {
        for (let presses = 0; presses < limit; presses += 1) {
          await page.keyboard.press('Tab');
          const focused = await page.evaluate<FocusedElement | null>(FOCUSED_ELEMENT);
          if (focused && matches(focused)) {
            expect(focused.visible, `focus on ${focused.tag} "${focused.name}" is outlined`).toBe(
              true,
            );
            return;
          }
        }
        throw new Error('the control was not reached by Tab');
      };

      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
      await tabTo((element) => element.role === 'searchbox');
      await page.keyboard.type(QUERY);
      await page.keyboard.press('Enter');
      await page.getByRole('article').first().waitFor();
      await settled(page);

      await tabTo((element) => element.tag === 'button' && element.name === 'Summarize');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Summary' });
      await expect.poll(() => dialog.locator('.summary-tldr').count(), { timeout: 15_000 }).toBe(1);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      await tabTo((element) => element.tag === 'button' && element.name === 'Save');
      await page.keyboard.press(' ');
      const save = page.getByRole('dialog', { name: 'Save to a workspace' });
      await save.waitFor();
      await tabTo((element) => element.tag === 'input');
      await page.keyboard.type('Keyboard workspace');
      await tabTo((element) => element.tag === 'button' && element.name === 'Save');
      await page.keyboard.press('Enter');
      await save.getByRole('link', { name: 'Keyboard workspace' }).waitFor();
      // Saved: the link to the workspace is next.
      await tabTo((element) => element.tag === 'a' && element.name === 'Keyboard workspace');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/workspaces\/[0-9a-f-]{36}$/);
      await page.getByRole('heading', { level: 1, name: 'Keyboard workspace' }).waitFor();

      // Past the library's three panes (the list's controls, then the item pane's fields).
      await tabTo((element) => element.tag === 'button' && element.name === 'Share', 250);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Copy link' }).waitFor();
      await tabTo((element) => element.tag === 'button' && element.name === 'Copy link');
      await page.keyboard.press('Enter');
      await expect.poll(() => copied(page).then((c) => c.text)).toMatch(/\/share\/[^/]+$/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the URL restores query, sort, sources and page on reload and back/forward', async () => {
    const { context, page, errors } = await signedInPage();
    try {
      await page.goto(
        `/dashboard?q=${encodeURIComponent(QUERY)}&sort=citations&providers=crossref,openalex`,
      );
      await page.getByRole('article').first().waitFor();
      await settled(page);
      expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe(QUERY);
      expect(await page.getByLabel('Sort by').inputValue()).toBe('citations');
      const chips = page.getByRole('toolbar', { name: 'Sources' });
      expect(
        await chips.getByRole('button', { name: /Crossref/ }).getAttribute('aria-pressed'),
      ).toBe('true');
      expect(await chips.getByRole('button', { name: /Zenodo/ }).getAttribute('aria-pressed')).toBe(
        'false',
      );
      const titles = await page.getByRole('article').getByRole('heading').allTextContents();
      // Only the chosen sources answered.
      expect(
        (
          await page.getByRole('article').getByRole('list', { name: 'Sources' }).allTextContents()
        ).every((text) => /Crossref|OpenAlex/.test(text)),
      ).toBe(true);

      await page.reload();
      await page.getByRole('article').first().waitFor();
      await settled(page);
      expect(await page.getByRole('article').getByRole('heading').allTextContents()).toEqual(
        titles,
      );

      // A change of sort is a new history entry; Back restores the previous one.
      await page.getByLabel('Sort by').selectOption('date');
      await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('date');
      await chips.getByRole('button', { name: /Zenodo/ }).click();
      await expect
        .poll(() => new URL(page.url()).searchParams.get('providers'))
        .toBe('crossref,openalex,zenodo');
      await page.goBack();
      await page.goBack();
      await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('citations');
      expect(await page.getByLabel('Sort by').inputValue()).toBe('citations');
      await expect
        .poll(() => page.getByRole('article').getByRole('heading').allTextContents())
        .toEqual(titles);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('closing the dialog drops the stream; a streamed error closes it and shows an alert; a 429 says when to try again', async () => {
    const { context, page } = await signedInPage();
    try {
      await search(page);
      // Closing the dialog ends the stream: the browser drops the request (the server sees the
      // connection close and stops the work). The stream is held open so that only closing can end it.
      let held = false;
      const hold = (): void => {
        held = true;
      };
      await page.route('**/api/summarize?**', hold);
      await page.getByRole('article').first().getByRole('button', { name: 'Summarize' }).click();
      await expect.poll(() => held).toBe(true);
      const dropped = page.waitForEvent('requestfailed', {
        predicate: (request) => request.url().includes('/api/summarize?'),
        timeout: 10_000,
      });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Summary' }).waitFor({ state: 'detached' });
      expect((await dropped).url()).toContain('mode=quick');
      await page.unroute('**/api/summarize?**', hold);

      await page.route('**/api/summarize?**', (route) =>
        route.fulfill({
          status: 200,
          headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
          body:
            'retry: 3600000\n\nid: 1\nevent: meta\ndata: ' +
            '{"fromCache":false,"modeRequested":"deep"}\n\nid: end\nevent: ' +
            'error\ndata: {"message":"No PDF could be found for this ' +
            'record.","code":"NO_PDF"}\n\n',
        }),
      );
      await page.getByRole('article').first().getByRole('button', { name: 'Summarize' }).click();
      await expect
        .poll(() =>
          page
            .getByRole('alert')
            .filter({ hasText: 'No PDF could be found for this record.' })
            .count(),
        )
        .toBe(1);
      expect(await page.getByRole('dialog', { name: 'Summary' }).count()).toBe(0);

      // The first page streams: the limit's refusal is the stream's `error` event, with the seconds to wait.
      await page.route('**/api/search/stream?**', (route) =>
        route.fulfill({
          status: 200,
          headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
          body: 'retry: 3600000\n\nid: end\nevent: error\ndata: {"message":"Too many searches.","code":"RATE_LIMITED","retryAfter":42}\n\n',
        }),
      );
      await page.getByRole('searchbox', { name: 'Search' }).fill('another query');
      await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
      await expect
        .poll(() => page.getByRole('alert').filter({ hasText: 'Too many searches.' }).textContent())
        .toContain('Try again in 42 seconds');
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('pages pass axe in light and dark and are photographed at 390×844 and 1280×800', async () => {
    // One account, its session carried into a fresh context per combination (auditCombinations: one
    // for this journey's pages, all four with WEB_AUDIT=all).
    const first = await newContext(browser, server.base);
    await signUpThroughApi(first, server.base, newCredentials('search'));
    const session = await first.storageState();
    await first.close();
    for (const [viewport, theme] of auditCombinations('search-save-workspace')) {
      const context = await browser.newContext({
        baseURL: server.base,
        viewport: VIEWPORTS[viewport],
        colorScheme: theme,
        reducedMotion: 'reduce',
        storageState: session,
      });
      await presetTheme(context, theme);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        const suffix = `${viewport}-${theme}`;
        await page.goto(`/dashboard?q=${encodeURIComponent(QUERY)}`);
        await page.getByRole('article').first().waitFor();
        await expect.poll(() => page.evaluate<string>(THEME_IN_USE)).toBe(theme);
        await expectAccessible(page);
        await screenshot(page, `search-${suffix}`);

        await page.getByRole('article').first().getByRole('button', { name: 'Save' }).click();
        const save = page.getByRole('dialog', { name: 'Save to a workspace' });
        await save
          .getByLabel('Workspace', { exact: true })
          .selectOption({ label: 'New workspace…' });
        await save.getByLabel('New workspace name').fill(`Photos ${suffix}`);
        await save.getByRole('button', { name: 'Save' }).click();
        await save.getByRole('link', { name: `Photos ${suffix}` }).waitFor();
        await expectAccessible(page);
        await screenshot(page, `save-dialog-${suffix}`);
        await save.getByRole('link', { name: `Photos ${suffix}` }).click();
        await page.getByRole('heading', { level: 1, name: `Photos ${suffix}` }).waitFor();
        await page.getByRole('button', { name: 'Share' }).click();
        await page.getByRole('button', { name: 'Copy link' }).waitFor();
        await expectAccessible(page);
        await screenshot(page, `workspace-${suffix}`);

        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Workspaces' })
          .click();
        await page.getByRole('link', { name: `Photos ${suffix}` }).waitFor();
        await page.getByRole('button', { name: `Delete Photos ${suffix}` }).click();
        await page.getByRole('alertdialog').waitFor();
        await expectAccessible(page);
        await screenshot(page, `workspace-delete-confirm-${suffix}`);
        await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
        await page.getByRole('button', { name: 'New workspace' }).click();
        await expectAccessible(page);
        await screenshot(page, `workspaces-${suffix}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 480_000);
});
