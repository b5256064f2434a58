/**
 * An alert e-mail's unsubscribe link (`/alerts/unsubscribe/:token`, public: it works signed out).
 * Opening it changes nothing (a mail scanner follows links): it asks "Stop e-mails for '<query>'?"
 * (GET), and the button stops them (POST), then says so. A link already used says that the e-mails
 * have stopped; an unknown or incomplete one says it cannot be used.
 */
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { describeError, isNotFound } from '../../api/errors';
import { useSession } from '../../lib/session';
import { FormAlert } from '../../components/Field';
import { Page } from '../../components/Page';
import { ErrorState, LoadingState } from '../../components/States';
import { FREQUENCY_ADVERBS } from '../../features/alerts/alert-words';
import { useUnsubscribe, useUnsubscribePreview } from '../../features/alerts/hooks/use-alerts';
import '../../features/alerts/alerts.css';

/** A token the service could hold (UnsubscribeParams): anything else is not asked about. */
const TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

function Onward() {
  const signedIn = Boolean(useSession().data);
  return (
    <p>
      {signedIn ? (
        <Link to="/alerts">Go to your alerts</Link>
      ) : (
        <Link to="/">Go to the front page</Link>
      )}
    </p>
  );
}

function Stopped({ query, already }: { query: string; already: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  // The button that was pressed is gone: the focus goes to what replaced it.
  useEffect(() => {
    if (!already) ref.current?.focus();
  }, [already]);
  return (
    <div ref={ref} tabIndex={-1} className="form-notice" role="status">
      <p className="state-title">
        {already ? 'These e-mails have already stopped' : 'Done: no more e-mails'}
      </p>
      <p>
        You get no more e-mails for “<span className="alert-query-text">{query}</span>”.{' '}
        {already
          ? 'Nothing needs doing.'
          : 'The alert is deleted; you can follow the search again from the search page at any time.'}
      </p>
      <Onward />
    </div>
  );
}

function Unsubscribe({ token }: { token: string }) {
  const preview = useUnsubscribePreview(token);
  const stop = useUnsubscribe(token);
  if (preview.isPending) return <LoadingState label="Reading the link…" />;
  if (preview.isError && isNotFound(preview.error)) return <Unusable />;
  if (preview.isError)
    return <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />;
  const { query, frequency, unsubscribed } = preview.data;
  if (stop.data) return <Stopped query={stop.data.query} already={false} />;
  if (unsubscribed) return <Stopped query={query} already />;
  return (
    <div className="card">
      <h2 className="alert-query">Stop e-mails for “{query}”?</h2>
      <p>
        This alert e-mails you new results for the search {FREQUENCY_ADVERBS[frequency]}. Stopping
        deletes the alert, so no more of its e-mails come; you need not sign in.
      </p>
      <button
        type="button"
        className="button button-primary"
        aria-disabled={stop.isPending || undefined}
        onClick={() => {
          if (!stop.isPending) stop.mutate();
        }}
      >
        {stop.isPending ? 'Stopping…' : 'Stop these e-mails'}
      </button>
      {stop.error != null && (
        <FormAlert>
          {isNotFound(stop.error)
            ? 'This link can no longer be used: the alert was deleted.'
            : describeError(stop.error)}
        </FormAlert>
      )}
    </div>
  );
}

function Unusable() {
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">This link cannot be used</p>
      <p>
        It is incomplete, or its alert has been deleted (a deleted alert sends no more e-mails).
        Copy the whole link from the e-mail, or sign in to see your alerts.
      </p>
      <Onward />
    </div>
  );
}

export function UnsubscribePage() {
  const { token = '' } = useParams();
  return (
    <Page title="Stop alert e-mails" narrow>
      {TOKEN.test(token) ? <Unsubscribe token={token} /> : <Unusable />}
    </Page>
  );
}
