/**
 * The library list's actions on the resources chosen: tag (add and take off), move to another
 * workspace (the API reports those already there, left where they were). Removal asks through
 * ConfirmDialog. Each closes on success and says what happened in a toast.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../../api/errors';
import { FormAlert, TextField } from '../../../components/Field';
import { useDialogFocusReturn } from '../../../components/dialog-focus';
import { SubmitButton } from '../../../components/SubmitButton';
import { useToast } from '../../../components/Toasts';
import { formError, submitWith, useZodForm } from '../../../lib/form';
import { plural } from '../../../lib/plural';
import { BulkMoveForm, BulkTagForm } from '../schemas';
import {
  type BulkTagInput,
  useMoveResources,
  useTagResources,
  useWorkspaces,
} from '../hooks/use-workspaces';

interface BulkDialogProps {
  open: boolean;
  workspaceId: string;
  resourceIds: string[];
  onClose: () => void;
  onDone: () => void;
}

export function BulkTagDialog({
  open,
  workspaceId,
  resourceIds,
  onClose,
  onDone,
}: BulkDialogProps) {
  const form = useZodForm(BulkTagForm, { defaultValues: { add: '', remove: '' } });
  const tag = useTagResources(workspaceId);
  const toast = useToast();
  const returnFocus = useDialogFocusReturn();
  const { errors, isSubmitting } = form.formState;
  const { reset } = form;
  useEffect(() => {
    if (open) reset({ add: '', remove: '' });
  }, [open, reset]);
  const submit = submitWith(form, ['add', 'remove'], async ({ add, remove }) => {
    const body: BulkTagInput = add.length
      ? { resourceIds, add, ...(remove.length ? { remove } : {}) }
      : { resourceIds, remove };
    const reply = await tag.mutateAsync(body);
    toast(`Tags changed on ${plural(reply.updated.length, 'resource')}`);
    onDone();
  });
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined} {...returnFocus}>
          <Dialog.Title>Tag {plural(resourceIds.length, 'resource')}</Dialog.Title>
          <form className="form" onSubmit={(event) => void submit(event)}>
            <TextField
              label="Tags to add"
              hint="Separated by commas"
              {...form.register('add')}
              error={errors.add?.message}
            />
            <TextField
              label="Tags to remove"
              hint="Separated by commas; any case"
              {...form.register('remove')}
              error={errors.remove?.message}
            />
            {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
            <div className="dialog-actions">
              <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
                Apply tags
              </SubmitButton>
              <Dialog.Close className="button">Cancel</Dialog.Close>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function BulkMoveDialog({
  open,
  workspaceId,
  resourceIds,
  onClose,
  onDone,
}: BulkDialogProps) {
  const workspaces = useWorkspaces(open);
  const others = (workspaces.data ?? []).filter((workspace) => workspace.id !== workspaceId);
  const form = useZodForm(BulkMoveForm, { defaultValues: { target: '' } });
  const move = useMoveResources(workspaceId);
  const toast = useToast();
  const returnFocus = useDialogFocusReturn();
  const { errors, isSubmitting } = form.formState;
  const { reset } = form;
  const firstOther = others[0]?.id ?? '';
  useEffect(() => {
    if (open) reset({ target: firstOther });
  }, [open, reset, firstOther]);
  const submit = submitWith(form, ['target'], async ({ target }) => {
    const reply = await move.mutateAsync({ resourceIds, targetWorkspaceId: target });
    const name = others.find((workspace) => workspace.id === target)?.name ?? 'the workspace';
    const left =
      reply.duplicates.length > 0
        ? `; ${plural(reply.duplicates.length, 'was', 'were')} already there and stayed here`
        : '';
    toast(`Moved ${plural(reply.moved.length, 'resource')} to ${name}${left}`);
    onDone();
  });
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined} {...returnFocus}>
          <Dialog.Title>Move {plural(resourceIds.length, 'resource')}</Dialog.Title>
          {workspaces.isPending && <p role="status">Loading your workspaces…</p>}
          {workspaces.isError && (
            <p className="form-alert" role="alert">
              {describeError(workspaces.error)}
            </p>
          )}
          {workspaces.data && others.length === 0 && (
            <p>
              You have no other workspace. <Link to="/workspaces">Create one</Link> first.
            </p>
          )}
          {others.length > 0 && (
            <form className="form" onSubmit={(event) => void submit(event)}>
              <div className={`field${errors.target ? ' field-invalid' : ''}`}>
                <label htmlFor="move-target">To workspace</label>
                <select
                  id="move-target"
                  {...form.register('target')}
                  aria-invalid={errors.target ? true : undefined}
                  aria-describedby={errors.target ? 'move-target-error' : undefined}
                >
                  {others.map((workspace) => (
                    <option key={workspace.id} value={workspace.id}>
                      {workspace.name} ({workspace._count.resources})
                    </option>
                  ))}
                </select>
                {errors.target && (
                  <p id="move-target-error" className="field-error">
                    {errors.target.message}
                  </p>
                )}
              </div>
              {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
              <div className="dialog-actions">
                <SubmitButton pending={isSubmitting} pendingLabel="Moving…">
                  Move
                </SubmitButton>
                <Dialog.Close className="button">Cancel</Dialog.Close>
              </div>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
