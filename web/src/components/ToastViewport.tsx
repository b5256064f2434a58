/** The toasts themselves (Radix Toast): announced politely, errors assertively; each can be dismissed. */
import * as Toast from '@radix-ui/react-toast';

export type Tone = 'info' | 'error';
export interface ToastItem {
  id: number;
  message: string;
  tone: Tone;
}

export default function ToastViewport({
  items,
  onDismiss,
}: {
  items: ToastItem[];
  onDismiss: (id: number) => void;
}) {
  return (
    <Toast.Provider swipeDirection="right" duration={6000}>
      {items.map((item) => (
        <Toast.Root
          key={item.id}
          className={`toast toast-${item.tone}`}
          type={item.tone === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) onDismiss(item.id);
          }}
        >
          <Toast.Description>{item.message}</Toast.Description>
          <Toast.Close className="toast-close" aria-label="Dismiss">
            ×
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" />
    </Toast.Provider>
  );
}
