/** The app shell: skip link, header with the main navigation, theme switch and Sign out; the page below. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { api, tellOtherTabsSignedOut, unwrap } from '../api/client';
import { describeError } from '../api/errors';
import { clearAllDrafts } from '../lib/drafts';
import { isTheme, THEMES, useTheme, type Theme } from '../lib/theme';
import { PROFILE_KEY, useProfile, type Profile } from '../lib/profile';
import { useSession, useSessionEndedReset } from '../lib/session';
import { Avatar } from './Avatar';
import { requestHeadingFocus } from './page-focus';
import { useToast } from './Toasts';

const NAV = [
  { to: '/dashboard', label: 'Search' },
  { to: '/library', label: 'Library' },
  { to: '/workspaces', label: 'Workspaces' },
  { to: '/alerts', label: 'Alerts' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/profile', label: 'Profile' },
];
const THEME_LABELS: Record<Theme, string> = {
  system: 'System theme',
  light: 'Light theme',
  dark: 'Dark theme',
};

/**
 * A signed-in user's theme is a profile preference: the switch saves it (PUT /api/profile, as the
 * profile page does) and shows it at once, putting the previous theme back with a message if the save
 * fails. Signed out, the choice stays in this browser only.
 */
function useChooseTheme(signedIn: boolean): (theme: Theme) => void {
  const { theme: current, setTheme } = useTheme();
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: (theme: Theme) =>
      unwrap(api.PUT('/api/profile', { body: { preferences: { theme } } })),
    onMutate: async (theme) => {
      // A profile load under way would bring back the old theme.
      await queryClient.cancelQueries({ queryKey: PROFILE_KEY });
      const before = queryClient.getQueryData<Profile>(PROFILE_KEY);
      if (before)
        queryClient.setQueryData<Profile>(PROFILE_KEY, {
          ...before,
          preferences: { ...before.preferences, theme },
        });
      return { before, previousTheme: current };
    },
    onSuccess: (reply) => queryClient.setQueryData(PROFILE_KEY, reply.profile),
    onError: (error, theme, saved) => {
      toast(`The theme could not be saved: ${describeError(error)}`, { tone: 'error' });
      // Put the previous theme back, unless a later choice has replaced this one meanwhile.
      if (!saved) return;
      if (saved.before) {
        if (queryClient.getQueryData<Profile>(PROFILE_KEY)?.preferences.theme !== theme) return;
        queryClient.setQueryData(PROFILE_KEY, saved.before);
      }
      setTheme(saved.previousTheme);
    },
  });
  return (theme: Theme) => {
    setTheme(theme);
    if (signedIn) save.mutate(theme);
  };
}

/**
 * The colour theme, at hand on every page (a native select: light enough for the first load). It waits
 * for the session check: a choice made before it is known whose page this is would be kept in this
 * browser only, and then replaced by the profile's theme when the profile loads.
 */
function ThemeSwitch({ signedIn, checking }: { signedIn: boolean; checking: boolean }) {
  const { theme } = useTheme();
  const chooseTheme = useChooseTheme(signedIn);
  return (
    <label className="theme-switch">
      <span className="visually-hidden">Colour theme</span>
      <select
        value={theme}
        disabled={checking}
        onChange={(event) => {
          if (isTheme(event.target.value)) chooseTheme(event.target.value);
        }}
      >
        {THEMES.map((option) => (
          <option key={option} value={option}>
            {THEME_LABELS[option]}
          </option>
        ))}
      </select>
    </label>
  );
}

function SignOutButton() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/signout')),
    // What was typed and not sent goes at once: the next person at this computer must not see it.
    onMutate: clearAllDrafts,
    // A full page load: nothing of the signed-out user stays in memory, and no guard races the
    // navigation (a protected page seeing the session gone would send the visitor to sign in and back).
    onSuccess: () => {
      queryClient.clear();
      tellOtherTabsSignedOut();
      window.location.replace('/auth/signin');
    },
    onError: (error) => toast(describeError(error), { tone: 'error' }),
  });
  return (
    <button
      type="button"
      className="button button-ghost"
      onClick={() => signOut.mutate()}
      disabled={signOut.isPending}
    >
      {signOut.isPending ? 'Signing out…' : 'Sign out'}
    </button>
  );
}

/** A visitor's way in, on every page: sign in, or make an account (both come back here after). */
function VisitorLinks() {
  const { pathname, search } = useLocation();
  const onAuthPage = pathname.startsWith('/auth/');
  // The front page and the auth pages need no way back; any other page is where the visitor returns.
  const next =
    onAuthPage || pathname === '/' ? '' : `?next=${encodeURIComponent(pathname + search)}`;
  return (
    <>
      <NavLink to={`/auth/signin${next}`} className="button button-ghost">
        Sign in
      </NavLink>
      <NavLink to={`/auth/signup${next}`} className="button button-primary">
        Sign up
      </NavLink>
    </>
  );
}

/** The signed-in user's avatar (initials without one), a link to their profile; a new upload shows at once (the profile query). */
function HeaderAvatar() {
  const profile = useProfile();
  const name = profile.data?.displayName ?? null;
  return (
    <NavLink
      to="/profile"
      className="header-avatar"
      aria-label={name ? `Your profile: ${name}` : 'Your profile'}
    >
      <Avatar src={profile.data?.avatarUrl ?? null} name={name} alt="" size="small" decorative />
    </NavLink>
  );
}

/** A signed-in user's theme is a profile preference: it replaces this browser's choice when the profile loads. */
function useProfileTheme(signedIn: boolean): void {
  const profile = useProfile(signedIn);
  const saved = profile.data?.preferences.theme;
  const { setTheme } = useTheme();
  useEffect(() => {
    if (saved) setTheme(saved);
  }, [saved, setTheme]);
}

/**
 * A route change moves the focus to the new page's heading (a screen reader starts reading there, the
 * next Tab goes into the page), not the first load and not a change of the query string alone (a new
 * search, a sort, a page of results keep the focus where the user is).
 */
function useFocusHeadingOnRouteChange(): void {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    requestHeadingFocus();
  }, [pathname]);
}

export function Layout() {
  useSessionEndedReset();
  useFocusHeadingOnRouteChange();
  const session = useSession();
  const signedIn = Boolean(session.data);
  useProfileTheme(signedIn);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <NavLink to={signedIn ? '/dashboard' : '/'} className="brand" end>
          Research Workspace
        </NavLink>
        {signedIn && (
          <nav aria-label="Main" className="app-nav">
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className="app-header-actions">
          <ThemeSwitch signedIn={signedIn} checking={session.isPending} />
          {signedIn && <HeaderAvatar />}
          {signedIn && <SignOutButton />}
          {!signedIn && !session.isPending && <VisitorLinks />}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="app-main">
        <Outlet />
      </main>
    </>
  );
}
