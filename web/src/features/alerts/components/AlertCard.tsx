/**
 * One alert on the Alerts page: its query, sources, filters, how often it runs (or that it is paused),
 * the next run and the last (when, what it found, whether the e-mail went out, which source failed);
 * Run now (following the run until it finishes), Pause or Resume, Edit (query and frequency), the run
 * history (opened on demand) and Delete (the page asks first).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod/mini';
import { describeError } from '../../../api/errors';
import { useReaderLocale } from '../../../lib/profile';
import { FormAlert, TextField } from '../../../components/Field';
import { SubmitButton } from '../../../components/SubmitButton';
import { formatDateTime } from '../../../lib/dates';
import { formError, submitWith, useZodForm } from '../../../lib/form';
import { FREQUENCIES, MAX_ALERT_QUERY_LENGTH, type Alert, type AlertRun } from '../api/alerts';
import {
  describeAlertFilters,
  describeMail,
  describeRun,
  describeSources,
  FREQUENCY_LABELS,
  runPollInterval,
} from '../alert-words';
import { useAlertRuns, useChangeAlert, useRefreshAlerts, useRunAlert } from '../hooks/use-alerts';
import { AlertRuns, RunTime } from './AlertRuns';

const EditAlertForm = z.object({
  query: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter the words to search for.'),
      z.maxLength(MAX_ALERT_QUERY_LENGTH, `At most ${MAX_ALERT_QUERY_LENGTH} characters.`),
    ),
  frequency: z.enum(FREQUENCIES),
});

function EditAlert({ alert, onDone }: { alert: Alert; onDone: () => void }) {
  const change = useChangeAlert(alert.id);
  const frequencyId = useId();
  const form = useZodForm(EditAlertForm, {
    defaultValues: { query: alert.query, frequency: alert.frequency },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = submitWith(form, ['query', 'frequency'], async (values) => {
    await change.mutateAsync(values);
    onDone();
  });
  return (
    <form
      className="alert-edit"
      aria-label={`Edit the alert for ${alert.query}`}
      onSubmit={(event) => void submit(event)}
    >
      <TextField
        label="Search for"
        autoFocus
        maxLength={MAX_ALERT_QUERY_LENGTH}
        {...form.register('query')}
        error={errors.query?.message}
      />
      <div className="field">
        <label htmlFor={frequencyId}>How often</label>
        <select id={frequencyId} {...form.register('frequency')}>
          {FREQUENCIES.map((frequency) => (
            <option key={frequency} value={frequency}>
              {FREQUENCY_LABELS[frequency]}
            </option>
          ))}
        </select>
      </div>
      <div className="row-actions">
        <SubmitButton pending={isSubmitting} pendingLabel="Saving…" small>
          Save
        </SubmitButton>
        <button type="button" className="button button-small" onClick={onDone}>
          Cancel
        </button>
      </div>
      {formError(form) && <FormAlert>{formError(form)}</FormAlert>}
    </form>
  );
}

function LastRun({ run }: { run: AlertRun | null }) {
  if (!run) return <>Not run yet</>;
  return (
    <>
      <RunTime run={run} />: {describeRun(run)} {describeMail(run)}.
    </>
  );
}

/**
 * Run now: the run the reply names is followed (its history is read every second while it is queued or
 * running, and while its e-mail goes out), and said as it goes in a live region; when it is over the
 * list is read again, for the last and next runs.
 */
function useRunNow(alertId: string, historyOpen: boolean) {
  const run = useRunAlert(alertId);
  const refreshAlerts = useRefreshAlerts();
  const [started, setStarted] = useState<AlertRun | null>(null);
  const runs = useAlertRuns(alertId, historyOpen || started !== null);
  const newest = runs.data?.pages[0]?.runs[0];
  // Until the history holds the new run, the reply's copy of it stands in.
  const current = started && newest?.id === started.id ? newest : started;
  const following = current !== null && runPollInterval(current) !== false;
  // When it is over (the run's copy keeps its identity from then on: the history is no longer read).
  useEffect(() => {
    if (current && !following) void refreshAlerts();
  }, [current, following, refreshAlerts]);
  const start = () => run.mutate(undefined, { onSuccess: (reply) => setStarted(reply.run) });
  return { start, current, following, pending: run.isPending, error: run.error, runs };
}

