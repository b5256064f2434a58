/**
 * The front page, `/`: for a visitor, what this is and the search itself (the dashboard's search page
 * with its own heading and introduction; the API searches and summarises without an account). Save asks
 * them to sign in or up, and brings them back to the same search afterwards. A signed-in user goes to
 * the dashboard, with the search they asked for.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { useSession } from '../../lib/session';
import { useDialogFocusReturn } from '../../components/dialog-focus';
import { ErrorState, LoadingState } from '../../components/States';
import type { SearchResult } from '../../api/types';
import { DashboardPage, type SearchPageVariant } from '../dashboard/DashboardPage';

function SignInToSaveDialog({
  result,
  next,
  onClose,
}: {
  result: SearchResult | null;
  next: string;
  onClose: () => void;
}) {
  const returnFocus = useDialogFocusReturn();
  const back = `?next=${encodeURIComponent(next)}`;
  return (
    <Dialog.Root open={result !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" {...returnFocus}>
          <Dialog.Title>Sign in to save</Dialog.Title>
          {result && <p className="summary-of">{result.title}</p>}
          <Dialog.Description>
            Saved papers go into your workspaces, where you can annotate, tag, share and export
            them. Sign in or create a free account: you come back to this search afterwards.
          </Dialog.Description>
          <div className="dialog-actions">
            <Link className="button button-primary" to={`/auth/signin${back}`}>
              Sign in
            </Link>
            <Link className="button" to={`/auth/signup${back}`}>
              Create an account
            </Link>
            <Dialog.Close className="button">Close</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function VisitorSearch() {
  const location = useLocation();
  const [saving, setSaving] = useState<SearchResult | null>(null);
  // After signing in, the same search on the dashboard (where Save works).
  const next = `/dashboard${location.search}`;
  const variant: SearchPageVariant = {
    title: 'Research Workspace',
    onSave: setSaving,
    intro: (
      <div className="front-intro">
        <p>
          Search arXiv, PubMed, Crossref, OpenAlex, Semantic Scholar, Zenodo and YouTube at once,
          and read a quick summary of any result, without an account.
        </p>
        <p>
          With a free account you also save papers into workspaces, annotate and tag them, search
          your whole library (PDFs too), share a workspace by link and export it as BibTeX, RIS or
          JSON. <Link to={`/auth/signup?next=${encodeURIComponent(next)}`}>Create an account</Link>{' '}
          or <Link to={`/auth/signin?next=${encodeURIComponent(next)}`}>sign in</Link>.
        </p>
      </div>
    ),
  };
  return (
    <>
      <DashboardPage variant={variant} />
      <SignInToSaveDialog result={saving} next={next} onClose={() => setSaving(null)} />
    </>
  );
}

export function FrontPage() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <LoadingState label="Loading…" />;
  if (session.isError)
    return <ErrorState error={session.error} onRetry={() => void session.refetch()} />;
  if (session.data)
    return <Navigate to={{ pathname: '/dashboard', search: location.search }} replace />;
  return <VisitorSearch />;
}
