/**
 * Short confirmations and failures: `useToast()('Saved')`, or with `{ tone: 'error' }`. The Radix
 * toasts that show them are loaded with the first one, so that the first page load does not carry them.
 */
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useState,
  type ReactNode,
} from 'react';
import type { ToastItem, Tone } from './ToastViewport';

type Notify = (message: string, options?: { tone?: Tone }) => void;

const ToastContext = createContext<Notify>(() => undefined);
const ToastViewport = lazy(() => import('./ToastViewport'));
let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const notify = useCallback<Notify>((message, options) => {
    setItems((current) => [...current, { id: nextId++, message, tone: options?.tone ?? 'info' }]);
  }, []);
  const dismiss = useCallback(
    (id: number) => setItems((current) => current.filter((entry) => entry.id !== id)),
    [],
  );
  return (
    <ToastContext.Provider value={notify}>
      {children}
      {items.length > 0 && (
        <Suspense fallback={null}>
          <ToastViewport items={items} onDismiss={dismiss} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}

export function useToast(): Notify {
  return useContext(ToastContext);
}
