/** An inline form that renames a workspace (PATCH name); the API's message shows at the field. */
import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors';
import { TextField } from '../../components/Field';
import { useRenameWorkspace } from './use-workspaces';

export function RenameForm({ id, name, onDone }: { id: string; name: string; onDone(): void }) {
  const [value, setValue] = useState(name);
  const rename = useRenameWorkspace(id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate(value.trim(), { onSuccess: onDone });
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <TextField label="Workspace name" required maxLength={200} value={value} autoFocus onChange={(event) => setValue(event.target.value)} error={rename.error ? describeError(rename.error) : null} />
      <button type="submit" className="button button-primary" disabled={rename.isPending || value.trim() === ''}>
        {rename.isPending ? 'Renaming…' : 'Save name'}
      </button>
      <button type="button" className="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
