/** Asks before something is deleted for good; the confirming button is named `Delete` (or `confirmLabel`). */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { describeError } from '../api/errors';
import { useDialogFocusReturn } from './dialog-focus';

export function ConfirmDialog({
  open,
  title,
  children,
  pending,
  error,
  onConfirm,
  onCancel,
  confirmLabel = 'Delete',
  pendingLabel = 'Deleting…',
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
  confirmLabel?: string;
  pendingLabel?: string;
}) {
  const returnFocus = useDialogFocusReturn();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog" {...returnFocus}>
          <Dialog.Title>{title}</Dialog.Title>
          <Dialog.Description>{children}</Dialog.Description>
          {error != null && (
            <p className="form-alert" role="alert">
              {describeError(error)}
            </p>
          )}
          <div className="dialog-actions">
            <button
              type="button"
              className="button button-danger"
              disabled={pending}
              onClick={onConfirm}
            >
              {pending ? pendingLabel : confirmLabel}
            </button>
            <Dialog.Close className="button">Cancel</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
