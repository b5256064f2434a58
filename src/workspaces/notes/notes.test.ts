/** POST /api/workspaces/{id}/resources/{resourceId}/notes: text appended to the notes, on the server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema, BearerReply } from '../../../test/support/api-types.js';
import { buildTestApp, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { addResource, createWorkspace, fakeResolver, UNKNOWN_ID } from '../test-support/helpers.js';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let workspaceId: string;

beforeAll(async () => {
  t = await buildTestApp({ build: { resolveResource: fakeResolver } });
  [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
  workspaceId = (await createWorkspace(t.app, owner)).id;
}, 60_000);
afterAll(async () => t?.close());

const append = (resourceId: string, text: unknown, user = owner, workspace = workspaceId) =>
  t.app.inject({
    method: 'POST',
    url: `/api/workspaces/${workspace}/resources/${resourceId}/notes`,
    headers: user.bearer,
    payload: { text },
  });
const notesOf = async (resourceId: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/workspaces/${workspaceId}/resources`,
      headers: owner.bearer,
    })
  )
    .json<ApiSchema<'Resource'>[]>()
    .find((each) => each.id === resourceId)?.notes;

describe('POST /api/workspaces/:id/resources/:resourceId/notes', () => {
  it('makes empty notes the text, and puts the text after notes there are, after a blank line', async () => {
    const { id } = await addResource(t.app, owner, workspaceId, { title: 'Empty notes' });
    const first = await append(id, 'TL;DR: one');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<BearerReply<'ResourceEnvelope'>>().resource.notes).toBe('TL;DR: one');
    expect((await append(id, 'TL;DR: two')).statusCode).toBe(200);
    expect(await notesOf(id)).toBe('TL;DR: one\n\nTL;DR: two');
  });

  it('keeps an edit saved meanwhile, and two appends at once both land', async () => {
    const { id } = await addResource(t.app, owner, workspaceId, { title: 'Edited', notes: 'Old' });
    // The dialog was opened on "Old"; the notes were edited in another tab before Save to notes.
    await t.app.inject({
      method: 'PATCH',
      url: `/api/workspaces/${workspaceId}/resources/${id}`,
      headers: owner.bearer,
      payload: { notes: 'Edited elsewhere' },
    });
    await Promise.all([append(id, 'A'), append(id, 'B')]);
    const notes = await notesOf(id);
    expect(notes?.startsWith('Edited elsewhere\n\n')).toBe(true);
    expect(notes?.split('\n\n').slice(1).sort()).toEqual(['A', 'B']);
  });

  it('refuses, writing nothing, when the notes would be longer than 10,000 characters, and says by how much', async () => {
    const { id } = await addResource(t.app, owner, workspaceId, {
      title: 'Full',
      notes: 'n'.repeat(9_990),
    });
    const res = await append(id, 'x'.repeat(20));
    expect(res.statusCode).toBe(409);
    // 9,990 + a blank line (2) + 20 = 10,012: 12 over.
    expect(res.json().error).toMatchObject({ details: { field: 'text', reason: 'notes_full' } });
    expect(res.json().error.message).toContain('10,012 characters, 12 more than the 10,000');
    expect(await notesOf(id)).toBe('n'.repeat(9_990));
    // Exactly at the limit is allowed.
    expect((await append(id, 'x'.repeat(8))).statusCode).toBe(200);
  });

  it("refuses empty and too long text (400, field named), no session (401), another user's resource (404)", async () => {
    const { id } = await addResource(t.app, owner, workspaceId, { title: 'Guarded' });
    for (const text of ['', '   ', 'x'.repeat(10_001), 42]) {
      const res = await append(id, text);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.field).toBe('text');
    }
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${workspaceId}/resources/${id}/notes`,
          payload: { text: 'x' },
        })
      ).statusCode,
    ).toBe(401);
    expect((await append(id, 'x', stranger)).statusCode).toBe(404);
    const theirs = (await createWorkspace(t.app, stranger)).id;
    expect((await append(id, 'x', stranger, theirs)).statusCode).toBe(404);
    expect((await append(UNKNOWN_ID, 'x')).statusCode).toBe(404);
    expect(await notesOf(id)).toBe('');
  });
});
