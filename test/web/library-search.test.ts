/**
 * Library search in Chromium against the real service: a real PDF attached and extracted, a word that
 * only its page 3 holds (found with pdftotext in this test) typed into the search box finds exactly that
 * resource, its snippet saying "PDF, page 3" with the word marked and a link to the viewer at page 3; a
 * word of a note found in the notes; filters and the query kept in the address (reload, Back); a hit
 * opening its resource in its workspace; another user's library never shown; a search result already
 * saved saying "In your library" with its workspace (providers answered from recorded fixtures). axe on the hits, and no sideways scrolling at 390 px.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { isPdftotextAvailable } from '../../src/summaries/pdf/pdftotext-engine.js';
import { everyProviderRoutes } from '../support/fixture-server.js';
import {
  auditPage,
  launchChromium,
  newContext,
  newCredentials,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  VIEWPORTS,
  type WebServer,
} from '../support/web-browser.js';

const PDF_PATH = fileURLToPath(new URL('../fixtures/pdfs/vespa-peerjcs2017.pdf', import.meta.url));
const inCi = process.env.CI === 'true' || process.env.CI === '1';
// Outside CI a machine without poppler skips (as the PDF engine tests do); in CI it is a failure.
const pdftotextSkipReason =
  !inCi && !(await isPdftotextAvailable())
    ? 'pdftotext not on PATH: the library search journey skipped (apt-get install poppler-utils)'
    : null;
if (pdftotextSkipReason) console.warn(pdftotextSkipReason);

/** Any query on the search page: every provider answers from its recorded fixture (test/support/fixture-server.ts). */
const QUERY = 'language models';

/** A word found only in the notes of the second resource (and in the other user's). */
const NOTE_WORD = 'zanderfish';
const RESOURCES = {
  paper: {
    title: 'Selective pressure at scale',
    notes: 'Read the methods first.',
    tags: ['evolution'],
    data: { publishedDate: '2017-06-12' },
  },
  notes: {
    title: 'Field guide to river fish',
    notes: `A ${NOTE_WORD} was seen near the weir.`,
    tags: ['rivers'],
    data: { publishedDate: '2009' },
  },
  other: { title: 'Tidal flats and their birds', notes: '', tags: [], data: {} },
};

const words = (text: string) => text.toLowerCase().match(/[a-z]+/g) ?? [];

/**
 * A word of page 3 that no other page and no resource's title, notes or tags holds. The server stems
 * words and matches the last one typed as a prefix, so no word elsewhere may even share its first six
 * letters; a word broken by a hyphen at a line's end is not taken.
 */
async function wordOnPage3Only(metadata: string): Promise<string> {
  const pdftotext = async (...range: string[]) =>
    (await promisify(execFile)('pdftotext', [...range, '-enc', 'UTF-8', PDF_PATH, '-'])).stdout;
  // pdftotext ends each page with a form feed.
  const pageCount = (await pdftotext()).split('\f').length - 1;
  const pageTexts = await Promise.all(
    Array.from({ length: pageCount }, (_, index) =>
      pdftotext('-f', String(index + 1), '-l', String(index + 1)),
    ),
  );
  const elsewhere = [
    ...pageTexts.filter((_, index) => index !== 2).flatMap(words),
    ...words(metadata),
  ];
  const stems = new Set(elsewhere.map((word) => word.slice(0, 6)));
  const candidates = [...pageTexts[2]!.matchAll(/(?<![\w-])[A-Za-z]{9,}(?![\w-])/g)].map((match) =>
    match[0].toLowerCase(),
  );
  const word = candidates.find((candidate) => !stems.has(candidate.slice(0, 6)));
  if (!word) throw new Error('page 3 holds no word of its own');
  return word;
}

