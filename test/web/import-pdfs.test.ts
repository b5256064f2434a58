/**
 * Bringing a library in, in Chromium against the real service: a real Better BibTeX file imported
 * through `Import…` (the preview's counts checked against the API's dry run and against the file as
 * @retorquere/bibtex-parser reads it; confirmed; the list shows the entries; a second import previews
 * them all as duplicates; a file of no format worded for the user; an unreadable entry with its
 * line), then real PDFs: one attached to a resource from its panel (the PDF column goes pending →
 * ready and links to the viewer), one dropped on the library with a file that is not a PDF (a new
 * resource; the other refused), one chosen with `Add PDFs…` that only claims to be a PDF (refused by
 * the service), a PDF removed, and a scan's failure shown with its reason. axe on the preview; 390 px.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { makeImageOnlyPdf } from '../../src/summaries/test-support/pdfs.js';
import { ROOT } from '../support/build-once.js';
import {
  auditPage,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  VIEWPORTS,
  type WebServer,
} from '../support/web-browser.js';
import { createWorkspaceThroughApi, openJourney, type Journey } from '../support/web-journey.js';

const BIB_NAME = 'bbt-crossref.bib';
const BIB_PATH = join(ROOT, 'test', 'fixtures', 'citations', BIB_NAME);
const TRICKY_PATH = join(ROOT, 'test', 'fixtures', 'citations', 'composed-tricky.bib');
const VESPA_PATH = join(ROOT, 'test', 'fixtures', 'pdfs', 'vespa-peerjcs2017.pdf');
const GRAPH_PATH = join(ROOT, 'test', 'fixtures', 'pdfs', 'literature-graph-naacl2018-2col.pdf');

type ListedResource = ApiSchema<'Resource'>;

describe.skipIf(webSkipReason)(
  'importing a library and adding PDFs (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Journey;
    let server: WebServer;
    let context: BrowserContext;
    let page: Page;
    let workspaceId: string;
    /** The file's titles as a BibTeX parser other than the service's reads them (crossref fields inherited). */
    const bibTitles = parseBibtex(readFileSync(BIB_PATH, 'utf8'), { english: false }).entries.map(
      (entry) => String(entry.fields.title),
    );

    beforeAll(async () => {
      journey = await openJourney({ prefix: 'import' });
      ({ server, context, page } = journey);
      workspaceId = await createWorkspaceThroughApi(context, server.base, { title: 'Moving in' });
    }, 240_000);
    afterAll(async () => journey?.close());

    const table = () => page.getByRole('table');
    const titles = async () => (await table().locator('tbody .col-title').allTextContents()).sort();
    const listed = async () =>
      (await (
        await context.request.get(`/api/workspaces/${workspaceId}/resources?limit=100`)
      ).json()) as ListedResource[];
    const pdfCell = (title: string) =>
      table()
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: title, exact: true }) })
        .locator('.col-pdf');
    const focusedText = () =>
      page.evaluate<string | null>('document.activeElement?.textContent ?? null');
    const openImport = async () => {
      await page.getByRole('button', { name: 'Import…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import citations' });
      await dialog.getByLabel('Citation file').setInputFiles(BIB_PATH);
      await dialog
        .getByRole('status')
        .filter({ hasText: `${BIB_NAME} (BibTeX)` })
        .waitFor();
      return dialog;
    };
    const previewCounts = async (dialog: ReturnType<Page['getByRole']>) =>
      dialog
        .getByRole('list', { name: 'What the import would do' })
        .getByRole('listitem')
        .allTextContents();

    it('previews a Better BibTeX file as the API and a BibTeX parser count it, imports it, and previews it again as duplicates', async () => {
      expect(bibTitles).toHaveLength(2);
      const dryRun = await context.request.post(
        `/api/workspaces/${workspaceId}/import?dryRun=true`,
        {
          headers: { origin: server.base },
          multipart: {
            file: {
              name: BIB_NAME,
              mimeType: 'application/x-bibtex',
              buffer: readFileSync(BIB_PATH),
            },
          },
        },
      );
      const { counts } = (await dryRun.json()) as ApiSchema<'ImportReport'>;
      expect(counts).toEqual({
        entries: bibTitles.length,
        imported: bibTitles.length,
        duplicates: 0,
        unreadable: 0,
        noRoom: 0,
        // The file's own keys (Better BibTeX's) are kept: none was taken.
        keysChanged: 0,
      });

      await page.goto(`/workspaces/${workspaceId}`);
      await page.getByText('Nothing saved here yet').waitFor();
      const dialog = await openImport();
      expect(await dialog.getByRole('status').textContent()).toBe(
        `${BIB_NAME} (BibTeX): ${bibTitles.length} entries.`,
      );
      expect(await previewCounts(dialog)).toEqual([
        `${counts.imported} new`,
        `${counts.duplicates} duplicates`,
        `${counts.unreadable} unreadable`,
        `${counts.noRoom} without room`,
      ]);
      const newList = dialog.getByRole('region', { name: `New (${bibTitles.length})` });
      for (const title of bibTitles) await newList.getByText(title, { exact: false }).waitFor();

      expect(await auditPage(page, 'import-preview')).toEqual({});
      await page.setViewportSize(VIEWPORTS.mobile);
      expect(
        await page.evaluate<boolean>(
          'document.documentElement.scrollWidth <= document.documentElement.clientWidth',
        ),
      ).toBe(true);
      await page.setViewportSize(VIEWPORTS.desktop);

      await dialog.getByRole('button', { name: `Import ${bibTitles.length} resources` }).click();
      await dialog.waitFor({ state: 'detached' });
      await page
        .getByText(`Imported ${bibTitles.length} resources from ${BIB_NAME}`, { exact: true })
        .waitFor();
      await expect.poll(focusedText).toBe('Import…');
      await expect.poll(titles).toEqual([...bibTitles].sort());

      // The same file again: everything is already here.
      const again = await openImport();
      expect(await previewCounts(again)).toEqual([
        '0 new',
        `${bibTitles.length} duplicates`,
        '0 unreadable',
        '0 without room',
      ]);
      const duplicates = again.getByRole('region', {
        name: `Duplicates, not added (${bibTitles.length})`,
      });
      for (const title of bibTitles)
        await duplicates.getByText(`already here as “${title}”`).waitFor();
      expect(await again.getByRole('button', { name: /^Import \d/ }).count()).toBe(0);

      // A file of no format: a sentence, not a code.
      await again.getByLabel('Citation file').setInputFiles({
        name: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('Remember to read the Lebanon chapter.'),
      });
      await expect
        .poll(() => again.getByRole('alert').textContent())
        .toBe(
          'This file is not BibTeX, RIS or CSL-JSON. Export the library from your reference manager in one of those formats and choose that file.',
        );
      // A file with an entry that never closes: the preview names its line, key and reason, as the API's dry run does.
      const tricky = readFileSync(TRICKY_PATH);
      const trickyRun = await context.request.post(
        `/api/workspaces/${workspaceId}/import?dryRun=true`,
        {
          headers: { origin: server.base },
          multipart: {
            file: { name: 'composed-tricky.bib', mimeType: 'application/x-bibtex', buffer: tricky },
          },
        },
      );
      const broken = ((await trickyRun.json()) as ApiSchema<'ImportReport'>).entries.filter(
        (entry) => entry.outcome === 'unreadable',
      );
      expect(broken).toHaveLength(1);
      await again.getByLabel('Citation file').setInputFiles(TRICKY_PATH);
      const unreadable = again.getByRole('region', { name: 'Unreadable, not added (1)' });
      await expect
        .poll(() => unreadable.getByRole('listitem').allTextContents())
        .toEqual(broken.map((entry) => `line ${entry.line}, ${entry.key}: ${entry.reason}`));
      // A JabRef library saved as UTF-16: read in its own encoding, which the preview says.
      await again
        .getByLabel('Citation file')
        .setInputFiles(join(ROOT, 'test', 'fixtures', 'citations', 'jabref-utf16le-bom.bib'));
      await again.getByText('it was read as utf-16le').waitFor();
      await again
        .getByText('Investigation of the best suture pattern to close a stuffed Christmas turkey')
        .waitFor();
      await again.getByRole('button', { name: 'Cancel' }).click();
      await again.waitFor({ state: 'detached' });
      await expect.poll(focusedText).toBe('Import…');
      expect((await listed()).map((resource) => resource.title).sort()).toEqual(
        [...bibTitles].sort(),
      );
    });

    it('attaches a PDF from the panel (pending, then ready with a link to the viewer), takes dropped and chosen PDFs, and removes one', async () => {
      const [first] = [...bibTitles].sort();
      await page.goto(`/workspaces/${workspaceId}?sort=title`);
      // Chosen, so that it stays in the panel when a new resource sorts before it.
      await table().getByRole('link', { name: first, exact: true }).click();
      const panel = page.getByRole('region', { name: `Details: ${first}` });
      await panel.getByText('No PDF kept with this resource.').waitFor();
      expect(await pdfCell(first!).textContent()).toBe('–No PDF');

      // Every text the cell shows, in order, from before the upload (the states may pass quickly).
      await page.evaluate(`(() => {
      const seen = (globalThis.__pdfStates = []);
      const read = () => {
        const link = [...document.querySelectorAll('tbody .col-title a')].find((a) => a.textContent === ${JSON.stringify(first)});
        const text = link?.closest('tr')?.querySelector('.col-pdf')?.textContent ?? null;
        if (text !== null && seen[seen.length - 1] !== text) seen.push(text);
      };
      read();
      new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
      const chooser = page.waitForEvent('filechooser');
      await panel.getByRole('button', { name: 'Attach PDF' }).click();
      await (await chooser).setFiles(VESPA_PATH);
      const read = table().getByRole('link', { name: `Read the PDF of ${first}` });
      await read.waitFor();
      const resource = (await listed()).find((each) => each.title === first)!;
      expect(resource.pdf).toMatchObject({ extraction: 'ready' });
      expect(await read.getAttribute('href')).toBe(
        `/workspaces/${workspaceId}/resources/${resource.id}/pdf`,
      );
      expect(await page.evaluate('globalThis.__pdfStates')).toEqual([
        '–No PDF',
        'Extracting…',
        `Read the PDF of ${first}`,
      ]);
      await panel
        .getByRole('status')
        .filter({ hasText: `text extracted from ${resource.pdf!.pages} pages` })
        .waitFor();

      // The deep summary of the stored PDF, in the app, saved into this resource's notes.
      const started = Date.now();
      await panel.getByRole('button', { name: `Summarise the PDF of ${first}` }).click();
      const summary = page.getByRole('dialog', { name: 'Summary' });
      expect(await summary.getByRole('radio', { name: /Deep/ }).isChecked()).toBe(true);
      await summary.getByText('Summary complete.').waitFor({ timeout: 20_000 });
      console.log(`deep summary of the stored PDF in the app: ${Date.now() - started} ms`);
      const tldr = (await summary.locator('.summary-tldr').textContent()) ?? '';
      expect(tldr.length).toBeGreaterThan(20);
      expect(await summary.getByText(/Summarised in quick mode/).count()).toBe(0);
      await summary.getByRole('button', { name: 'Save to notes' }).click();
      await summary.getByText('Saved to the notes of this paper in Moving in.').waitFor();
      const notes = (await listed()).find((each) => each.id === resource.id)!.notes;
      expect(notes).toContain(`Summary (deep, ${new Date().toISOString().slice(0, 10)})`);
      expect(notes).toContain(`TL;DR: ${tldr}`);
      expect(await auditPage(page, 'stored-pdf-summary')).toEqual({});
      await page.keyboard.press('Escape');
      await summary.waitFor({ state: 'detached' });

      // Dropped on the library with a file that is not a PDF: the PDF becomes a resource, the other is refused.
      const graph = readFileSync(GRAPH_PATH).toString('base64');
      await page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob(${JSON.stringify(graph)}), (char) => char.charCodeAt(0));
      const files = new DataTransfer();
      files.items.add(new File([bytes], 'literature-graph.pdf', { type: 'application/pdf' }));
      files.items.add(new File(['@book{x, title={X}}'], 'more.bib', { type: 'application/x-bibtex' }));
      const zone = document.querySelector('.pdf-drop');
      zone.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: files }));
      zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: files }));
    })()`);
      await page.getByText('Added 1 PDF; their text is being extracted', { exact: true }).waitFor();
      expect(
        await page
          .getByRole('alert')
          .filter({ hasText: 'Not added' })
          .getByRole('listitem')
          .allTextContents(),
      ).toEqual(['more.bib is not a PDF (citation files go through Import…).']);
      await expect.poll(async () => (await listed()).length).toBe(bibTitles.length + 1);
      const made = (await listed()).find((each) => !bibTitles.includes(each.title))!;
      await expect
        .poll(async () => (await listed()).find((each) => each.id === made.id)?.pdf?.extraction, {
          timeout: 30_000,
        })
        .toBe('ready');
      await expect
        .poll(
          () =>
            table()
              .getByRole('link', { name: /^Read the PDF of / })
              .count(),
          { timeout: 10_000 },
        )
        .toBe(2);

      // Chosen with `Add PDFs…` from the keyboard: a file named .pdf whose bytes are not a PDF's is refused by the service.
      const again = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Add PDFs…' }).press('Enter');
      await (
        await again
      ).setFiles({
        name: 'scan.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('Not a PDF at all, whatever the name says.'),
      });
      await page
        .getByRole('alert')
        .filter({
          hasText: "scan.pdf is not a PDF: its contents are not a PDF's, whatever its name says.",
        })
        .waitFor();
      expect((await listed()).length).toBe(bibTitles.length + 1);

      await panel.getByRole('button', { name: 'Remove PDF' }).click();
      await panel.getByText('No PDF kept with this resource.').waitFor();
      await expect.poll(() => pdfCell(first!).textContent()).toBe('–No PDF');
      expect((await listed()).find((each) => each.id === resource.id)?.pdf).toBeNull();

      // A scan attached elsewhere (through the API): the page opened meanwhile reads it again until it has failed, and says why.
      const second = [...bibTitles].sort()[1]!;
      const secondId = (await listed()).find((each) => each.title === second)!.id;
      const put = await context.request.put(
        `/api/workspaces/${workspaceId}/resources/${secondId}/pdf`,
        {
          headers: { origin: server.base },
          multipart: {
            file: {
              name: 'scan.pdf',
              mimeType: 'application/pdf',
              buffer: await makeImageOnlyPdf(),
            },
          },
        },
      );
      expect(put.status()).toBe(200);
      await page.reload();
      await expect
        .poll(() => pdfCell(second).textContent(), { timeout: 15_000 })
        .toMatch(/^Failed: /);
      const failed = (await listed()).find((each) => each.id === secondId)!.pdf as {
        extraction: string;
        error: string;
      };
      expect(failed.extraction).toBe('failed');
      expect(await pdfCell(second).textContent()).toBe(`Failed: ${failed.error}`);
    });
  },
);
