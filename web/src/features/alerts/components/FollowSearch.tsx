/**
 * "Follow this search" on the search page: opens a small form choosing how often (daily or weekly),
 * which creates an alert for the query, sources and filters on screen (POST /api/alerts), then says
 * so with a link to the Alerts page (which takes the focus: the form it was in has closed). Refusals
 * are said in words, the limit of alerts with the way out (delete one). A visitor is offered sign-in,
 * coming back to the same search.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod/mini';
import { ApiError, describeError } from '../../../api/errors';
import { FormAlert } from '../../../components/Field';
import { SubmitButton } from '../../../components/SubmitButton';
import { submitOnce, useZodForm } from '../../../lib/form';
import type { ProviderId, SearchFilters } from '../../../lib/search-words';
import { FREQUENCIES, newAlertOf, type Alert } from '../api/alerts';
import { FREQUENCY_ADVERBS, FREQUENCY_LABELS } from '../alert-words';
import { useCreateAlert } from '../hooks/use-alerts';
import '../alerts.css';

const FollowForm = z.object({ frequency: z.enum(FREQUENCIES) });

/** The API refuses a new alert past the per-user limit (409, `alerts_full`). */
function isAlertLimit(error: unknown): boolean {
  return (
    error instanceof ApiError && error.status === 409 && error.details.reason === 'alerts_full'
  );
}

interface FollowSearchProps {
  search: { query: string; providers: ProviderId[] | null; filters: SearchFilters };
  /** Signed out: where signing in starts (and comes back to this search). */
  signInTo: string | null;
}

export function FollowSearch({ search, signInTo }: FollowSearchProps) {
  if (signInTo !== null) {
    return (
      <div className="follow-search">
        <Link className="button" to={signInTo}>
          Sign in to follow this search
        </Link>
        <span className="muted">An alert e-mails you new results for it, daily or weekly.</span>
      </div>
    );
  }
  return <FollowSearchForm search={search} />;
}

/** Said once the alert is made; the form it replaces had the focus, which goes to what comes next: the alert. */
function Followed({ alert }: { alert: Alert }) {
  const linkRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => linkRef.current?.focus(), []);
  return (
    <p className="follow-search follow-search-done" role="status">
      <span>
        Following “<span className="follow-query">{alert.query}</span>”: new results come by e-mail{' '}
        {FREQUENCY_ADVERBS[alert.frequency]}.
      </span>{' '}
      <Link ref={linkRef} to="/alerts">
        See your alerts
      </Link>
    </p>
  );
}

function FollowSearchForm({ search }: { search: FollowSearchProps['search'] }) {
  const formId = useId();
  const [open, setOpen] = useState(false);
  const [followed, setFollowed] = useState<Alert | null>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const create = useCreateAlert();
  const form = useZodForm(FollowForm, { defaultValues: { frequency: 'weekly' } });
  const submit = submitOnce(form, async ({ frequency }) => {
    try {
      const alert = await create.mutateAsync(newAlertOf(search, frequency));
      setFollowed(alert);
    } catch {
      // create.error says why, below.
    }
  });
  const close = () => {
    setOpen(false);
    create.reset();
    toggleRef.current?.focus();
  };

  if (followed) return <Followed alert={followed} />;
  return (
    <div className="follow-search">
      <button
        ref={toggleRef}
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => (open ? close() : setOpen(true))}
      >
        Follow this search
      </button>
      <form
        id={formId}
        hidden={!open}
        className="follow-search-form card"
        aria-label="Follow this search"
        onSubmit={(event) => void submit(event)}
      >
        <fieldset className="mode-choice">
          <legend>E-mail me new results</legend>
          {FREQUENCIES.map((frequency) => (
            <label key={frequency}>
              <input type="radio" value={frequency} {...form.register('frequency')} />{' '}
              {FREQUENCY_LABELS[frequency]}
            </label>
          ))}
        </fieldset>
        <div className="row-actions">
          <SubmitButton pending={create.isPending} pendingLabel="Following…">
            Follow
          </SubmitButton>
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
        </div>
        {create.error != null && (
          <FormAlert>
            {describeError(create.error)}
            {isAlertLimit(create.error) && (
              <>
                {' '}
                <Link to="/alerts">Open your alerts</Link> to delete one you no longer need, then
                follow this search.
              </>
            )}
          </FormAlert>
        )}
      </form>
    </div>
  );
}
