/**
 * An inline form that renames a workspace (PATCH name); the API's message shows at the field. The
 * name being typed is a draft (app/drafts.ts) until it is saved or the form is cancelled.
 */
import { useDraftField } from '../../app/drafts';
import { TextField } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { keepDraft, submitWith, useZodForm } from '../../lib/form';
import { WorkspaceNameForm } from './schemas';
import { useRenameWorkspace } from './use-workspaces';

/** The draft key of a workspace's rename form: its page opens the form again when one is kept. */
export const renameDraftKey = (id: string) => `workspace:${id}:rename`;

export function RenameForm({ id, name, onDone }: { id: string; name: string; onDone: () => void }) {
  const draft = useDraftField(renameDraftKey(id), name);
  const form = useZodForm(WorkspaceNameForm, { defaultValues: { name: draft.value } });
  const rename = useRenameWorkspace(id);
  const { errors, isSubmitting, isValid } = form.formState;
  const finish = () => {
    draft.discard();
    onDone();
  };
  const submit = submitWith(form, { allAt: 'name' }, async (values) => {
    await rename.mutateAsync(values.name);
    finish();
  });
  return (
    <form className="inline-form" onSubmit={(event) => void submit(event)}>
      <TextField label="Workspace name" required maxLength={200} autoFocus {...form.register('name', { onChange: keepDraft(draft) })} error={errors.name?.message} />
      <SubmitButton pending={isSubmitting} pendingLabel="Renaming…" disabled={!isValid}>
        Save name
      </SubmitButton>
      <button type="button" className="button" onClick={finish}>
        Cancel
      </button>
    </form>
  );
}
