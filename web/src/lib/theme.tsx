/**
 * Theme: system (follows the OS's prefers-color-scheme, live), light or dark, applied at once as
 * `data-theme` on <html>. The choice is kept in localStorage so the next load starts in it; a
 * signed-in user's profile preference replaces it when the profile loads.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
const STORAGE_KEY = 'rw-theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isTheme(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

function resolve(theme: Theme): 'light' | 'dark' {
  if (theme !== 'system') return theme;
  return globalThis.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light';
}

/** Sets <html data-theme> (called before the first render too, so the page never flashes the wrong colours). */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = resolve(theme);
  document.documentElement.dataset.themeChoice = theme;
}

interface ThemeState {
  theme: Theme;
  setTheme: (theme: Theme) => void;
}
const ThemeContext = createContext<ThemeState | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>(storedTheme);
  const setTheme = useCallback((next: Theme) => {
    setThemeState(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  }, []);
  useEffect(() => {
    applyTheme(theme);
    if (theme !== 'system' || !globalThis.matchMedia) return;
    const query = matchMedia(DARK_QUERY);
    const follow = () => applyTheme('system');
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [theme]);
  const value = useMemo(() => ({ theme, setTheme }), [theme, setTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error('useTheme outside ThemeProvider');
  return state;
}