export function AlertCard({
  alert,
  searchHref,
  onDelete,
}: {
  alert: Alert;
  searchHref: string;
  onDelete: (alert: Alert) => void;
}) {
  const language = useReaderLocale();
  const headingId = useId();
  const runsId = useId();
  const [editing, setEditing] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const editRef = useRef<HTMLButtonElement>(null);
  const change = useChangeAlert(alert.id);
  const runNow = useRunNow(alert.id, historyOpen);
  const busy = runNow.pending || runNow.following;
  const lastRun =
    runNow.current && runNow.current.id !== alert.lastRun?.id && !runNow.following
      ? runNow.current
      : alert.lastRun;
  const doneEditing = () => {
    setEditing(false);
    requestAnimationFrame(() => editRef.current?.focus());
  };
  return (
    <li>
      <article className="card alert" aria-labelledby={headingId}>
        <h2 id={headingId} className="alert-query">
          {alert.query}
        </h2>
        {editing ? (
          <EditAlert alert={alert} onDone={doneEditing} />
        ) : (
          <dl className="alert-facts">
            <dt>Sources</dt>
            <dd>{describeSources(alert.providers)}</dd>
            <dt>Filters</dt>
            <dd>{describeAlertFilters(alert.filters)}</dd>
            <dt>How often</dt>
            <dd>
              {alert.paused
                ? `${FREQUENCY_LABELS[alert.frequency]}, paused`
                : FREQUENCY_LABELS[alert.frequency]}
            </dd>
            <dt>Next run</dt>
            <dd>
              {alert.paused ? (
                'None while paused'
              ) : alert.nextRunAt ? (
                <time dateTime={alert.nextRunAt}>{formatDateTime(alert.nextRunAt, language)}</time>
              ) : (
                'Not scheduled'
              )}
            </dd>
            <dt>Last run</dt>
            <dd>
              <LastRun run={lastRun} />
            </dd>
          </dl>
        )}
        <p className="alert-progress" role="status">
          {runNow.current &&
            (runNow.following
              ? `Running now: ${describeRun(runNow.current)} ${describeMail(runNow.current)}.`
              : `Run finished: ${describeRun(runNow.current)} ${describeMail(runNow.current)}.`)}
        </p>
        {runNow.error != null && (
          <FormAlert>The run could not start: {describeError(runNow.error)}</FormAlert>
        )}
        {change.error != null && <FormAlert>{describeError(change.error)}</FormAlert>}
        <div className="row-actions">
          {/* Busy, it is aria-disabled, not disabled: the focus stays on it (a disabled button drops it to <body>). */}
          <button
            type="button"
            className="button button-small button-primary"
            aria-disabled={busy || undefined}
            onClick={() => {
              if (!busy) runNow.start();
            }}
          >
            {busy ? 'Running…' : 'Run now'}
          </button>
          <button
            type="button"
            className="button button-small"
            aria-disabled={change.isPending || undefined}
            onClick={() => {
              if (!change.isPending) change.mutate({ paused: !alert.paused });
            }}
          >
            {alert.paused ? 'Resume' : 'Pause'}
          </button>
          {!editing && (
            <button
              ref={editRef}
              type="button"
              className="button button-small"
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
          )}
          <button
            type="button"
            className="button button-small"
            aria-expanded={historyOpen}
            aria-controls={historyOpen ? runsId : undefined}
            onClick={() => setHistoryOpen((open) => !open)}
          >
            {historyOpen ? 'Hide runs' : 'Show runs'}
          </button>
          <Link className="button button-small" to={searchHref}>
            Search now
          </Link>
          <button
            type="button"
            className="button button-small button-danger"
            onClick={() => onDelete(alert)}
          >
            Delete…
          </button>
        </div>
        {historyOpen && (
          <section aria-label={`Runs of the alert for ${alert.query}`} id={runsId}>
            <AlertRuns runs={runNow.runs} id={`${runsId}-list`} />
          </section>
        )}
      </article>
    </li>
  );
}
