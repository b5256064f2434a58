/** The workspace forms' checks: what they send, and the messages a user sees before anything is sent. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import {
  NEW_WORKSPACE,
  ResourceNotesForm,
  SaveToWorkspaceForm,
  WorkspaceNameForm,
} from './schemas';

const messages = (result: { success: boolean; error?: z.core.$ZodError }) =>
  result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

describe('workspace form schemas', () => {
  it('sends a name trimmed, and refuses a blank one or one over 200 characters', () => {
    expect(WorkspaceNameForm.parse({ name: '  Catalysis  ' })).toEqual({ name: 'Catalysis' });
    expect(messages(WorkspaceNameForm.safeParse({ name: '   ' }))).toEqual([
      ['name', 'Enter a name.'],
    ]);
    expect(messages(WorkspaceNameForm.safeParse({ name: 'x'.repeat(201) }))).toEqual([
      ['name', 'At most 200 characters.'],
    ]);
  });

  it('sends tags as a list, and names a tag over 50 characters by its place, as the API does', () => {
    expect(ResourceNotesForm.parse({ notes: 'n', tags: ' vision, ,resnets ,' })).toEqual({
      notes: 'n',
      tags: ['vision', 'resnets'],
    });
    expect(
      messages(ResourceNotesForm.safeParse({ notes: '', tags: `ok, ${'t'.repeat(51)}` })),
    ).toEqual([['tags', 'Tag 2: must be at most 50 characters']]);
    expect(
      messages(
        ResourceNotesForm.safeParse({
          notes: '',
          tags: Array.from({ length: 21 }, (_, index) => `t${index}`).join(','),
        }),
      ),
    ).toEqual([['tags', 'At most 20 tags.']]);
  });

  it('asks for a name only when saving to a new workspace', () => {
    expect(SaveToWorkspaceForm.safeParse({ workspace: 'abc', newName: '' }).success).toBe(true);
    expect(
      messages(SaveToWorkspaceForm.safeParse({ workspace: NEW_WORKSPACE, newName: ' ' })),
    ).toEqual([['newName', 'Enter a name.']]);
  });
});
