/**
 * An inline form that changes a saved resource's notes and tags (comma-separated), through the API's
 * PATCH extension; the API's message shows at the field it names (`tags.2` is the Tags field). It is
 * sent with the version the form was opened on: when someone else saved the resource meanwhile, the
 * conflict dialog shows both versions and the user keeps theirs or takes the other.
 */
import { useState } from 'react';
import { ApiError } from '../../../api/errors';
import { useDraftField } from '../../../lib/drafts';
import { ConflictDialog, useEditConflict } from '../../../components/ConflictDialog';
import { FormAlert, TextField } from '../../../components/Field';
import { SubmitButton } from '../../../components/SubmitButton';
import { MarkdownField } from '../../../components/MarkdownField';
import { formError, keepDraft, submitWith, useZodForm } from '../../../lib/form';
import { parseResourceVersion, ResourceNotesForm as ResourceNotesSchema } from '../schemas';
import { useUpdateResource, type Resource } from '../hooks/use-workspaces';

/** The server's bound on notes (it strips HTML first, so it may keep less). */
const NOTES_MAX = 10_000;

/** The API names a tag by its place (`tags.1`): that is the Tags field's error, naming the tag as the form's own check does. */
function asFieldError(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.field) return error;
  const [field, index] = error.field.split('.');
  if (field !== 'tags' || index === undefined || !error.details.reason) return error;
  return new ApiError(
    error.status,
    error.code,
    `Tag ${Number(index) + 1}: ${error.details.reason}`,
    { ...error.details, field: 'tags' },
    error.retryAfter,
  );
}

/** The drafts of a resource's open notes form: kept while it is open, so a form that was open reopens with them. */
export const notesDraftKey = (resourceId: string) => `resource:${resourceId}:notes`;
export const tagsDraftKey = (resourceId: string) => `resource:${resourceId}:tags`;

export function ResourceNotesForm({
  resource,
  workspaceId,
  onDone,
}: {
  resource: Resource;
  workspaceId: string;
  onDone: () => void;
}) {
  const notesDraft = useDraftField(notesDraftKey(resource.id), resource.notes);
  const tagsDraft = useDraftField(tagsDraftKey(resource.id), resource.tags.join(', '));
  const form = useZodForm(ResourceNotesSchema, {
    defaultValues: { notes: notesDraft.value, tags: tagsDraft.value },
  });
  const update = useUpdateResource(workspaceId);
  // The version the user started from, not the one a refetch shows later.
  const [startedFrom] = useState(resource.version);
  const { conflict, attempt, keepMine, keepError, dismiss } = useEditConflict(
    parseResourceVersion,
    (yours: { notes: string; tags: string[] }, version: number) =>
      update.mutateAsync({ resourceId: resource.id, ...yours, version }),
  );
  const { errors, isSubmitting } = form.formState;
  const close = () => {
    notesDraft.discard();
    tagsDraft.discard();
    onDone();
  };
  const submit = submitWith(form, ['notes', 'tags'], async (values) => {
    const saved = await attempt(values, startedFrom).catch((error: unknown) => {
      throw asFieldError(error);
    });
    if (saved) close();
  });
  return (
    <>
      <ConflictDialog
        open={conflict !== null}
        fields={
          conflict
            ? [
                { label: 'Notes', theirs: conflict.theirs.notes, yours: conflict.yours.notes },
                {
                  label: 'Tags',
                  theirs: conflict.theirs.tags.join(', '),
                  yours: conflict.yours.tags.join(', '),
                },
              ]
            : []
        }
        pending={update.isPending}
        error={keepError}
        onKeepMine={() => void keepMine().then((saved) => saved && close())}
        onUseTheirs={() => {
          dismiss();
          close();
        }}
        onDismiss={dismiss}
      />
      <form
        className="form"
        onSubmit={(event) => void submit(event)}
        aria-label={`Notes and tags of ${resource.title}`}
      >
        <MarkdownField
          label="Notes"
          rows={4}
          limit={NOTES_MAX}
          value={form.watch('notes')}
          length={form.watch('notes').length}
          autoFocus
          {...form.register('notes', { onChange: keepDraft(notesDraft) })}
          error={errors.notes?.message}
        />
        <TextField
          label="Tags"
          hint="Separated by commas"
          {...form.register('tags', { onChange: keepDraft(tagsDraft) })}
          error={errors.tags?.message}
        />
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
    </>
  );
}
