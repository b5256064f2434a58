/**
 * A work's neighbours in the citation graph under its result card or in a saved resource's panel: "References", "Cited by" and
 * "Similar" (GET /api/works/{id}/references | citations | similar), each item summarizable and savable
 * as a search result is. Nothing is asked until a list is opened; each list is cached per work.
 */
import { useId, useState } from 'react';
import { queries } from '../../../api/client';
import type { SearchResult } from '../../../api/types';
import { ErrorState, LoadingState } from '../../../components/States';
import { WorkItem } from '../../../components/WorkItem';

type Relation = 'references' | 'citations' | 'similar';

const RELATIONS: Array<{ relation: Relation; label: string; empty: string }> = [
  { relation: 'references', label: 'References', empty: 'No references were found for this work.' },
  { relation: 'citations', label: 'Cited by', empty: 'No works citing this one were found.' },
  { relation: 'similar', label: 'Similar', empty: 'No similar works were found.' },
];
const SHOWN = 10;

interface Actions {
  onSummarize: (result: SearchResult) => void;
  onSave: (result: SearchResult) => void;
}

/** `result`: a search result, or a saved resource (the API follows its id to the work it was saved as). */
export function RelatedWorks({
  result,
  ...actions
}: { result: Pick<SearchResult, 'id' | 'title'> } & Actions) {
  const [open, setOpen] = useState<Relation | null>(null);
  const panelId = useId();
  return (
    <div className="related">
      <div
        className="related-choices"
        role="group"
        aria-label={`Related works of “${result.title}”`}
      >
        {RELATIONS.map(({ relation, label }) => (
          <button
            key={relation}
            type="button"
            className="button button-ghost button-small"
            aria-pressed={open === relation}
            aria-controls={panelId}
            onClick={() => setOpen((current) => (current === relation ? null : relation))}
          >
            {label}
          </button>
        ))}
      </div>
      <div id={panelId}>{open && <RelatedList id={result.id} relation={open} {...actions} />}</div>
    </div>
  );
}

function RelatedList({
  id,
  relation,
  onSummarize,
  onSave,
}: { id: string; relation: Relation } & Actions) {
  const { label, empty } = RELATIONS.find((each) => each.relation === relation) ?? RELATIONS[0]!;
  const params = { params: { path: { id }, query: { limit: SHOWN } } };
  const references = queries.useQuery('get', '/api/works/{id}/references', params, {
    enabled: relation === 'references',
    staleTime: 10 * 60_000,
    retry: false,
  });
  const citations = queries.useQuery('get', '/api/works/{id}/citations', params, {
    enabled: relation === 'citations',
    staleTime: 10 * 60_000,
    retry: false,
  });
  const similar = queries.useQuery('get', '/api/works/{id}/similar', params, {
    enabled: relation === 'similar',
    staleTime: 10 * 60_000,
    retry: false,
  });
  const query =
    relation === 'references' ? references : relation === 'citations' ? citations : similar;

  if (query.isPending) return <LoadingState label={`Loading ${label.toLowerCase()}…`} />;
  if (query.isError)
    return (
      <ErrorState
        title={`${label} could not be loaded`}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  const reply = query.data;
  const silent = reply.providers.filter(
    (status) => status.status !== 'ok' && status.status !== 'disabled',
  );
  return (
    <section className="related-list" aria-label={label}>
      <p role="status">
        {reply.total === 0
          ? empty
          : `${reply.results.length} of ${reply.total} shown${relation === 'similar' ? '' : ', most cited first'}.`}
        {silent.length > 0 &&
          ` Some sources did not answer (${silent.map((status) => status.id).join(', ')}); try again later for more.`}
      </p>
      <ul>
        {reply.results.map((work) => (
          <WorkItem
            key={work.id}
            work={work}
            onSummarize={onSummarize}
            saveButton={
              <button
                type="button"
                className="button button-small"
                aria-label={`Save “${work.title}”`}
                onClick={() => onSave(work)}
              >
                Save
              </button>
            }
          />
        ))}
      </ul>
    </section>
  );
}
