/**
 * What a finished search says about its sources: when none answered, that no source answered and
 * why, each by name, with Retry (never "Nothing found", which would blame the words); when some did
 * not, a notice beside the results naming them, with Retry; when all answered with nothing, "Nothing
 * found". Sources that are not set up (disabled) are not failures of this search.
 */
import { EmptyState } from '../../../components/States';
import {
  explainProviderState,
  PROVIDER_NAMES,
  providerStateOf,
  type ProviderStatus,
} from '../search-state';

interface SourcesNoticeProps {
  reply: { total: number; providers: ProviderStatus[] };
  /** Whether filters narrowed the search (then "fewer filters" is one way to find more). */
  filtered?: boolean;
  onRetry: () => void;
}

/** Whether no source that was asked answered (the disabled ones were not asked). */
export function noSourceAnswered(providers: ProviderStatus[]): boolean {
  const asked = providers.filter((status) => status.status !== 'disabled');
  return asked.length > 0 && asked.every((status) => status.status !== 'ok');
}

export function SourcesNotice({ reply, filtered = false, onRetry }: SourcesNoticeProps) {
  const failed = reply.providers.filter(
    (status) => status.status !== 'ok' && status.status !== 'disabled',
  );
  const reasons = (
    <ul className="source-reasons">
      {failed.map((status) => (
        <li key={status.id}>
          {explainProviderState(PROVIDER_NAMES[status.id], providerStateOf(status))}
        </li>
      ))}
    </ul>
  );
  const retryButton = (
    <button type="button" className="button" onClick={onRetry}>
      Retry
    </button>
  );
  if (noSourceAnswered(reply.providers)) {
    return (
      <div className="state state-error" role="alert">
        <p className="state-title">No source answered</p>
        <p>
          None of the sources asked answered this search, so there is nothing to show yet; the words
          were not the problem.
        </p>
        {reasons}
        {retryButton}
      </div>
    );
  }
  if (reply.total === 0) {
    return (
      <EmptyState title="Nothing found">
        Try other words{filtered ? ', fewer filters' : ''}, another sort, or more sources
        {failed.length > 0 ? ' (some sources did not answer: see below)' : ''}.
        {failed.length > 0 && reasons}
        {failed.length > 0 && retryButton}
      </EmptyState>
    );
  }
  if (failed.length === 0) return null;
  // One paragraph with its Retry, beside the results: on a phone the first result stays in the first screen.
  return (
    <div className="sources-notice">
      <p>
        Some sources did not answer, so their results are missing.{' '}
        {failed
          .map((status) => explainProviderState(PROVIDER_NAMES[status.id], providerStateOf(status)))
          .join(' ')}{' '}
        <button type="button" className="button button-small" onClick={onRetry}>
          Retry
        </button>
      </p>
    </div>
  );
}
