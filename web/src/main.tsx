import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { retryRead, retryReadDelay } from './api/errors';
import { routes } from './app/routes';
import { applyTheme, storedTheme, ThemeProvider } from './lib/theme';
import { ToastProvider } from './components/Toasts';
import './styles.css';

applyTheme(storedTheme());

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A client error (bad input, not found, signed out) will not change by asking again; a brief
      // refusal (Retry-After of a few seconds) is waited out.
      retry: retryRead,
      retryDelay: retryReadDelay,
      refetchOnWindowFocus: false,
    },
  },
});
const router = createBrowserRouter(routes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>
  </StrictMode>,
);
