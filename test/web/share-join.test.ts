/**
 * Editable share links and joining through one (issue 25), in Chromium with two users in two browser
 * contexts on one service, and a third context signed out: the owner makes a "Can edit" link in the
 * Share links section (the list says "Can edit"); the second user, signed in, opens the link's public
 * page, which offers Join this workspace, joins on the app's join page and lands in the workspace as an
 * editor who can add a resource; a signed-out visitor gets the read-only page as ever, with no offer.
 * axe on the owner's section and the join page (auditPage), and on the server-rendered share page.
 * Issue 33: a "Can view" link lets nobody join until the owner allows it (the join page says so and
 * links to the public page); the editor's section lists read-only links only, and the members panel
 * shows them names, not addresses; once the owner removes the editor, the join page tells them why the
 * editable link no longer lets them in.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import {
  auditPage,
  launchChromium,
  newContext,
  newCredentials,
  seriousA11yViolations,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
} from '../support/web-browser.js';

describe.skipIf(webSkipReason)(
  'share links that let people join (Chromium, two users and a visitor)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;
    let ownerContext: BrowserContext;
    let guestContext: BrowserContext;
    let visitorContext: BrowserContext;
    let owner: Page;
    let guest: Page;
    const pageErrors: string[] = [];
    const ownerCredentials = newCredentials('owner');
    const guestCredentials = newCredentials('guest');
    let workspaceId: string;
    let linkUrl: string;
    let viewLinkUrl: string;

    beforeAll(async () => {
      server = await startWebServer();
      browser = await launchChromium();
      [ownerContext, guestContext, visitorContext] = await Promise.all([
        newContext(browser, server.base),
        newContext(browser, server.base),
        newContext(browser, server.base),
      ]);
      await Promise.all([
        signUpThroughApi(ownerContext, server.base, ownerCredentials),
        signUpThroughApi(guestContext, server.base, guestCredentials),
      ]);
      const headers = { origin: server.base };
      workspaceId = (
        (await (
          await ownerContext.request.post('/api/workspaces', {
            headers,
            data: { title: 'Co-authored review' },
          })
        ).json()) as ApiSchema<'Workspace'>
      ).id;
      const added = await ownerContext.request.post(`/api/workspaces/${workspaceId}/resources`, {
        headers,
        data: { title: 'Deep residual learning', authors: ['Kaiming He'] },
      });
      if (added.status() !== 201) throw new Error(`seed: ${added.status()}`);
      owner = await ownerContext.newPage();
      guest = await guestContext.newPage();
      for (const page of [owner, guest])
        page.on('pageerror', (error) => pageErrors.push(error.message));
    }, 240_000);
    afterAll(async () => {
      await Promise.all([ownerContext?.close(), guestContext?.close(), visitorContext?.close()]);
      await browser?.close();
      await server?.close();
      expect(pageErrors).toEqual([]);
    });

    const shareSection = (page: Page) => page.getByRole('region', { name: 'Share links' });

    it('the owner makes a "Can edit" link, and the list says which kind it is', async () => {
      await owner.goto(`/workspaces/${workspaceId}`);
      await shareSection(owner).getByLabel('Access').selectOption({ label: 'Can edit' });
      await shareSection(owner).getByRole('button', { name: 'Share' }).click();
      const item = shareSection(owner)
        .getByRole('list', { name: 'Share links' })
        .getByRole('listitem');
      await expect.poll(() => item.count()).toBe(1);
      expect(await item.locator('.share-access').textContent()).toBe('Can edit');
      linkUrl = (await item.locator('a.share-url').getAttribute('href')) ?? '';
      expect(linkUrl).toMatch(new RegExp(`^${server.base}/share/[A-Za-z0-9_-]{43}$`));
      expect(await auditPage(owner, 'share-links-editable')).toEqual({});
    });

    it('a "Can view" link lets nobody join until the owner allows it: the join page says so and leads to the public page', async () => {
      await shareSection(owner).getByLabel('Access').selectOption({ label: 'Can view' });
      const allowJoin = shareSection(owner).getByLabel('Let people who sign in join as viewers');
      expect(await allowJoin.isChecked()).toBe(false);
      expect(await auditPage(owner, 'share-links-view')).toEqual({});
      await shareSection(owner).getByRole('button', { name: 'Share' }).click();
      const items = shareSection(owner)
        .getByRole('list', { name: 'Share links' })
        .getByRole('listitem');
      await expect.poll(() => items.count()).toBe(2);
      const viewItem = items.first();
      expect(await viewItem.locator('.share-access').textContent()).toBe('Can view');
      expect(await viewItem.locator('.share-joining').textContent()).toBe(
        'Read only: nobody joins through it.',
      );
      viewLinkUrl = (await viewItem.locator('a.share-url').getAttribute('href')) ?? '';
      const viewToken = viewLinkUrl.split('/').pop()!;

      // Its public page offers nothing to join, even to someone signed in.
      await guest.goto(viewLinkUrl);
      await guest.getByRole('heading', { name: 'Co-authored review' }).waitFor();
      expect(await guest.getByRole('link', { name: 'Join this workspace' }).count()).toBe(0);
      // The join page, opened by hand, says why and leads back to what the link does give.
      await guest.goto(`/join/${viewToken}`);
      await guest.getByRole('button', { name: 'Join this workspace' }).click();
      await guest.getByText('This link does not let you join').waitFor();
      expect(await auditPage(guest, 'share-join-not-allowed')).toEqual({});
      await guest.getByRole('link', { name: 'Read the shared workspace' }).click();
      await guest.waitForURL(`**/share/${viewToken}`);
      await guest.getByRole('heading', { name: 'Co-authored review' }).waitFor();
    });

    it('a signed-in person opens the link, joins, lands in the workspace as an editor and can add a resource', async () => {
      await guest.goto(linkUrl);
      await guest.getByRole('heading', { name: 'Co-authored review' }).waitFor();
      expect(await guest.locator('.join').textContent()).toContain('as an editor');
      expect(await seriousA11yViolations(guest)).toEqual([]);
      await guest.getByRole('link', { name: 'Join this workspace' }).click();
      await guest.waitForURL(/\/join\/[A-Za-z0-9_-]{43}$/);
      await guest.getByRole('button', { name: 'Join this workspace' }).waitFor();
      expect(await auditPage(guest, 'share-join')).toEqual({});
      await guest.getByRole('button', { name: 'Join this workspace' }).click();
      await guest.waitForURL(`**/workspaces/${workspaceId}`);
      await expect
        .poll(() => guest.locator('main .role-badge').allTextContents())
        .toEqual(['Editor · shared with you']);
      await guest.getByRole('heading', { name: 'Deep residual learning' }).waitFor();
      // An editor's controls, not the owner's: no editable links to hand out, no revoking.
      await guest.getByRole('button', { name: 'Add by identifier…' }).waitFor();
      expect(await shareSection(guest).getByLabel('Access').count()).toBe(0);
      const added = await guestContext.request.post(`/api/workspaces/${workspaceId}/resources`, {
        headers: { origin: server.base },
        data: { title: 'Added by the co-author' },
      });
      expect(added.status()).toBe(201);
      await guest.reload();
      await guest.getByRole('heading', { name: 'Added by the co-author' }).waitFor();

      // A member now: the page offers nothing more.
      await guest.goto(linkUrl);
      await guest.getByRole('heading', { name: 'Co-authored review' }).waitFor();
      expect(await guest.getByRole('link', { name: 'Join this workspace' }).count()).toBe(0);
    });

    it("the editor's section lists the read-only link only, with nothing to turn; the members panel shows them names, the owner addresses too", async () => {
      await guest.goto(`/workspaces/${workspaceId}`);
      const items = shareSection(guest)
        .getByRole('list', { name: 'Share links' })
        .getByRole('listitem');
      await expect.poll(() => items.count()).toBe(1);
      expect(await items.locator('a.share-url').getAttribute('href')).toBe(viewLinkUrl);
      expect(await shareSection(guest).getByText('Can edit').count()).toBe(0);
      expect(await guest.content()).not.toContain(linkUrl.split('/').pop()!);
      expect(await shareSection(guest).getByRole('button', { name: 'Allow joining' }).count()).toBe(
        0,
      );
      expect(
        await shareSection(guest).getByLabel('Let people who sign in join as viewers').count(),
      ).toBe(0);
      const members = (page: Page) => page.getByRole('region', { name: 'Members' });
      await members(guest).getByText(ownerCredentials.name).first().waitFor();
      expect(await members(guest).locator('.member-email').count()).toBe(0);
      expect(await guest.content()).not.toContain(ownerCredentials.email);
      await owner.reload();
      await members(owner).getByText(guestCredentials.email).waitFor();

      // The owner opens the "Can view" link to joining from the list.
      await shareSection(owner).getByRole('button', { name: 'Allow joining' }).click();
      await shareSection(owner)
        .getByText('Whoever signs in through it may join as a viewer.')
        .waitFor();
    });

    it('removed by the owner, the editor cannot come back through the editable link: the join page says why', async () => {
      const headers = { origin: server.base };
      const list = (await (
        await ownerContext.request.get(`/api/workspaces/${workspaceId}/members`, { headers })
      ).json()) as ApiSchema<'MemberList'>;
      const guestId = list.members.find((m) => m.email === guestCredentials.email)!.userId;
      const removed = await ownerContext.request.delete(
        `/api/workspaces/${workspaceId}/members/${guestId}`,
        { headers },
      );
      expect(removed.status()).toBe(200);
      await guest.goto(`/join/${linkUrl.split('/').pop()!}`);
      await guest.getByRole('button', { name: 'Join this workspace' }).click();
      await guest.getByText('Its owner removed you from it.', { exact: false }).waitFor();
      expect(await guest.getByText('You cannot join this workspace through a link').count()).toBe(
        1,
      );
      const asGuest = await guestContext.request.get(`/api/workspaces/${workspaceId}`, { headers });
      expect(asGuest.status()).toBe(404);
    });

    it('a signed-out visitor reads what the "Can edit" link is, sets no cookie, and is offered to sign in or sign up and come back to join', async () => {
      const visitor = await visitorContext.newPage();
      const response = await visitor.goto(linkUrl);
      expect(response?.status()).toBe(200);
      expect(await response?.headerValue('set-cookie')).toBeNull();
      await visitor.getByRole('heading', { name: 'Co-authored review' }).waitFor();
      expect(await visitor.getByText('Shared workspace · read-only').count()).toBe(0);
      expect(await visitor.locator('.eyebrow').textContent()).toContain('Can edit');
      expect(await visitor.getByRole('link', { name: 'Join this workspace' }).count()).toBe(0);
      const token = linkUrl.split('/').pop()!;
      const comeBack = `next=${encodeURIComponent(`/join/${token}`)}`;
      expect(await visitor.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(
        `${server.base}/auth/signup?${comeBack}`,
      );
      expect(await seriousA11yViolations(visitor)).toEqual([]);
      expect(await visitorContext.cookies()).toEqual([]);

      await visitor.getByRole('link', { name: 'Sign in to join' }).click();
      await visitor.waitForURL(`${server.base}/auth/signin?${comeBack}`);
      await visitor.getByRole('heading', { level: 1, name: /Sign in/ }).waitFor();
    });
  },
);
