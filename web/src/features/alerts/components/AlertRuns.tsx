/** An alert's run history (newest first, a page at a time): when, why, what it found, whether its e-mail went out. */
import { useReaderLocale } from '../../../lib/profile';
import { ErrorState, LoadingState } from '../../../components/States';
import { formatDateTime } from '../../../lib/dates';
import type { AlertRun } from '../api/alerts';
import { describeMail, describeRun, RUN_REASON_LABELS } from '../alert-words';
import type { useAlertRuns } from '../hooks/use-alerts';

/** When a run happened: when it finished, else when it started; a queued run has not started. */
export function RunTime({ run }: { run: AlertRun }) {
  const language = useReaderLocale();
  const at = run.finishedAt ?? run.startedAt;
  if (!at) return <>Not started yet</>;
  return <time dateTime={at}>{formatDateTime(at, language)}</time>;
}

export function AlertRuns({ runs, id }: { runs: ReturnType<typeof useAlertRuns>; id: string }) {
  if (runs.isPending) return <LoadingState label="Loading the runs…" />;
  if (runs.isError)
    return (
      <ErrorState
        title="The runs could not be loaded"
        error={runs.error}
        onRetry={() => void runs.refetch()}
      />
    );
  const items = runs.data.pages.flatMap((page) => page.runs);
  if (items.length === 0)
    return (
      <p className="muted">
        No runs yet: the first comes at the next run, or when you choose Run now.
      </p>
    );
  return (
    <>
      <ul className="alert-runs" id={id}>
        {items.map((run) => (
          <li key={run.id} className="alert-run">
            <p>
              <strong>
                <RunTime run={run} />
              </strong>{' '}
              <span className="muted">({RUN_REASON_LABELS[run.reason]})</span>
            </p>
            <p>
              {describeRun(run)} {describeMail(run)}.
            </p>
          </li>
        ))}
      </ul>
      {runs.hasNextPage && (
        <button
          type="button"
          className="button button-small"
          disabled={runs.isFetchingNextPage}
          onClick={() => void runs.fetchNextPage()}
        >
          {runs.isFetchingNextPage ? 'Loading older runs…' : 'Show older runs'}
        </button>
      )}
    </>
  );
}
