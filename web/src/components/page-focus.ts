/**
 * The page heading as the focus target: after a route change (the Layout asks for it) and when what
 * had the focus is gone. The `Page` component's h1 takes focus by script only (`tabIndex={-1}`).
 */

const HEADING = 'main h1';

/** Focuses the page's h1 (or, while the page has none yet, returns false). */
export function focusPageHeading(): boolean {
  const heading = document.querySelector<HTMLElement>(HEADING);
  if (!heading) return false;
  heading.focus({ preventScroll: false });
  return true;
}

let pending = false;
/**
 * Whether the visitor has pressed a key or a pointer yet: the route changes before that are the first
 * load's own redirects (`/` to the dashboard, a protected page to sign-in), where the focus stays at
 * the document's start like any page load's.
 */
let interacted = false;
if (typeof document !== 'undefined') {
  const mark = () => {
    interacted = true;
  };
  document.addEventListener('keydown', mark, { capture: true, once: true });
  document.addEventListener('pointerdown', mark, { capture: true, once: true });
}

/**
 * A route changed: the heading takes the focus now, or when the page draws it (a page still loading
 * has none). A page that placed the focus itself on drawing (a resource's panel opened from the
 * address) keeps it.
 */
export function requestHeadingFocus(): void {
  if (!interacted) return;
  const active = document.activeElement;
  const main = document.getElementById('main');
  if (active && main && active !== main && main.contains(active)) return;
  pending = !focusPageHeading();
}

/**
 * Called by `Page` when its heading is drawn: takes the focus a route change asked for meanwhile,
 * unless the user has put it somewhere since.
 */
export function takePendingHeadingFocus(): void {
  if (!pending) return;
  const active = document.activeElement;
  if (active && active !== document.body && active.id !== 'main') {
    pending = false;
    return;
  }
  if (focusPageHeading()) pending = false;
}
