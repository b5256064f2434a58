/**
 * "Suggested for this workspace" (GET /api/workspaces/{id}/suggestions): works that several of the
 * workspace's papers cite or are cited by, most connected first. Finding them asks OpenAlex and Semantic
 * Scholar for each paper's references and citations, so nothing is asked until the user opens the
 * section. Each suggestion is summarizable and saved into this workspace in one click (the page says how).
 */
import { useId, useState } from 'react';
import { queries } from '../../../api/client';
import { ApiError, describeError } from '../../../api/errors';
import type { components } from '../../../api/schema';
import type { SearchResult } from '../../../api/types';
import { EmptyState, ErrorState, LoadingState } from '../../../components/States';
import { WorkItem } from '../../../components/WorkItem';
import { plural } from '../../../lib/plural';

type ProviderStatus = components['schemas']['ProviderStatus'];
type SaveState =
  | { state: 'saving' }
  | { state: 'saved' }
  | { state: 'there' }
  | { state: 'failed'; message: string };

const SHOWN = 20;
const NAMES: Partial<Record<ProviderStatus['id'], string>> = {
  openalex: 'OpenAlex',
  semanticscholar: 'Semantic Scholar',
};

/** A provider that did not answer every call, as a sentence that says what to do. */
function partialSentence({ id, status }: ProviderStatus): string | null {
  const name = NAMES[id] ?? id;
  if (status === 'rate_limited') return `${name} was rate limited; ask again in a minute for more.`;
  if (status === 'timeout') return `${name} took too long to answer; ask again for more.`;
  if (status === 'error') return `${name} did not answer; ask again later for more.`;
  return null;
}

interface Props {
  workspaceId: string;
  onSummarize: (result: SearchResult) => void;
  /** Saves the work into this workspace; rejects with the API's error. None for a viewer, who adds nothing. */
  onSave?: (result: SearchResult) => Promise<void>;
}

export function WorkspaceSuggestions({ workspaceId, ...actions }: Props) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const headingId = useId();
  return (
    <section className="card suggestions" aria-labelledby={headingId}>
      <h2 id={headingId}>Suggested for this workspace</h2>
      <p>
        Works that several of your papers cite or are cited by. Finding them asks OpenAlex and
        Semantic Scholar about each paper, so they are looked up only when you ask.
      </p>
      <p>
        <button
          type="button"
          className="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((current) => !current)}
        >
          {open ? 'Hide suggestions' : 'Show suggestions'}
        </button>
      </p>
      <div id={panelId}>{open && <SuggestionList workspaceId={workspaceId} {...actions} />}</div>
    </section>
  );
}

function SuggestionList({ workspaceId, onSummarize, onSave }: Props) {
  const query = queries.useQuery(
    'get',
    '/api/workspaces/{id}/suggestions',
    { params: { path: { id: workspaceId }, query: { limit: SHOWN } } },
    { staleTime: 10 * 60_000, retry: false },
  );
  const [saves, setSaves] = useState<Record<string, SaveState>>({});

  if (query.isPending)
    return <LoadingState label="Following your papers’ references and citations…" />;
  if (query.isError)
    return (
      <ErrorState
        title="Suggestions could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  const reply = query.data;
  const partial = reply.providers.map(partialSentence).filter((sentence) => sentence !== null);
  const again = partial.length > 0 && (
    <p role="status">
      {partial.join(' ')}{' '}
      <button
        type="button"
        className="button button-small"
        disabled={query.isFetching}
        onClick={() => void query.refetch()}
      >
        Ask again
      </button>
    </p>
  );

  if (reply.looked === 0) {
    return (
      <EmptyState title="No paper here can be followed yet">
        <p>
          Suggestions follow the references and citations of papers with a DOI, an arXiv id or a
          PubMed id (PMID). Add papers with one (Add by identifier…, or save them from a search) and
          ask again.
        </p>
      </EmptyState>
    );
  }
  if (reply.suggestions.length === 0) {
    return (
      <>
        {again}
        <EmptyState title="No suggestions yet">
          <p>
            No work is cited by or cites two or more of the {plural(reply.looked, 'paper')} looked
            at. More papers with a DOI, an arXiv id or a PMID give more to connect.
          </p>
        </EmptyState>
      </>
    );
  }

  const save = async (result: SearchResult) => {
    setSaves((current) => ({ ...current, [result.id]: { state: 'saving' } }));
    let next: SaveState;
    try {
      await onSave?.(result);
      next = { state: 'saved' };
    } catch (error) {
      next =
        error instanceof ApiError && error.status === 409
          ? { state: 'there' }
          : { state: 'failed', message: describeError(error) };
    }
    setSaves((current) => ({ ...current, [result.id]: next }));
  };

  return (
    <div className="related-list">
      <p role="status">
        {plural(reply.suggestions.length, 'suggestion')} from the {plural(reply.looked, 'paper')}{' '}
        looked at, most connected first.
      </p>
      {again}
      <ol aria-label="Suggestions">
        {reply.suggestions.map(({ result, connections }) => {
          const saved = saves[result.id];
          const busy = saved !== undefined && saved.state !== 'failed';
          return (
            <WorkItem
              key={result.id}
              work={result}
              why={`Cites or is cited by ${connections} of your papers`}
              onSummarize={onSummarize}
              saveButton={
                onSave && (
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Save “${result.title}” to this workspace`}
                    // aria-disabled, not disabled: the button keeps the keyboard focus once it has done its work.
                    aria-disabled={busy}
                    onClick={() => {
                      if (!busy) void save(result);
                    }}
                  >
                    {saved?.state === 'saving' ? 'Saving…' : 'Save here'}
                  </button>
                )
              }
            >
              {saved?.state === 'saved' && <p role="status">Saved to this workspace.</p>}
              {saved?.state === 'there' && (
                <p role="status">This work is already in this workspace.</p>
              )}
              {saved?.state === 'failed' && (
                <p role="alert">It could not be saved: {saved.message}</p>
              )}
            </WorkItem>
          );
        })}
      </ol>
    </div>
  );
}
