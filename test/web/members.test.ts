/**
 * Members, roles and invitations in Chromium, with two users in two browser contexts on one service:
 * the owner invites the other by e-mail; the mail's link (read from the outbox) opens the invitation
 * page signed out, whose `Sign in` comes back to it; `Join` opens the workspace as an editor, with the
 * editor's controls and not the owner's; the owner makes them a viewer, who is then offered no control
 * to change the library; the owner removes them, and the used link says it cannot be used. axe on the
 * members section, the invitation page and the viewer's workspace; no sideways scrolling at 360 px.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { linkIn, mailWrittenBy } from '../support/outbox.js';
import {
  auditPage,
  launchChromium,
  newContext,
  newCredentials,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type Credentials,
  type WebServer,
  pageWidths,
} from '../support/web-browser.js';

describe.skipIf(webSkipReason)(
  'members, roles and invitations (Chromium, two users)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let server: WebServer;
    let browser: Browser;
    let ownerContext: BrowserContext;
    let guestContext: BrowserContext;
    let owner: Page;
    let guest: Page;
    const pageErrors: string[] = [];
    const ownerCredentials = newCredentials('owner');
    const guestCredentials: Credentials = newCredentials('guest');
    let workspaceId: string;
    let invitationPath: string;

    beforeAll(async () => {
      server = await startWebServer();
      browser = await launchChromium();
      ownerContext = await newContext(browser, server.base);
      guestContext = await newContext(browser, server.base);
      await signUpThroughApi(ownerContext, server.base, ownerCredentials);
      // The guest has an account, and opens the invitation signed out (it signs in from the page).
      await signUpThroughApi(guestContext, server.base, guestCredentials);
      await guestContext.clearCookies();
      const headers = { origin: server.base };
      workspaceId = (
        (await (
          await ownerContext.request.post('/api/workspaces', {
            headers,
            data: { title: 'Lab reading list' },
          })
        ).json()) as ApiSchema<'Workspace'>
      ).id;
      const added = await ownerContext.request.post(`/api/workspaces/${workspaceId}/resources`, {
        headers,
        data: { title: 'Attention is all you need', authors: ['Ashish Vaswani'] },
      });
      if (added.status() !== 201) throw new Error(`seed: ${added.status()}`);
      owner = await ownerContext.newPage();
      guest = await guestContext.newPage();
      for (const page of [owner, guest])
        page.on('pageerror', (error) => pageErrors.push(error.message));
    }, 240_000);
    afterAll(async () => {
      await ownerContext?.close();
      await guestContext?.close();
      await browser?.close();
      await server?.close();
      expect(pageErrors).toEqual([]);
    });

    /** The role shown beside the workspace's name (on its page: one). */
    const roleShown = (page: Page) => page.locator('main .role-badge').allTextContents();
    const members = (page: Page) => page.getByRole('region', { name: 'Members' });
    const noSidewaysScroll = async (page: Page, what: string) => {
      await page.setViewportSize({ width: 360, height: 740 });
      const { scrollWidth, clientWidth } = await pageWidths(page);
      expect(scrollWidth, what).toBeLessThanOrEqual(clientWidth);
      await page.setViewportSize({ width: 1280, height: 800 });
    };

    it('the owner invites by e-mail; the link, signed out, leads through sign-in back to Join, and the editor sees an editor’s controls', async () => {
      await owner.goto(`/workspaces/${workspaceId}`);
      await expect.poll(() => roleShown(owner)).toEqual(['Owner']);
      await expect
        .poll(() => members(owner).getByText(`${ownerCredentials.name} (you)`).count())
        .toBe(1);

      const mail = await mailWrittenBy(server.t.dataDir, async () => {
        await members(owner).getByLabel('E-mail address to invite').fill(guestCredentials.email);
        await members(owner).getByLabel('Role', { exact: true }).selectOption('editor');
        await members(owner).getByRole('button', { name: 'Invite' }).click();
        await members(owner)
          .getByRole('button', { name: `Revoke the invitation to ${guestCredentials.email}` })
          .waitFor();
      });
      invitationPath = new URL(
        linkIn(mail, /http:\/\/127\.0\.0\.1:\d+\/invitations\/[A-Za-z0-9_-]+/),
      ).pathname;
      expect(await auditPage(owner, 'members-owner')).toEqual({});
      await noSidewaysScroll(owner, 'the owner’s members section');

      await guest.goto(invitationPath);
      await expect
        .poll(() => guest.locator('main').textContent())
        .toContain(`${ownerCredentials.name} invited you to Lab reading list as an editor.`);
      expect(await auditPage(guest, 'invitation-signed-out')).toEqual({});
      await noSidewaysScroll(guest, 'the invitation page');
      await guest.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
      await guest.getByLabel('Email').fill(guestCredentials.email);
      await guest.getByLabel('Password').fill(guestCredentials.password);
      await guest.getByRole('button', { name: 'Sign in' }).click();
      await guest.waitForURL(`**${invitationPath}`);
      await guest.getByRole('button', { name: 'Join' }).click();
      await guest.waitForURL(`**/workspaces/${workspaceId}`);

      await expect.poll(() => roleShown(guest)).toEqual(['Editor · shared with you']);
      // An editor changes the library and creates links, but does not rename, delete or manage members.
      await guest.getByRole('button', { name: 'Import…' }).waitFor();
      expect(await guest.getByRole('button', { name: 'Edit notes' }).count()).toBe(1);
      expect(await guest.getByRole('heading', { name: 'Share links' }).count()).toBe(1);
      expect(await guest.getByRole('button', { name: 'Rename' }).count()).toBe(0);
      expect(await guest.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      expect(await members(guest).getByLabel('E-mail address to invite').count()).toBe(0);
      expect(await members(guest).getByRole('button', { name: 'Leave workspace…' }).count()).toBe(
        1,
      );
    });

    it('refusals read as the service’s sentence; the owner makes the editor a viewer, who is offered nothing that changes the library', async () => {
      await owner.reload();
      // The guest is a member now: inviting them again is refused, said at the field.
      await members(owner).getByLabel('E-mail address to invite').fill(guestCredentials.email);
      await members(owner).getByRole('button', { name: 'Invite' }).click();
      await expect
        .poll(() => members(owner).textContent())
        .toContain('This person is already a member');
      expect(await auditPage(owner, 'members-refusal')).toEqual({});

      await members(owner).getByLabel(`Role of ${guestCredentials.name}`).selectOption('viewer');
      await members(owner).getByRole('button', { name: 'Change role' }).click();
      await expect
        .poll(
          async () =>
            (await (
              await ownerContext.request.get(`/api/workspaces/${workspaceId}/members`)
            ).json()) as ApiSchema<'MemberList'>,
        )
        .toMatchObject({
          members: expect.arrayContaining([
            expect.objectContaining({ email: guestCredentials.email, role: 'viewer' }),
          ]),
        });

      await guest.reload();
      await expect.poll(() => roleShown(guest)).toEqual(['Viewer · shared with you']);
      await guest.getByRole('heading', { name: 'Attention is all you need' }).waitFor();
      for (const name of [
        'Import…',
        'Add by identifier…',
        'Add PDFs…',
        'Edit notes',
        'Remove from workspace',
        'Tag selected…',
        'Remove selected…',
        'Attach PDF',
        'Rename',
        'Delete',
        'New item…',
        'Edit creators',
        'Add abstract',
        'Add field',
      ]) {
        expect(await guest.getByRole('button', { name, exact: true }).count(), name).toBe(0);
      }
      // The item pane reads as text: no field is a button, no type a select.
      expect(await guest.locator('.item-value, .item-type').count()).toBe(0);
      expect(await guest.locator('.item-pane .item-text').count()).toBeGreaterThan(0);
      expect(await guest.getByRole('heading', { name: 'Share links' }).count()).toBe(0);
      // Nor does the library take dropped PDFs (the drop zone's outline and handlers are not there).
      expect(await guest.locator('.pdf-drop').count()).toBe(0);
      // What a viewer may: read, export, annotate.
      expect(await guest.getByRole('button', { name: 'Add annotation' }).count()).toBe(1);
      expect(await guest.getByRole('heading', { name: 'Export' }).count()).toBe(1);
      // A viewer annotates; their words are theirs to edit.
      await guest.getByLabel('Annotation', { exact: true }).fill('A viewer’s note');
      await guest.getByRole('button', { name: 'Add annotation' }).click();
      const guestNote = guest.locator('.annotation').filter({ hasText: 'A viewer’s note' });
      await expect.poll(() => guestNote.textContent()).toContain(`by ${guestCredentials.name}`);
      expect(await guestNote.getByRole('button', { name: 'Edit' }).count()).toBe(1);
      expect(await auditPage(guest, 'members-viewer')).toEqual({});
      await noSidewaysScroll(guest, 'the viewer’s workspace');

      await guest.goto('/workspaces');
      await expect.poll(() => roleShown(guest)).toEqual(['Viewer · shared with you']);
      expect(await guest.getByRole('button', { name: 'Delete Lab reading list' }).count()).toBe(0);
    });

    it('the owner removes the member after a confirmation; their page is gone, and the used link says it cannot be used', async () => {
      // The owner sees who wrote the annotation, and may remove it but not change their words.
      await owner.reload();
      const note = owner.locator('.annotation').filter({ hasText: 'A viewer’s note' });
      await expect.poll(() => note.textContent()).toContain(`by ${guestCredentials.name}`);
      expect(await note.getByRole('button', { name: 'Edit' }).count()).toBe(0);
      expect(await note.getByRole('button', { name: 'Delete annotation' }).count()).toBe(1);
      await members(owner)
        .getByRole('button', { name: `Remove ${guestCredentials.name}…` })
        .click();
      const dialog = owner.getByRole('alertdialog');
      await expect
        .poll(() => dialog.textContent())
        .toContain(`${guestCredentials.name} can no longer open Lab reading list.`);
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await expect.poll(() => members(owner).getByText(guestCredentials.email).count()).toBe(0);

      await guest.goto(`/workspaces/${workspaceId}`);
      await guest.getByRole('heading', { name: 'Workspace not found' }).waitFor();
      await guest.goto(invitationPath);
      await guest.getByText('This invitation cannot be used').waitFor();
      expect(await auditPage(guest, 'invitation-unusable')).toEqual({});
      expect(await guest.getByRole('button', { name: 'Join' }).count()).toBe(0);
    });

    it('a member leaves after a confirmation and lands on their list; the owner hands ownership over and becomes an editor', async () => {
      const addGuest = async () => {
        const added = await ownerContext.request.post(`/api/workspaces/${workspaceId}/members`, {
          headers: { origin: server.base },
          data: { email: guestCredentials.email, role: 'viewer' },
        });
        expect(added.status()).toBe(201);
      };
      await addGuest();
      await guest.goto(`/workspaces/${workspaceId}`);
      await members(guest).getByRole('button', { name: 'Leave workspace…' }).click();
      await guest.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click();
      await guest.waitForURL('**/workspaces');
      await guest.getByText('No workspaces yet').waitFor();

      await addGuest();
      await owner.reload();
      await members(owner).getByRole('button', { name: 'Make owner…' }).click();
      const dialog = owner.getByRole('alertdialog');
      await expect.poll(() => dialog.textContent()).toContain('you become an editor');
      await dialog.getByRole('button', { name: 'Make owner' }).click();
      await expect.poll(() => roleShown(owner)).toEqual(['Editor · shared with you']);
      expect(await owner.getByRole('button', { name: 'Rename' }).count()).toBe(0);
      expect(await members(owner).getByLabel('E-mail address to invite').count()).toBe(0);
      await guest.goto(`/workspaces/${workspaceId}`);
      await expect.poll(() => roleShown(guest)).toEqual(['Owner']);
      await members(guest).getByLabel('E-mail address to invite').waitFor();
    });
  },
);
