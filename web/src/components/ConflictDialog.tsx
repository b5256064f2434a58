/**
 * An edit that lost a race (the API's 412: someone else saved a change since the user started): both
 * versions side by side, theirs (saved) and yours (typed, not saved), and two ways on. `Keep mine` sends
 * the user's again, made from their version; `Use theirs` drops the user's. Nothing typed is lost
 * meanwhile: the form and its draft stay as they were until the user chooses.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { describeError, isStale } from '../api/errors';
import { useDialogFocusReturn } from './dialog-focus';

export interface ConflictField {
  label: string;
  theirs: string;
  yours: string;
}

/**
 * The conflict of one form. `attempt(yours, version)` saves through `save` and, when the API says the
 * version was stale, keeps both versions (theirs parsed from the 412's `current`; null if it is not
 * what the form edits, and the error goes on) instead of failing: whether it saved. `keepMine` sends
 * the user's version again, made from theirs (a third change meanwhile opens the dialog anew).
 */
export function useEditConflict<Theirs extends { version: number }, Yours>(
  parse: (current: object) => Theirs | null,
  save: (yours: Yours, version: number) => Promise<unknown>,
) {
  const [conflict, setConflict] = useState<{ theirs: Theirs; yours: Yours } | null>(null);
  const [keepError, setKeepError] = useState<unknown>(null);
  const attempt = async (yours: Yours, version: number): Promise<boolean> => {
    try {
      await save(yours, version);
    } catch (error) {
      const theirs = isStale(error) ? parse(error.current) : null;
      if (theirs === null) throw error;
      setConflict({ theirs, yours });
      return false;
    }
    setConflict(null);
    return true;
  };
  const keepMine = async (): Promise<boolean> => {
    if (!conflict) return false;
    setKeepError(null);
    try {
      return await attempt(conflict.yours, conflict.theirs.version);
    } catch (error) {
      setKeepError(error);
      return false;
    }
  };
  const dismiss = () => {
    setConflict(null);
    setKeepError(null);
  };
  return { conflict, attempt, keepMine, keepError, dismiss };
}

export function ConflictDialog({
  open,
  fields,
  pending,
  error,
  onKeepMine,
  onUseTheirs,
  onDismiss,
}: {
  open: boolean;
  fields: ConflictField[];
  pending: boolean;
  error: unknown;
  onKeepMine: () => void;
  onUseTheirs: () => void;
  /** Closed without choosing (Escape): the form stays open with the user's text. */
  onDismiss: () => void;
}) {
  const returnFocus = useDialogFocusReturn();
  const version = (side: 'theirs' | 'yours', heading: string) => (
    <section className="conflict-version" aria-label={heading}>
      <h3>{heading}</h3>
      <dl>
        {fields.map((field) => (
          <div key={field.label}>
            <dt>{field.label}</dt>
            <dd className="conflict-text">
              {field[side] || <span className="muted">(empty)</span>}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onDismiss()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog conflict-dialog" {...returnFocus}>
          <Dialog.Title>Someone else changed this</Dialog.Title>
          <Dialog.Description>
            Another member saved a change while you were editing, so yours was not saved. Keep yours
            (it replaces theirs) or use theirs (yours is dropped).
          </Dialog.Description>
          <div className="conflict-versions">
            {version('theirs', 'Their version (saved)')}
            {version('yours', 'Your version (not saved)')}
          </div>
          {error != null && (
            <p className="form-alert" role="alert">
              {describeError(error)}
            </p>
          )}
          <div className="dialog-actions">
            <button
              type="button"
              className="button button-primary"
              disabled={pending}
              onClick={onKeepMine}
            >
              {pending ? 'Saving…' : 'Keep mine'}
            </button>
            <button type="button" className="button" disabled={pending} onClick={onUseTheirs}>
              Use theirs
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
