/**
 * A page: sets the document title and gives the page its one h1, which takes the focus after a route
 * change (`tabIndex={-1}`: by script only; see page-focus.ts).
 */
import { useEffect, type ReactNode } from 'react';
import { takePendingHeadingFocus } from './page-focus';

function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Research Workspace`;
  }, [title]);
}

export function Page({
  title,
  heading = title,
  actions,
  children,
  narrow = false,
  wide = false,
}: {
  title: string;
  heading?: string;
  actions?: ReactNode;
  children: ReactNode;
  narrow?: boolean;
  /** The whole window's width (a workspace's three panes), not the reading width of other pages. */
  wide?: boolean;
}) {
  usePageTitle(title);
  useEffect(takePendingHeadingFocus, []);
  return (
    <div className={narrow ? 'page page-narrow' : wide ? 'page page-wide' : 'page'}>
      <div className="page-heading">
        <h1 tabIndex={-1}>{heading}</h1>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {children}
    </div>
  );
}
