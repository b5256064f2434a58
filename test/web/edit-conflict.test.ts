/**
 * Two people edit the same resource's notes in Chromium (the owner, and an editor added through the
 * API), each in a browser context of their own with the workspace open, each served by another of two
 * server processes on one PostgreSQL database (as behind a load balancer). The owner saves first; the
 * editor's save, made from the version they opened, is refused (412) and the conflict dialog shows both
 * versions. `Keep mine` saves the editor's over it (the owner sees it after a reload); a second race
 * ends with `Use theirs`, which drops the editor's text and shows the owner's. axe on the dialog; no
 * sideways scrolling at 360 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import {
  auditPage,
  newCredentials,
  pageWidths,
  twoServersSkipReason,
  twoUsersOnTwoServers,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServerProcess,
} from '../support/web-browser.js';

const skipReason = webSkipReason ?? twoServersSkipReason();

describe.skipIf(skipReason)(
  'an edit that lost a race: the conflict dialog (Chromium, two users)',
  { timeout: JOURNEY_TIMEOUT_MS },
  () => {
    let journey: Awaited<ReturnType<typeof twoUsersOnTwoServers>>;
    let one: WebServerProcess;
    let ownerContext: BrowserContext;
    let owner: Page;
    let editor: Page;
    const ownerCredentials = newCredentials('owner');
    const editorCredentials = newCredentials('editor');
    let workspaceId: string;
    let resourceId: string;

    beforeAll(async () => {
      journey = await twoUsersOnTwoServers([ownerCredentials, editorCredentials]);
      const [ownerUser, editorUser] = journey.users;
      ({ server: one, context: ownerContext, page: owner } = ownerUser);
      editor = editorUser.page;
      const headers = { origin: one.base };
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
        data: { title: 'Attention is all you need', notes: 'First notes' },
      });
      resourceId = ((await added.json()) as ApiSchema<'Resource'>).id;
      const member = await ownerContext.request.post(`/api/workspaces/${workspaceId}/members`, {
        headers,
        data: { email: editorCredentials.email, role: 'editor' },
      });
      if (added.status() !== 201 || member.status() !== 201)
        throw new Error(`seed: ${added.status()} ${member.status()}`);
    }, 420_000);
    afterAll(async () => {
      await journey?.close();
      expect(journey?.pageErrors).toEqual([]);
    });

    const savedNotes = async () =>
      (
        (await (
          await ownerContext.request.get(`/api/workspaces/${workspaceId}`)
        ).json()) as ApiSchema<'WorkspaceWithResources'>
      ).resources.find((resource) => resource.id === resourceId)?.notes;
    const openNotes = async (page: Page) => {
      await page.goto(`/workspaces/${workspaceId}`);
      await page.getByRole('button', { name: 'Edit notes' }).click();
      return page.getByRole('form', { name: 'Notes and tags of Attention is all you need' });
    };
    /** Both open the notes; the owner saves `theirs`, then the editor saves `yours`, made from the version before: the editor's form and the dialog. */
    const raceOnNotes = async (theirs: string, yours: string) => {
      const editorForm = await openNotes(editor);
      const ownerForm = await openNotes(owner);
      await ownerForm.getByLabel('Notes').fill(theirs);
      await ownerForm.getByRole('button', { name: 'Save' }).click();
      await expect.poll(savedNotes).toBe(theirs);
      await editorForm.getByLabel('Notes').fill(yours);
      await editorForm.getByRole('button', { name: 'Save' }).click();
      const dialog = editor.getByRole('dialog', { name: 'Someone else changed this' });
      await dialog.waitFor();
      return { editorForm, dialog };
    };

    it('the later save shows both versions; Keep mine saves it, and the other user sees it after a reload', async () => {
      const { dialog } = await raceOnNotes('The owner’s reading', 'The editor’s reading');
      await expect
        .poll(() => dialog.getByRole('region', { name: 'Their version (saved)' }).textContent())
        .toContain('The owner’s reading');
      await expect
        .poll(() => dialog.getByRole('region', { name: 'Your version (not saved)' }).textContent())
        .toContain('The editor’s reading');
      // Nothing was written, and the editor's text is still in the form behind the dialog.
      expect(await savedNotes()).toBe('The owner’s reading');
      expect(await auditPage(editor, 'edit-conflict-dialog')).toEqual({});
      await editor.setViewportSize({ width: 360, height: 740 });
      const { scrollWidth, clientWidth } = await pageWidths(editor);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      await editor.setViewportSize({ width: 1280, height: 800 });

      await dialog.getByRole('button', { name: 'Keep mine' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(savedNotes).toBe('The editor’s reading');
      await owner.reload();
      await expect
        .poll(() => owner.locator('.resource-notes').textContent())
        .toContain('The editor’s reading');
    });

    it('Use theirs drops the later edit and shows the version saved', async () => {
      const { editorForm, dialog } = await raceOnNotes('The owner, again', 'The editor, again');
      await dialog.getByRole('button', { name: 'Use theirs' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect
        .poll(() => editor.locator('.resource-notes').textContent())
        .toContain('The owner, again');
      expect(await editorForm.count()).toBe(0);
      expect(await savedNotes()).toBe('The owner, again');
      // The dropped text is no draft to come back.
      await editor.reload();
      await editor.getByRole('button', { name: 'Edit notes' }).waitFor();
      expect(
        await editor
          .getByRole('form', { name: 'Notes and tags of Attention is all you need' })
          .count(),
      ).toBe(0);
    });
  },
);
