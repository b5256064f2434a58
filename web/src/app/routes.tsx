/**
 * The app's routes. Every page is its own chunk (loaded when first visited), so sign-in does not
 * download the analytics charts. Protected pages sit under RequireAuth; `/` is the front page for visitors.
 */
import { Outlet, type RouteObject } from 'react-router';
import { Layout } from '../components/Layout';
import { LoadingState } from '../components/States';
import { RequireAuth } from './require-auth';

function Protected() {
  return (
    <RequireAuth>
      <Outlet />
    </RequireAuth>
  );
}

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: Layout,
    hydrateFallbackElement: <LoadingState />,
    children: [
      // A visitor's front page (what this is, and the search); a signed-in user goes on to the dashboard.
      {
        index: true,
        lazy: async () => ({ Component: (await import('../pages/home/FrontPage')).FrontPage }),
      },
      {
        path: 'auth/signin',
        lazy: async () => ({ Component: (await import('../pages/auth/SignInPage')).SignInPage }),
      },
      {
        path: 'auth/signup',
        lazy: async () => ({ Component: (await import('../pages/auth/SignUpPage')).SignUpPage }),
      },
      {
        path: 'auth/forgot-password',
        lazy: async () => ({
          Component: (await import('../pages/auth/ForgotPasswordPage')).ForgotPasswordPage,
        }),
      },
      {
        path: 'auth/check-inbox',
        lazy: async () => ({
          Component: (await import('../pages/auth/ConfirmationPages')).CheckInboxPage,
        }),
      },
      {
        path: 'auth/confirmed',
        lazy: async () => ({
          Component: (await import('../pages/auth/ConfirmationPages')).ConfirmedPage,
        }),
      },
      {
        path: 'auth/account-deleted',
        lazy: async () => ({
          Component: (await import('../pages/auth/AccountDeletedPage')).AccountDeletedPage,
        }),
      },
      // An invitation's link: public, so that someone without an account can read it and sign up from it.
      {
        path: 'invitations/:token',
        lazy: async () => ({
          Component: (await import('../pages/invitations/InvitationPage')).InvitationPage,
        }),
      },
      // An alert e-mail's unsubscribe link: public, so that it works without signing in (and changes nothing until its button is pressed).
      {
        path: 'alerts/unsubscribe/:token',
        lazy: async () => ({
          Component: (await import('../pages/alerts/UnsubscribePage')).UnsubscribePage,
        }),
      },
      {
        path: 'join/:token',
        lazy: async () => ({ Component: (await import('../pages/join/JoinPage')).JoinPage }),
      },
      {
        path: 'auth/update-password',
        lazy: async () => ({
          Component: (await import('../pages/auth/UpdatePasswordPage')).UpdatePasswordPage,
        }),
      },
      {
        Component: Protected,
        children: [
          {
            path: 'dashboard',
            lazy: async () => ({
              Component: (await import('../pages/dashboard/DashboardPage')).DashboardPage,
            }),
          },
          {
            path: 'library',
            lazy: async () => ({
              Component: (await import('../pages/library/LibrarySearchPage')).LibrarySearchPage,
            }),
          },
          {
            path: 'workspaces',
            lazy: async () => ({
              Component: (await import('../pages/workspaces/WorkspacesPage')).WorkspacesPage,
            }),
          },
          {
            path: 'workspaces/:id',
            lazy: async () => ({
              Component: (await import('../pages/workspaces/WorkspacePage')).WorkspacePage,
            }),
          },
          {
            path: 'workspaces/:id/duplicates',
            lazy: async () => ({
              Component: (await import('../pages/workspaces/DuplicatesPage')).DuplicatesPage,
            }),
          },
          {
            path: 'workspaces/:id/resources/:resourceId/pdf',
            lazy: async () => ({
              Component: (await import('../pages/workspaces/PdfViewerPage')).PdfViewerPage,
            }),
          },
          {
            path: 'alerts',
            lazy: async () => ({
              Component: (await import('../pages/alerts/AlertsPage')).AlertsPage,
            }),
          },
          {
            path: 'profile',
            lazy: async () => ({
              Component: (await import('../pages/profile/ProfilePage')).ProfilePage,
            }),
          },
          {
            path: 'analytics',
            lazy: async () => ({
              Component: (await import('../pages/analytics/AnalyticsPage')).AnalyticsPage,
            }),
          },
        ],
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('../pages/NotFoundPage')).NotFoundPage }),
      },
    ],
  },
];