describe.skipIf(webSkipReason ?? pdftotextSkipReason)(
  'library search (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;
    let owner: BrowserContext;
    let stranger: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];
    let reading: string;
    let elsewhere: string;
    const ids: Record<keyof typeof RESOURCES, string> = { paper: '', notes: '', other: '' };
    let pageWord: string;

    const origin = () => ({ origin: server.base });
    async function createWorkspace(context: BrowserContext, title: string): Promise<string> {
      const created = await context.request.post('/api/workspaces', {
        headers: origin(),
        data: { title },
      });
      if (created.status() !== 201) throw new Error(`workspace: ${created.status()}`);
      return ((await created.json()) as ApiSchema<'Workspace'>).id;
    }
    async function addResource(
      context: BrowserContext,
      workspaceId: string,
      body: Record<string, unknown>,
    ): Promise<string> {
      const added = await context.request.post(`/api/workspaces/${workspaceId}/resources`, {
        headers: origin(),
        data: body,
      });
      if (added.status() !== 201)
        throw new Error(`resource: ${added.status()} ${await added.text()}`);
      return ((await added.json()) as ApiSchema<'Resource'>).id;
    }

    beforeAll(async () => {
      server = await startWebServer({ routes: everyProviderRoutes() });
      browser = await launchChromium();
      owner = await newContext(browser, server.base);
      stranger = await newContext(browser, server.base);
      await Promise.all([
        signUpThroughApi(owner, server.base, newCredentials('libsearch')),
        signUpThroughApi(stranger, server.base, newCredentials('libstranger')),
      ]);
      reading = await createWorkspace(owner, 'Reading list');
      elsewhere = await createWorkspace(owner, 'Elsewhere');
      ids.paper = await addResource(owner, reading, RESOURCES.paper);
      ids.notes = await addResource(owner, reading, RESOURCES.notes);
      ids.other = await addResource(owner, elsewhere, RESOURCES.other);

      const upload = await owner.request.put(
        `/api/workspaces/${reading}/resources/${ids.paper}/pdf`,
        {
          headers: origin(),
          multipart: {
            file: {
              name: 'vespa.pdf',
              mimeType: 'application/pdf',
              buffer: readFileSync(PDF_PATH),
            },
          },
        },
      );
      if (upload.status() !== 200)
        throw new Error(`PDF: ${upload.status()} ${await upload.text()}`);
      const pdfOf = async () => {
        const listed = (await (
          await owner.request.get(`/api/workspaces/${reading}/resources`)
        ).json()) as Array<{ id: string; pdf: { extraction: string } | null }>;
        return listed.find((resource) => resource.id === ids.paper)?.pdf;
      };
      const metadata = Object.values(RESOURCES)
        .flatMap((resource) => [resource.title, resource.notes, ...resource.tags])
        .join(' ');
      // Found while the service extracts the same text.
      const found = wordOnPage3Only(metadata);
      await vi.waitFor(
        async () => {
          const extraction = (await pdfOf())?.extraction;
          if (extraction !== 'ready') throw new Error(`the PDF's extraction is ${extraction}`);
        },
        { timeout: 90_000, interval: 250 },
      );
      pageWord = await found;

      // The other user keeps both words in a workspace of their own.
      const theirs = await createWorkspace(stranger, 'Not yours');
      await addResource(stranger, theirs, {
        title: 'Someone else’s paper',
        notes: `${pageWord} and ${NOTE_WORD}`,
      });

      page = await owner.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
    }, 240_000);
    afterAll(async () => {
      await owner?.close();
      await stranger?.close();
      await browser?.close();
      await server?.close();
      expect(pageErrors).toEqual([]);
    });

    const box = () => page.getByRole('searchbox', { name: 'Search your library' });
    const hits = () => page.getByRole('region', { name: 'Hits' }).getByRole('article');
    const hitTitles = () => hits().getByRole('heading').allTextContents();
    const summary = () =>
      page.getByRole('region', { name: 'Hits' }).getByRole('status').textContent();

    it('finds a word only page 3 of a PDF holds as one types: that resource, "PDF, page 3", the word marked, a link to the viewer', async () => {
      await page.goto('/dashboard');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Library' })
        .click();
      await page.waitForURL('**/library');
      // No words yet: the whole library, newest first.
      await expect
        .poll(hitTitles)
        .toEqual([RESOURCES.other.title, RESOURCES.notes.title, RESOURCES.paper.title]);

      const searches: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/library/search'))
          searches.push(new URL(request.url()).searchParams.get('q') ?? '');
      });
      await box().pressSequentially(pageWord);
      await expect.poll(summary).toBe(`1 resource for “${pageWord}”`);
      // Searched as typed, but not once a letter.
      expect(searches.length).toBeLessThan(pageWord.length);
      expect(searches.at(-1)).toBe(pageWord);
      expect(new URL(page.url()).searchParams.get('q')).toBe(pageWord);

      expect(await hitTitles()).toEqual([RESOURCES.paper.title]);
      const hit = hits().first();
      expect(await hit.textContent()).toContain('In Reading list');
      const snippets = hit.getByRole('list', { name: 'Where it was found' }).getByRole('listitem');
      expect(await snippets.count()).toBe(1);
      expect(await snippets.first().textContent()).toMatch(/^PDF, page 3:/);
      const marked = await snippets.first().locator('mark').allTextContents();
      expect(marked.length).toBeGreaterThan(0);
      for (const text of marked) expect(text.toLowerCase()).toBe(pageWord);
      expect(
        await snippets
          .first()
          .getByRole('link', { name: 'Open the PDF at page 3' })
          .getAttribute('href'),
      ).toBe(`/workspaces/${reading}/resources/${ids.paper}/pdf?page=3`);

      expect(await auditPage(page, 'library-search')).toEqual({});
      await page.setViewportSize(VIEWPORTS.mobile);
      await hits().first().waitFor();
      expect(
        await page.evaluate<boolean>(
          'document.documentElement.scrollWidth <= document.documentElement.clientWidth',
        ),
      ).toBe(true);
      await page.setViewportSize(VIEWPORTS.desktop);

      // The hit opens the resource in its workspace; Back returns to the search as it was.
      await hit.getByRole('heading').getByRole('link').click();
      await page.waitForURL(`**/workspaces/${reading}?**`);
      await page.getByRole('region', { name: `Details: ${RESOURCES.paper.title}` }).waitFor();
      await page.goBack();
      await expect.poll(hitTitles).toEqual([RESOURCES.paper.title]);
      expect(await box().inputValue()).toBe(pageWord);
    });

    it('finds a word of a note in the notes, keeps filters in the address, and says when nothing matches', async () => {
      await page.goto(`/library?q=${NOTE_WORD}`);
      await expect.poll(hitTitles).toEqual([RESOURCES.notes.title]);
      const snippet = hits()
        .first()
        .getByRole('list', { name: 'Where it was found' })
        .getByRole('listitem')
        .first();
      expect(await snippet.textContent()).toMatch(/^Notes:/);
      expect(await snippet.locator('mark').allTextContents()).toEqual([NOTE_WORD]);

      // The box emptied: the whole library again (a search of its own, in the history).
      await box().fill('');
      await expect
        .poll(hitTitles)
        .toEqual([RESOURCES.other.title, RESOURCES.notes.title, RESOURCES.paper.title]);
      expect(new URL(page.url()).search).toBe('');
      // A workspace filter, applied with the form (behind `Filters`), kept over a reload and undone by Back.
      await page.getByRole('button', { name: 'Filters', exact: true }).click();
      await page.getByLabel('Workspace').selectOption({ label: 'Elsewhere' });
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect.poll(hitTitles).toEqual([RESOURCES.other.title]);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
        workspace: elsewhere,
      });
      await page.reload();
      await expect.poll(hitTitles).toEqual([RESOURCES.other.title]);
      expect(await page.getByText('Filtered: Workspace: Elsewhere.').count()).toBe(1);
      expect(await page.getByLabel('Workspace').inputValue()).toBe(elsewhere);
      await page.goBack();
      await expect.poll(hitTitles).toHaveLength(3);
      expect(await page.getByLabel('Workspace').inputValue()).toBe('');
      await page.goBack();
      await expect.poll(hitTitles).toEqual([RESOURCES.notes.title]);
      expect(await box().inputValue()).toBe(NOTE_WORD);

      await box().fill('nosuchwordanywhere');
      await page.getByText('Nothing in your library matches').waitFor();
      expect(await hits().count()).toBe(0);
    });

    it('never shows another user’s library: they find only their own resource with the same words', async () => {
      const theirPage = await stranger.newPage();
      try {
        for (const word of [pageWord, NOTE_WORD]) {
          await theirPage.goto(`/library?q=${word}`);
          await theirPage
            .getByRole('region', { name: 'Hits' })
            .getByRole('status')
            .filter({ hasText: '1 resource' })
            .waitFor();
          expect(
            await theirPage
              .getByRole('region', { name: 'Hits' })
              .getByRole('article')
              .getByRole('heading')
              .allTextContents(),
          ).toEqual(['Someone else’s paper']);
        }
      } finally {
        await theirPage.close();
      }
      // And the owner, searching the word both hold, finds only their own.
      await page.goto(`/library?q=${pageWord}`);
      await expect.poll(hitTitles).toEqual([RESOURCES.paper.title]);
    });

    it('says on the search page which result is already in the library, with its workspace, and Save says so; one saved there says so at once', async () => {
      const reply = (await (
        await owner.request.get(`/api/search?q=${encodeURIComponent(QUERY)}&limit=10`)
      ).json()) as ApiSchema<'SearchReply'>;
      expect(reply.results.length).toBeGreaterThan(1);
      const saved = reply.results[0]!;
      await addResource(owner, reading, {
        title: saved.title,
        url: saved.url,
        ...(saved.doi ? { data: { doi: saved.doi } } : {}),
      });

      await page.goto(`/dashboard?q=${encodeURIComponent(QUERY)}`);
      const card = page
        .getByRole('article')
        .filter({ has: page.getByRole('heading', { name: saved.title, exact: true }) });
      await card.waitFor();
      const note = card.getByText(/In your library:/);
      expect(await note.textContent()).toBe('✓ In your library: Reading list');
      expect(await note.getByRole('link', { name: 'Reading list' }).getAttribute('href')).toMatch(
        new RegExp(`^/workspaces/${reading}\\?resource=`),
      );
      const save = card.getByRole('button', { name: 'Already saved · Save again' });
      expect(await save.getAttribute('aria-describedby')).toBe(await note.getAttribute('id'));
      // Results not saved say nothing of the kind, and offer a plain Save.
      expect(await page.getByText(/In your library:/).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(
        (await page.getByRole('article').count()) - 1,
      );

      // Saved from the page: the card says so at once.
      const other = page
        .getByRole('article')
        .filter({ has: page.getByRole('button', { name: 'Save', exact: true }) })
        .first();
      await other.getByRole('button', { name: 'Save', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Save to a workspace' });
      await dialog.getByLabel('Workspace', { exact: true }).selectOption(elsewhere);
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await dialog.getByRole('status').filter({ hasText: 'Saved to Elsewhere' }).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect
        .poll(() => page.getByText(/In your library:/).allTextContents())
        .toEqual(['✓ In your library: Reading list', '✓ In your library: Elsewhere']);
    });
  },
);
