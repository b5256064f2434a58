/**
 * An inline form that renames a workspace (PATCH name); the API's message shows at the field. The
 * name being typed is a draft (app/drafts.ts) until it is saved or the form is cancelled.
 */
import { type FormEvent } from 'react';
import { describeError } from '../../api/errors';
import { useDraft } from '../../app/drafts';
import { TextField } from '../../components/Field';
import { useRenameWorkspace } from './use-workspaces';
import { SubmitButton } from '../../components/SubmitButton';

/** The draft key of a workspace's rename form: its page opens the form again when one is kept. */
export const renameDraftKey = (id: string) => `workspace:${id}:rename`;

export function RenameForm({ id, name, onDone }: { id: string; name: string; onDone: () => void }) {
  const [value, setValue, discard] = useDraft(renameDraftKey(id), name);
  const rename = useRenameWorkspace(id);
  const finish = () => {
    discard();
    onDone();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate(value.trim(), { onSuccess: finish });
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <TextField label="Workspace name" required maxLength={200} value={value} autoFocus onChange={(event) => setValue(event.target.value)} error={rename.error ? describeError(rename.error) : null} />
      <SubmitButton pending={rename.isPending} pendingLabel="Renaming…" disabled={value.trim() === ''}>
        Save name
      </SubmitButton>
      <button type="button" className="button" onClick={finish}>
        Cancel
      </button>
    </form>
  );
}
