/**
 * A form's submit button: while its request is pending it says what is happening (`Saving…`), is
 * disabled so that a second click sends nothing twice, and tells assistive technology it is busy.
 */
import type { ReactNode } from 'react';

export function SubmitButton({
  pending,
  pendingLabel,
  disabled = false,
  small = false,
  children,
}: {
  pending: boolean;
  pendingLabel?: string;
  /** Disabled for another reason too (an empty required field, a value over its limit). */
  disabled?: boolean;
  small?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="submit" className={small ? 'button button-primary button-small' : 'button button-primary'} disabled={pending || disabled} aria-busy={pending || undefined}>
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
