/**
 * Live updates in Chromium, across two built server processes on one PostgreSQL database (as behind a
 * load balancer): the owner's browser talks to server 1, the member's to server 2. The owner invites
 * the other in the members panel; the member opens the mail's link on server 2 and joins, and appears
 * in the owner's members panel without a reload; both open the workspace. A resource the owner adds through server 1 appears
 * on the member's page without a reload, and is said in the page's live region; the member's edit
 * and removal through server 2 appear on the owner's page; the owner removes the member, whose page
 * leaves for the workspace list with a message. The owner's activity log lists every change, and its
 * own last one without a reload. axe on the page whose live region speaks, and on the open log.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { linkIn, mailWrittenBy } from '../support/outbox.js';
import {
  auditPage,
  JOURNEY_TIMEOUT_MS,
  newCredentials,
  twoServersSkipReason,
  twoUsersOnTwoServers,
  webSkipReason,
  type WebServerProcess,
} from '../support/web-browser.js';

const skipReason = webSkipReason ?? twoServersSkipReason();
if (skipReason) console.warn(skipReason);

/** How long a change may take to reach the other page: the service promises a second; Chromium on a loaded 2-core machine adds to it. */
const SEEN_WITHIN_MS = 8_000;

describe.skipIf(skipReason)(
  'live updates across two server processes (Chromium, two users)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Awaited<ReturnType<typeof twoUsersOnTwoServers>>;
    let one: WebServerProcess;
    let two: WebServerProcess;
    let ownerContext: BrowserContext;
    let owner: Page;
    let member: Page;
    const ownerCredentials = newCredentials('live-owner');
    const memberCredentials = newCredentials('live-member');
    let workspaceId: string;
    const seen: Record<string, number> = {};

    // Long: a run that starts with this file builds the service and the app first (shared with the rest of a full run), then starts two processes.
    beforeAll(async () => {
      journey = await twoUsersOnTwoServers([ownerCredentials, memberCredentials]);
      const [ownerUser, memberUser] = journey.users;
      ({ server: one, context: ownerContext, page: owner } = ownerUser);
      ({ server: two, page: member } = memberUser);
      const workspace = await ownerContext.request.post('/api/workspaces', {
        headers: { origin: one.base },
        data: { title: 'Lab reading list' },
      });
      workspaceId = ((await workspace.json()) as ApiSchema<'Workspace'>).id;
      const seeded = await ownerContext.request.post(`/api/workspaces/${workspaceId}/resources`, {
        headers: { origin: one.base },
        data: { title: 'Deep residual learning' },
      });
      if (seeded.status() !== 201)
        throw new Error(`seed: ${seeded.status()} ${await seeded.text()}`);
    }, 420_000);

    afterAll(async () => {
      await journey?.close();
      console.info(`live updates, change to the other page (ms): ${JSON.stringify(seen)}`);
      expect(journey?.pageErrors).toEqual([]);
    });

    /** The workspace page's one live region (features/live-updates/components/LiveAnnouncer.tsx). */
    const liveRegion = (page: Page) => page.locator('main p.live-announcer[role="status"]');
    const titleLink = (page: Page, title: string) =>
      page.getByRole('link', { name: title, exact: true });
    /** Opens the workspace and waits until its stream is open (the service answered the EventSource). */
    const openWorkspace = async (page: Page, base: string) => {
      const streamOpened = page.waitForResponse(
        (response) =>
          response.url().startsWith(`${base}/api/workspaces/${workspaceId}/events`) &&
          response.status() === 200,
      );
      await page.goto(`/workspaces/${workspaceId}`);
      await titleLink(page, 'Deep residual learning').waitFor();
      await streamOpened;
    };

    it(
      'the owner invites through the members panel on server 1; the member ' +
        'joins from the mail’s link on server 2 and appears on the owner’s page',
      async () => {
        await openWorkspace(owner, one.base);
        const ownerMembers = owner.getByRole('region', { name: 'Members' });
        // The mail is written by server 1, which sent it.
        const mail = await mailWrittenBy(one.dataDir, async () => {
          await ownerMembers.getByLabel('E-mail address to invite').fill(memberCredentials.email);
          await ownerMembers.getByLabel('Role', { exact: true }).selectOption('editor');
          await ownerMembers.getByRole('button', { name: 'Invite' }).click();
          await ownerMembers
            .getByRole('button', { name: `Revoke the invitation to ${memberCredentials.email}` })
            .waitFor();
        });
        const invitationPath = new URL(
          linkIn(mail, /http:\/\/127\.0\.0\.1:\d+\/invitations\/[A-Za-z0-9_-]+/),
        ).pathname;
        await member.goto(invitationPath);
        await member.getByRole('button', { name: 'Join' }).click();
        const joinedAt = Date.now();
        await member.waitForURL(`**/workspaces/${workspaceId}`);
        // The owner's page learns of the new member from the change log, without a reload.
        await ownerMembers
          .getByRole('button', { name: `Remove ${memberCredentials.name}…` })
          .waitFor({ timeout: SEEN_WITHIN_MS });
        seen.joined = Date.now() - joinedAt;
        await expect
          .poll(() => liveRegion(owner).textContent())
          .toBe(`${memberCredentials.name} joined the workspace`);
        // Accepted, the invitation leaves the owner's list of those waiting.
        expect(
          await ownerMembers
            .getByRole('button', { name: `Revoke the invitation to ${memberCredentials.email}` })
            .count(),
        ).toBe(0);
      },
    );

    it('a resource the owner adds through server 1 appears on the member’s page on server 2, said in its live region', async () => {
      await openWorkspace(owner, one.base);
      await openWorkspace(member, two.base);

      const addedAt = Date.now();
      const added = await ownerContext.request.post(`/api/workspaces/${workspaceId}/resources`, {
        headers: { origin: one.base },
        data: { title: 'Attention is all you need' },
      });
      expect(added.status()).toBe(201);
      await titleLink(member, 'Attention is all you need').waitFor({ timeout: SEEN_WITHIN_MS });
      seen.added = Date.now() - addedAt;
      await expect
        .poll(() => liveRegion(member).textContent())
        .toBe(`${ownerCredentials.name} added ‘Attention is all you need’`);
      // The count beside the heading follows too, still without a reload.
      await expect
        .poll(() => member.getByRole('heading', { name: /^Resources/ }).textContent())
        .toBe('Resources (2)');
      expect(await auditPage(member, 'live-updates-announced')).toEqual({});
    });

    it(
      'the member’s edit and removal through server 2 appear on the owner’s ' +
        'page; the member’s own page says nothing of its own changes; the ' +
        'owner’s activity log lists who did what',
      async () => {
        await titleLink(member, 'Attention is all you need').click();
        const panel = member.getByRole('region', { name: 'Details: Attention is all you need' });
        await panel.getByRole('button', { name: 'Edit notes' }).click();
        await panel.getByLabel('Notes', { exact: true }).fill('Read section 3 first');
        const editedAt = Date.now();
        await panel.getByRole('button', { name: 'Save' }).click();

        await titleLink(owner, 'Attention is all you need').click();
        await owner.getByText('Read section 3 first').waitFor({ timeout: SEEN_WITHIN_MS });
        seen.edited = Date.now() - editedAt;
        await expect
          .poll(() => liveRegion(owner).textContent())
          .toBe(`${memberCredentials.name} edited ‘Attention is all you need’`);

        await titleLink(member, 'Deep residual learning').click();
        const removedAt = Date.now();
        await member
          .getByRole('region', { name: 'Details: Deep residual learning' })
          .getByRole('button', { name: 'Remove from workspace' })
          .click();
        await expect
          .poll(() => titleLink(owner, 'Deep residual learning').count(), {
            timeout: SEEN_WITHIN_MS,
          })
          .toBe(0);
        seen.removed = Date.now() - removedAt;
        await expect
          .poll(() => liveRegion(owner).textContent())
          .toBe(`${memberCredentials.name} removed ‘Deep residual learning’`);
        // Its own changes are not announced back to the member (the owner's addition is still the last word).
        expect(await liveRegion(member).textContent()).toBe(
          `${ownerCredentials.name} added ‘Attention is all you need’`,
        );

        // The owner's activity log says who did what, the owner's own changes as “You”.
        await owner.getByRole('button', { name: 'Show activity' }).click();
        const log = owner.getByRole('region', { name: 'Activity' }).getByRole('listitem');
        await log.first().waitFor();
        await expect
          .poll(async () => (await log.allTextContents()).map((line) => line.split(' · ')[0]))
          .toEqual([
            `${memberCredentials.name} removed ‘Deep residual learning’`,
            `${memberCredentials.name} edited ‘Attention is all you need’`,
            'You added ‘Attention is all you need’',
            `${memberCredentials.name} joined as an editor`,
            'You added ‘Deep residual learning’',
          ]);
        expect(await auditPage(owner, 'activity-open')).toEqual({});
      },
    );

    it('the owner removes the member through server 1; the member’s page leaves for the workspace list and says why', async () => {
      const members = owner.getByRole('region', { name: 'Members' });
      await members.getByRole('button', { name: `Remove ${memberCredentials.name}…` }).click();
      const removedAt = Date.now();
      await owner.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();

      await member.waitForURL((url) => url.pathname === '/workspaces', { timeout: SEEN_WITHIN_MS });
      seen.memberRemoved = Date.now() - removedAt;
      await member
        .getByText(`${ownerCredentials.name} removed you from Lab reading list.`, { exact: true })
        .waitFor();
      await expect
        .poll(() => member.getByRole('link', { name: 'Lab reading list' }).count())
        .toBe(0);
      // The owner's open activity log has the removal at its top, naming who, without a reload.
      await expect
        .poll(
          async () =>
            (
              await owner
                .getByRole('region', { name: 'Activity' })
                .getByRole('listitem')
                .first()
                .textContent()
            )?.split(' · ')[0],
        )
        .toBe(`You removed ${memberCredentials.name}`);
    });
  },
);
