/**
 * Where the keyboard focus goes when a dialog closes. Radix's dialog gives it back to its
 * `Dialog.Trigger`; our dialogs are opened from state by ordinary buttons (a result's Save, a row's
 * Delete), so Radix has no trigger to return to and the focus fell to `<body>`. This remembers what had
 * the focus when the dialog opened and returns there; when that is gone (the row just deleted), the
 * page's heading takes it (or when it can no longer take the focus).
 */
import { useRef } from 'react';
import { focusPageHeading } from './page-focus';

export function useDialogFocusReturn(): {
  onOpenAutoFocus: () => void;
  onCloseAutoFocus: (event: Event) => void;
} {
  const opener = useRef<HTMLElement | null>(null);
  return {
    // Radix calls this before it moves the focus into the dialog: the opener still has it.
    onOpenAutoFocus: () => {
      opener.current =
        document.activeElement instanceof HTMLElement && document.activeElement !== document.body
          ? document.activeElement
          : null;
    },
    onCloseAutoFocus: (event) => {
      event.preventDefault();
      const target = opener.current;
      opener.current = null;
      target?.focus();
      // Gone, or disabled meanwhile (Remove with nothing left chosen): the heading rather than <body>.
      if (!target || document.activeElement !== target) focusPageHeading();
    },
  };
}

/**
 * Escape closes the dialog even while a toast shows. A toast (Radix Toast) is the topmost dismissable
 * layer once it appears, so Radix hands Escape to it and not to the dialog below: a dialog that toasts
 * while it stays open (Save, Cite) would not close on Escape for the toast's six seconds. The toast
 * does not mark the key as handled; an Escape that a layer inside the dialog (or the dialog itself)
 * handled is marked, and is left alone here.
 */
export function closeOnEscapeUnderToasts(onClose: () => void): {
  onKeyDown: (event: { key: string; defaultPrevented: boolean }) => void;
} {
  return {
    onKeyDown: (event) => {
      if (event.key === 'Escape' && !event.defaultPrevented) onClose();
    },
  };
}
