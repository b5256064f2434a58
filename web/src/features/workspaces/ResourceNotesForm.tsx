/**
 * An inline form that changes a saved resource's notes and tags (comma-separated), through the API's
 * PATCH extension; the API's message shows at the field it names (`tags.2` is the Tags field).
 */
import { ApiError } from '../../api/errors';
import { useDraftField } from '../../app/drafts';
import { FormAlert, TextAreaField, TextField } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { formError, keepDraft, submitWith, useZodForm } from '../../lib/form';
import { ResourceNotesForm as ResourceNotesSchema } from './schemas';
import { useUpdateResource, type Resource } from './use-workspaces';

/** The server's bound on notes (it strips HTML first, so it may keep less). */
const NOTES_MAX = 10_000;

/** The API names a tag by its place (`tags.1`): that is the Tags field's error, naming the tag as the form's own check does. */
function asFieldError(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.field) return error;
  const [field, index] = error.field.split('.');
  if (field !== 'tags' || index === undefined || !error.details.reason) return error;
  return new ApiError(error.status, error.code, `Tag ${Number(index) + 1}: ${error.details.reason}`, { ...error.details, field: 'tags' }, error.retryAfter);
}

/** The drafts of a resource's open notes form: kept while it is open, so a form that was open reopens with them. */
export const notesDraftKey = (resourceId: string) => `resource:${resourceId}:notes`;
export const tagsDraftKey = (resourceId: string) => `resource:${resourceId}:tags`;

export function ResourceNotesForm({ resource, workspaceId, onDone }: { resource: Resource; workspaceId: string; onDone: () => void }) {
  const notesDraft = useDraftField(notesDraftKey(resource.id), resource.notes);
  const tagsDraft = useDraftField(tagsDraftKey(resource.id), resource.tags.join(', '));
  const form = useZodForm(ResourceNotesSchema, { defaultValues: { notes: notesDraft.value, tags: tagsDraft.value } });
  const update = useUpdateResource(workspaceId);
  const { errors, isSubmitting } = form.formState;
  const close = () => {
    notesDraft.discard();
    tagsDraft.discard();
    onDone();
  };
  const submit = submitWith(form, ['notes', 'tags'], async ({ notes, tags }) => {
    await update.mutateAsync({ resourceId: resource.id, notes, tags }).catch((error: unknown) => {
      throw asFieldError(error);
    });
    close();
  });
  return (
    <form className="form" onSubmit={(event) => void submit(event)} aria-label={`Notes and tags of ${resource.title}`}>
      <TextAreaField label="Notes" rows={4} limit={NOTES_MAX} length={form.watch('notes').length} autoFocus {...form.register('notes', { onChange: keepDraft(notesDraft) })} error={errors.notes?.message} />
      <TextField label="Tags" hint="Separated by commas" {...form.register('tags', { onChange: keepDraft(tagsDraft) })} error={errors.tags?.message} />
      {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
      <div className="row-actions">
        <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
          Save
        </SubmitButton>
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
