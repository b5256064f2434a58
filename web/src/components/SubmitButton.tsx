/**
 * A form's submit button: while its request is pending it says what is happening (`Saving…`), refuses
 * clicks so that a second one sends nothing twice, and tells assistive technology it is busy. Pending,
 * it is `aria-disabled`, not `disabled`: a disabled button drops the keyboard focus to `<body>`, and the
 * user who pressed Save would have to find their place again (the form's `submitOnce` ignores a second
 * submit by Enter too).
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
    <button
      type="submit"
      className={small ? 'button button-primary button-small' : 'button button-primary'}
      disabled={disabled}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      onClick={(event) => {
        if (pending) event.preventDefault();
      }}
    >
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
