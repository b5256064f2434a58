/**
 * An inline form that renames a workspace (PATCH name); the API's message shows at the field. The
 * name being typed is a draft (app/drafts.ts) until it is saved or the form is cancelled. It is sent
 * with the version the form was opened on; a rename someone else saved meanwhile opens the conflict dialog.
 */
import { useState } from 'react';
import { useDraftField } from '../../../lib/drafts';
import { ConflictDialog, useEditConflict } from '../../../components/ConflictDialog';
import { TextField } from '../../../components/Field';
import { SubmitButton } from '../../../components/SubmitButton';
import { keepDraft, submitWith, useZodForm } from '../../../lib/form';
import { parseWorkspaceVersion, WorkspaceNameForm } from '../schemas';
import { useRenameWorkspace } from '../hooks/use-workspaces';

/** The draft key of a workspace's rename form: its page opens the form again when one is kept. */
export const renameDraftKey = (id: string) => `workspace:${id}:rename`;

export function RenameForm({
  id,
  name,
  version,
  onDone,
}: {
  id: string;
  name: string;
  version: number;
  onDone: () => void;
}) {
  const draft = useDraftField(renameDraftKey(id), name);
  const form = useZodForm(WorkspaceNameForm, { defaultValues: { name: draft.value } });
  const rename = useRenameWorkspace(id);
  const [startedFrom] = useState(version);
  const { conflict, attempt, keepMine, keepError, dismiss } = useEditConflict(
    parseWorkspaceVersion,
    (yours: string, from: number) => rename.mutateAsync({ name: yours, version: from }),
  );
  const { errors, isSubmitting, isValid } = form.formState;
  const finish = () => {
    draft.discard();
    onDone();
  };
  const submit = submitWith(form, { allAt: 'name' }, async (values) => {
    if (await attempt(values.name, startedFrom)) finish();
  });
  return (
    <>
      <ConflictDialog
        open={conflict !== null}
        fields={
          conflict ? [{ label: 'Name', theirs: conflict.theirs.name, yours: conflict.yours }] : []
        }
        pending={rename.isPending}
        error={keepError}
        onKeepMine={() => void keepMine().then((saved) => saved && finish())}
        onUseTheirs={() => {
          dismiss();
          finish();
        }}
        onDismiss={dismiss}
      />
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <TextField
          label="Workspace name"
          required
          maxLength={200}
          autoFocus
          {...form.register('name', { onChange: keepDraft(draft) })}
          error={errors.name?.message}
        />
        <SubmitButton pending={isSubmitting} pendingLabel="Renaming…" disabled={!isValid}>
          Save name
        </SubmitButton>
        <button type="button" className="button" onClick={finish}>
          Cancel
        </button>
      </form>
    </>
  );
}
