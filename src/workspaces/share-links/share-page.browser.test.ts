/**
 * The public share page in a real browser (headless Chromium through playwright-core): what a reader
 * sees, that injected markup stays text, that the page sets no cookies and loads nothing else, and a
 * screenshot (desktop and mobile) in test-artifacts/. Without Chromium the tests are skipped, except
 * in CI, where that is a failure.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { connectChromium } from '../../../test/support/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { annotations, workspaceResources } from '../../platform/db/schema.js';
import { addResource, annotate, createWorkspace, shareWorkspace } from '../test-support/helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const inCi = process.env.CI === 'true';
const skipReason =
  !existsSync(CHROMIUM) && !inCi
    ? `${CHROMIUM} not installed: share-page browser tests skipped`
    : null;
const ARTIFACTS = join(process.cwd(), 'test-artifacts');

const EVIL_TITLE = '<img src=x onerror="globalThis.__pwned=1">Evil <b>title</b>';
const EVIL_NOTES =
  '<script>globalThis.__pwned=2</script>Notes that try <svg onload="globalThis.__pwned=3">';

type Flagged = { __pwned?: unknown };
type StyleBox = {
  document: { body: unknown };
  getComputedStyle(element: unknown): { backgroundColor: string };
};
type ScrollBox = { document: { documentElement: { scrollWidth: number; clientWidth: number } } };

if (skipReason) console.warn(skipReason);

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason || skipReason)(`share page in Chromium (${leg.name})`, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let owner: TestUser;
    let workspaceId: string;
    let link: { id: string; token: string };

    beforeAll(async () => {
      if (!existsSync(CHROMIUM))
        throw new Error(`In CI the share-page browser tests must run: ${CHROMIUM} is missing`);
      t = await buildTestApp({ leg });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      browser = await connectChromium();

      owner = await buildUser(t.app);
      const ws = await createWorkspace(t.app, owner, {
        name: 'Attention reading group',
        description:
          'Papers for the spring seminar on sequence models. Read the starred sections before Thursday.',
      });
      workspaceId = ws.id;
      const attention = await addResource(t.app, owner, workspaceId, {
        title: 'Attention Is All You Need',
        url: 'https://arxiv.org/abs/1706.03762',
        type: 'preprint',
        authors: [
          'Ashish Vaswani',
          'Noam Shazeer',
          'Niki Parmar',
          'Jakob Uszkoreit',
          'Llion Jones',
          'Aidan N. Gomez',
          'Łukasz Kaiser',
          'Illia Polosukhin',
        ],
        tags: ['transformers', 'nlp', 'attention'],
        notes: 'Start with section 3.2 (multi-head attention).\n\nTable 2 compares training cost.',
      });
      await annotate(t.app, owner, attention.id, {
        body: 'Scaling by 1/√d_k keeps the softmax out of its flat regions.',
        highlights: {
          ranges: [
            {
              start: 120,
              end: 168,
              text: 'We suspect that for large values of d_k, the dot products grow large in magnitude',
            },
          ],
        },
      });
      await annotate(t.app, owner, attention.id, {
        body: 'Compare with the additive attention of Bahdanau et al.',
      });
      await addResource(t.app, owner, workspaceId, {
        title: 'Deep learning',
        url: 'https://doi.org/10.1038/nature14539',
        type: 'article',
        authors: ['Yann LeCun', 'Yoshua Bengio', 'Geoffrey Hinton'],
        tags: ['review'],
        notes: 'Background reading.',
      });
      // Input is stripped of HTML, so markup can only reach the page if written some other way:
      // write it straight into the database to prove the page escapes what it shows.
      const [evil] = await t.app.ctx.db
        .insert(workspaceResources)
        .values({
          workspaceId,
          title: EVIL_TITLE,
          url: 'javascript:globalThis.__pwned=4',
          notes: EVIL_NOTES,
          tags: ['<i>tag</i>'],
        })
        .returning();
      await t.app.ctx.db.insert(annotations).values({
        resourceId: evil!.id,
        userId: owner.id,
        body: '"><script>globalThis.__pwned=5</script>',
      });
      link = await shareWorkspace(t.app, owner, workspaceId);
      mkdirSync(ARTIFACTS, { recursive: true });
    });

    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    async function open(context: BrowserContext, path: string) {
      const page = await context.newPage();
      const requests: string[] = [];
      const problems: string[] = [];
      let dialogs = 0;
      page.on('request', (request) => requests.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning')
          problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('dialog', (dialog) => {
        dialogs += 1;
        void dialog.dismiss();
      });
      const response = await page.goto(`${base}${path}`, { waitUntil: 'load' });
      return { page, response, requests, problems, dialogs: () => dialogs };
    }

    it('shows the workspace as a reader sees it, runs no injected script, sets no cookies, loads nothing else', async () => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        colorScheme: 'light',
      });
      const { page, response, requests, problems, dialogs } = await open(
        context,
        `/share/${link.token}`,
      );

      expect(response?.status()).toBe(200);
      expect(response?.headers()['set-cookie']).toBeUndefined();
      expect(await context.cookies()).toEqual([]);
      expect(requests).toEqual([`${base}/share/${link.token}`]);
      // The inline CSS is allowed by its CSP hash: it applies, and nothing is refused.
      expect(problems).toEqual([]);
      const background = await page.evaluate(() => {
        const { getComputedStyle, document } = globalThis as unknown as StyleBox;
        return getComputedStyle(document.body).backgroundColor;
      });
      expect(background).toBe('rgb(247, 246, 243)');

      expect(await page.title()).toBe('Attention reading group · Shared workspace');
      expect(await page.locator('h1').innerText()).toBe('Attention reading group');
      expect(await page.locator('.description').innerText()).toContain(
        'spring seminar on sequence models',
      );
      expect(await page.locator('h2').allInnerTexts()).toEqual([
        expect.stringContaining('<img src=x onerror="globalThis.__pwned=1">Evil <b>title</b>'),
        expect.stringContaining('Deep learning'),
        expect.stringContaining('Attention Is All You Need'),
      ]);
      const attention = page.locator('li.resource', { hasText: 'Attention Is All You Need' });
      expect(await attention.locator('h2 a').getAttribute('href')).toBe(
        'https://arxiv.org/abs/1706.03762',
      );
      expect(await attention.locator('.authors').innerText()).toBe(
        'Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Łukasz Kaiser, Illia Polosukhin',
      );
      expect(await attention.locator('.tags li').allInnerTexts()).toEqual([
        'transformers',
        'nlp',
        'attention',
      ]);
      expect(await attention.locator('.notes').innerText()).toContain(
        'Table 2 compares training cost.',
      );
      expect(await attention.locator('.annotations li').count()).toBe(2);
      expect(await attention.locator('blockquote').innerText()).toContain(
        'the dot products grow large',
      );
      expect(await attention.locator('.annotations').innerText()).toContain('Scaling by 1/√d_k');
      expect(
        await page
          .locator('li.resource', { hasText: 'Deep learning' })
          .locator('h2 a')
          .getAttribute('href'),
      ).toBe('https://doi.org/10.1038/nature14539');

      // The injected markup is text: no element was created from it and nothing ran.
      const evil = page.locator('li.resource', { hasText: 'Evil' });
      expect(await evil.locator('h2 a').count()).toBe(0);
      expect(await evil.locator('.notes').innerText()).toContain(
        '<script>globalThis.__pwned=2</script>',
      );
      expect(await evil.locator('.annotations').innerText()).toContain(
        '"><script>globalThis.__pwned=5</script>',
      );
      expect(await page.locator('script, img, svg, iframe').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as Flagged).__pwned)).toBeUndefined();
      expect(dialogs()).toBe(0);

      await page.screenshot({ path: join(ARTIFACTS, 'share-page.png'), fullPage: true });
      await context.close();
    });

    it('reads well on a phone: no sideways scrolling', async () => {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        colorScheme: 'light',
      });
      const { page, response } = await open(context, `/share/${link.token}`);
      expect(response?.status()).toBe(200);
      const { scrollWidth, clientWidth } = await page.evaluate(() => {
        const root = (globalThis as unknown as ScrollBox).document.documentElement;
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
      });
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      expect(await page.locator('h1').isVisible()).toBe(true);
      await page.screenshot({ path: join(ARTIFACTS, 'share-page-mobile.png'), fullPage: true });
      await context.close();
    });

    it('shows a plain 404 page for an unknown token and once the link is revoked', async () => {
      const context = await browser.newContext({ colorScheme: 'light' });
      const unknown = await open(context, `/share/${'Z'.repeat(43)}`);
      expect(unknown.response?.status()).toBe(404);
      expect(await unknown.page.locator('h1').innerText()).toBe('Link not available');

      const revoke = await t.app.inject({
        method: 'DELETE',
        url: `/api/workspaces/${workspaceId}/share/${link.id}`,
        headers: owner.bearer,
      });
      expect(revoke.statusCode).toBe(200);
      const revoked = await open(context, `/share/${link.token}`);
      expect(revoked.response?.status()).toBe(404);
      expect(await revoked.page.content()).not.toContain('Attention reading group');
      expect(await context.cookies()).toEqual([]);
      await context.close();
    });
  });
}
