/**
 * Where the app sends a user back after signing in with Google or GitHub: `next`, a path of the
 * web app's own origin. Anything else (another origin, `//host`, `/\host`, a path with control
 * characters or whitespace that a browser would strip to make one of those) is dropped, and the
 * user lands on the dashboard. Checked when the sign-in starts and again when the callback uses it.
 */
export const DEFAULT_RETURN_PATH = '/dashboard';
/** Longer is not a path the app makes (the start query allows the same). */
const RETURN_PATH_MAX = 2000;

/** `next` when it is a same-origin path of `appOrigin` starting with a single `/`; otherwise null. */
export function safeReturnPath(next: unknown, appOrigin: string): string | null {
  if (typeof next !== 'string' || next.length === 0 || next.length > RETURN_PATH_MAX) return null;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  // Browsers drop tabs and newlines from URLs and read `\` as `/`: `/\t/evil.example` is `//evil.example`.
  if (/[\s\\\p{Cc}]/u.test(next)) return null;
  let resolved: URL;
  try {
    resolved = new URL(next, appOrigin);
  } catch {
    return null;
  }
  if (resolved.origin !== new URL(appOrigin).origin) return null;
  return next;
}
