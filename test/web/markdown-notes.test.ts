/**
 * Notes and annotation comments are Markdown (Chromium): shown formatted in the resource's panel and on
 * the public share page; a `javascript:` link is shown without its address, markup typed in is text
 * and runs nothing; the notes editor has Write and Preview tabs. axe on the panel and the preview.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import {
  auditPage,
  JOURNEY_TIMEOUT_MS,
  seriousA11yViolations,
  webSkipReason,
  type WebServer,
} from '../support/web-browser.js';
import {
  addResourcesThroughApi,
  createWorkspaceThroughApi,
  openJourney,
  type Journey,
} from '../support/web-journey.js';

const TITLE = 'Markdown in notes';
/** Headings, emphasis, a list, code, a safe link and a link that would run code. */
const NOTES = [
  '# Method',
  '',
  'The **main** result is *robust*; see `table 2`.',
  '',
  '- first point',
  '- second point',
  '',
  '[the paper](https://example.org/paper) and [click me](javascript:window.__ran=1)',
].join('\n');

describe.skipIf(webSkipReason)(
  'Markdown notes and comments (Chromium)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Journey;
    let server: WebServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let workspaceId: string;
    let resourceId: string;
    const dialogs: string[] = [];

    beforeAll(async () => {
      journey = await openJourney({ prefix: 'markdown' });
      ({ server, browser, context, page } = journey);
      workspaceId = await createWorkspaceThroughApi(context, server.base, { title: 'Notes' });
      [resourceId] = (await addResourcesThroughApi(context, server.base, workspaceId, [
        { title: TITLE, notes: NOTES },
      ])) as [string];
      const annotated = await context.request.post(`/api/resources/${resourceId}/annotations`, {
        headers: { origin: server.base },
        data: { body: 'A *careful* comment with [a trap](javascript:window.__ran=2)' },
      });
      expect(annotated.status()).toBe(201);
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
    }, 240_000);
    afterAll(async () => {
      await journey?.close();
      expect(dialogs).toEqual([]);
    });

    const panel = () => page.getByRole('region', { name: `Details: ${TITLE}` });

    it('shows notes and a comment formatted; the javascript: links keep their words, not their address', async () => {
      await page.goto(`/workspaces/${workspaceId}?resource=${resourceId}`);
      const notes = panel().locator('.resource-notes');
      await notes.getByRole('heading', { level: 4, name: 'Method' }).waitFor();
      expect(await notes.locator('strong', { hasText: 'main' }).count()).toBe(1);
      expect(await notes.locator('em', { hasText: 'robust' }).count()).toBe(1);
      expect(await notes.locator('code').textContent()).toBe('table 2');
      expect(await notes.getByRole('listitem').allTextContents()).toEqual([
        'first point',
        'second point',
      ]);
      const safe = notes.getByRole('link', { name: 'the paper' });
      expect(await safe.getAttribute('href')).toBe('https://example.org/paper');
      expect(await safe.getAttribute('rel')).toContain('noopener');
      // Not a link at all: no address, so nothing to follow or run.
      expect(await notes.getByRole('link', { name: 'click me' }).count()).toBe(0);
      await notes.getByText('click me').click();
      const comment = panel().locator('.annotation-body');
      expect(await comment.locator('em', { hasText: 'careful' }).count()).toBe(1);
      await comment.getByText('a trap').click();
      expect(await page.evaluate('globalThis.__ran ?? null')).toBeNull();
      expect(await panel().locator('[href^="javascript"], script').count()).toBe(0);
      expect(await auditPage(page, 'markdown-notes')).toEqual({});
    });

    it('edits notes with Write and Preview: the preview shows what will be saved, markup typed in as text', async () => {
      await page.goto(`/workspaces/${workspaceId}?resource=${resourceId}`);
      await panel().getByRole('button', { name: 'Edit notes' }).click();
      const form = panel().getByRole('form', { name: `Notes and tags of ${TITLE}` });
      const field = form.getByLabel('Notes', { exact: true });
      await field.fill('## Plan\n\n1. read\n2. **write**\n\n<img src=x onerror="window.__ran=3">');
      const tabs = form.getByRole('tablist', { name: 'Write or preview' });
      await tabs.getByRole('tab', { name: 'Preview' }).click();
      const preview = form.locator('.markdown-preview');
      await preview.getByRole('heading', { level: 5, name: 'Plan' }).waitFor();
      expect(await preview.getByRole('listitem').allTextContents()).toEqual(['read', 'write']);
      expect(await preview.locator('img').count()).toBe(0);
      expect(await preview.textContent()).toContain('<img src=x onerror="window.__ran=3">');
      expect(await page.evaluate('globalThis.__ran ?? null')).toBeNull();
      expect(await seriousA11yViolations(page)).toEqual([]);
      // Back to Write: the text is where it was, and saving keeps it.
      await tabs.getByRole('tab', { name: 'Write' }).click();
      expect(await field.inputValue()).toContain('## Plan');
      await field.fill('## Plan\n\n1. read\n2. **write**');
      await panel().getByRole('button', { name: 'Save', exact: true }).click();
      await panel()
        .locator('.resource-notes')
        .getByRole('heading', { level: 5, name: 'Plan' })
        .waitFor();
    });

    it('the share page shows the same Markdown, sanitised', async () => {
      const share = await context.request.post(`/api/workspaces/${workspaceId}/share`, {
        headers: { origin: server.base },
        data: {},
      });
      // A link just made has its address (null only after the service secret changed).
      const { url } = (await share.json()) as ApiSchema<'ShareLink'>;
      expect(url).toEqual(expect.any(String));
      const visitor = await browser.newPage();
      try {
        await visitor.goto(url!);
        const notes = visitor.locator('.notes');
        await notes.getByRole('heading', { level: 5, name: 'Plan' }).waitFor();
        expect(await notes.locator('strong', { hasText: 'write' }).count()).toBe(1);
        const comment = visitor.locator('.annotation-body');
        expect(await comment.locator('em', { hasText: 'careful' }).count()).toBe(1);
        expect(await comment.getByRole('link', { name: 'a trap' }).count()).toBe(0);
        expect(await visitor.locator('[href^="javascript"], script').count()).toBe(0);
        expect(await seriousA11yViolations(visitor)).toEqual([]);
      } finally {
        await visitor.close();
      }
    });
  },
);
