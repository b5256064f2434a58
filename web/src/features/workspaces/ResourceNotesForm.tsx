/**
 * An inline form that changes a saved resource's notes and tags (comma-separated), through the API's
 * PATCH extension; the API's message shows at the field it names (`tags.2` is the Tags field).
 */
import type { FormEvent } from 'react';
import { ApiError, describeError } from '../../api/errors';
import { useDraft } from '../../app/drafts';
import { FormAlert, TextAreaField, TextField } from '../../components/Field';
import { useUpdateResource, type Resource } from './use-workspaces';
import { SubmitButton } from '../../components/SubmitButton';

/** The server's bound on notes (it strips HTML first, so it may keep less). */
const NOTES_MAX = 10_000;

/** `a, b ,, c` → `['a', 'b', 'c']`; the server trims, drops duplicates and checks each tag's length. */
function parseTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/** The API's error and the field it names; a tag's error (`tags.1`) is the Tags field's, naming the tag by its place. */
function fieldError(error: unknown): { field?: string; message: string | null } {
  if (!error) return { message: null };
  if (!(error instanceof ApiError) || !error.field) return { message: describeError(error) };
  const [field, index] = error.field.split('.');
  if (field === 'tags' && index !== undefined && error.details.reason) return { field, message: `Tag ${Number(index) + 1}: ${error.details.reason}` };
  return { field, message: describeError(error) };
}

/** The drafts of a resource's open notes form: kept while it is open, so a form that was open reopens with them. */
export const notesDraftKey = (resourceId: string) => `resource:${resourceId}:notes`;
export const tagsDraftKey = (resourceId: string) => `resource:${resourceId}:tags`;

export function ResourceNotesForm({ resource, workspaceId, onDone }: { resource: Resource; workspaceId: string; onDone: () => void }) {
  const [notes, setNotes, discardNotes] = useDraft(notesDraftKey(resource.id), resource.notes);
  const [tags, setTags, discardTags] = useDraft(tagsDraftKey(resource.id), resource.tags.join(', '));
  const update = useUpdateResource(workspaceId);
  const { field, message } = fieldError(update.error);
  const close = () => {
    discardNotes();
    discardTags();
    onDone();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ resourceId: resource.id, notes, tags: parseTags(tags) }, { onSuccess: close });
  };
  return (
    <form className="form" onSubmit={submit} aria-label={`Notes and tags of ${resource.title}`}>
      <TextAreaField label="Notes" rows={4} maxLength={NOTES_MAX} value={notes} autoFocus onChange={(event) => setNotes(event.target.value)} error={field === 'notes' ? message : null} />
      <TextField label="Tags" hint="Separated by commas" value={tags} onChange={(event) => setTags(event.target.value)} error={field === 'tags' ? message : null} />
      {message && field !== 'notes' && field !== 'tags' && <FormAlert>{message}</FormAlert>}
      <div className="row-actions">
        <SubmitButton pending={update.isPending} pendingLabel="Saving…">
          Save
        </SubmitButton>
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
