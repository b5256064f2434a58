/**
 * Save a search result to one of the user's workspaces, or to a new one named on the spot. The
 * same work saved twice is answered 409 by the API: the dialog says it is already there.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { ApiError, describeError } from '../../../api/errors';
import { TextField } from '../../../components/Field';
import { useToast } from '../../../components/Toasts';
import { closeOnEscapeUnderToasts, useDialogFocusReturn } from '../../../components/dialog-focus';
import type { SearchResult } from '../../../api/types';
import {
  resourceFromResult,
  useAddResource,
  useCreateWorkspace,
  useWorkspaces,
} from '../hooks/use-workspaces';
import '../../features.css';
import { SubmitButton } from '../../../components/SubmitButton';
import { submitOnce, useZodForm } from '../../../lib/form';
import { NEW_WORKSPACE, SaveToWorkspaceForm } from '../schemas';

/**
 * `onSaved` hears where the result was saved (the page shows it as in the library); `preferWorkspaceId`
 * is chosen first when it is one of the user's (a workspace page saves into itself by default).
 */
export function SaveDialog({
  result,
  onClose,
  onSaved,
  preferWorkspaceId,
}: {
  result: SearchResult | null;
  onClose: () => void;
  onSaved?: (
    result: SearchResult,
    place: { workspaceId: string; workspaceName: string; resourceId: string },
  ) => void;
  preferWorkspaceId?: string;
}) {
  const workspaces = useWorkspaces(result !== null);
  // A viewer adds nothing: only the workspaces the user owns or edits are offered.
  const writable = useMemo(
    () => workspaces.data?.filter((workspace) => workspace.role !== 'viewer'),
    [workspaces.data],
  );
  const createWorkspace = useCreateWorkspace();
  const addResource = useAddResource();
  const { reset: resetAddResource } = addResource;
  const { reset: resetCreateWorkspace } = createWorkspace;
  const toast = useToast();
  const returnFocus = useDialogFocusReturn();
  const form = useZodForm(SaveToWorkspaceForm, { defaultValues: { workspace: '', newName: '' } });
  const [choice, newName] = useWatch({ control: form.control, name: ['workspace', 'newName'] });
  const [saved, setSaved] = useState<{ id: string; name: string } | null>(null);

  useEffect(() => {
    if (!result) return;
    setSaved(null);
    resetAddResource();
    resetCreateWorkspace();
  }, [result, resetAddResource, resetCreateWorkspace]);
  useEffect(() => {
    if (choice !== '' || !writable) return;
    const preferred = writable.find((workspace) => workspace.id === preferWorkspaceId);
    form.setValue('workspace', preferred?.id ?? writable[0]?.id ?? NEW_WORKSPACE);
  }, [choice, writable, form, preferWorkspaceId]);

  // A 409 (the work is already there) is no failure to show as one: the mutations' errors are read here.
  const error = createWorkspace.error ?? addResource.error;
  const alreadyThere = error instanceof ApiError && error.status === 409;
  const { errors, isSubmitting } = form.formState;

  const submit = submitOnce(form, async ({ workspace, newName }) => {
    if (!result) return;
    setSaved(null);
    createWorkspace.reset();
    addResource.reset();
    let target: { id: string; name: string };
    if (workspace === NEW_WORKSPACE) {
      const created = await createWorkspace.mutateAsync(newName.trim()).catch(() => null);
      if (!created) return; // Shown below from the mutation's error.
      target = { id: created.id, name: created.name };
      form.reset({ workspace: created.id, newName: '' });
    } else {
      const existing = workspaces.data?.find((candidate) => candidate.id === workspace);
      if (!existing) return;
      target = { id: existing.id, name: existing.name };
    }
    let resourceId: string;
    try {
      resourceId = (
        await addResource.mutateAsync({
          workspaceId: target.id,
          resource: resourceFromResult(result),
        })
      ).id;
    } catch {
      return; // Shown below from the mutation's error.
    }
    setSaved(target);
    onSaved?.(result, { workspaceId: target.id, workspaceName: target.name, resourceId });
    toast(`Saved to ${target.name}`);
  });

  const chosenName = workspaces.data?.find((workspace) => workspace.id === choice)?.name;
  return (
    <Dialog.Root open={result !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          aria-describedby={undefined}
          {...returnFocus}
          {...closeOnEscapeUnderToasts(onClose)}
        >
          <Dialog.Title>Save to a workspace</Dialog.Title>
          {result && <p className="summary-of">{result.title}</p>}
          {workspaces.isPending && <p role="status">Loading your workspaces…</p>}
          {workspaces.isError && (
            <div className="state state-error" role="alert">
              <p>{describeError(workspaces.error)}</p>
              <button type="button" className="button" onClick={() => void workspaces.refetch()}>
                Try again
              </button>
            </div>
          )}
          {writable && (
            <form className="form" onSubmit={(event) => void submit(event)}>
              <div className="field">
                <label htmlFor="save-workspace">Workspace</label>
                {/* Controlled as well: a workspace created here is chosen before its option is drawn. */}
                <select id="save-workspace" {...form.register('workspace')} value={choice}>
                  {writable.map((workspace) => (
                    <option key={workspace.id} value={workspace.id}>
                      {workspace.name} ({workspace._count.resources})
                    </option>
                  ))}
                  <option value={NEW_WORKSPACE}>New workspace…</option>
                </select>
              </div>
              {choice === NEW_WORKSPACE && (
                <TextField
                  label="New workspace name"
                  required
                  maxLength={200}
                  {...form.register('newName')}
                  error={
                    errors.newName?.message ??
                    (createWorkspace.error instanceof ApiError && createWorkspace.error.field
                      ? createWorkspace.error.message
                      : null)
                  }
                />
              )}
              {saved && (
                <p className="form-notice" role="status">
                  Saved to <Link to={`/workspaces/${saved.id}`}>{saved.name}</Link>.
                </p>
              )}
              {alreadyThere && (
                <p className="form-notice" role="status">
                  This work is already in{' '}
                  {chosenName ? (
                    <Link to={`/workspaces/${choice}`}>{chosenName}</Link>
                  ) : (
                    'that workspace'
                  )}
                  .
                </p>
              )}
              {error && !alreadyThere && (
                <p className="form-alert" role="alert">
                  {describeError(error)}
                </p>
              )}
              <div className="dialog-actions">
                <SubmitButton
                  pending={isSubmitting}
                  pendingLabel="Saving…"
                  disabled={choice === NEW_WORKSPACE && newName.trim() === ''}
                >
                  Save
                </SubmitButton>
                <Dialog.Close className="button">Close</Dialog.Close>
              </div>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
