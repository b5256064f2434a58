/**
 * Search the whole library: a search box that searches as one types (debounced; the server matches the
 * last word as a prefix), filters (workspace, tag, type, years) applied with the form, a sort, the hits
 * with their snippets, and paging. Everything shown follows from the address (search-state.ts): typing
 * replaces the current entry, so Back goes to the search before, not to each letter; a submitted form,
 * a sort or a page is a new entry.
 */
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useDebouncedCallback } from 'use-debounce';
import { FilterBlock } from '../../../components/FilterBlock';
import { SortSelect } from '../../../components/SortSelect';
import { EmptyState, ErrorState, LoadingState } from '../../../components/States';
import { useZodForm } from '../../../lib/form';
import { describeYears } from '../../../lib/search-words';
import { HitCard } from './HitCard';
import { LibrarySearchForm } from '../schemas';
import {
  LIMITS,
  PAGE_SIZE,
  readLibrarySearchState,
  SORTS,
  writeLibrarySearchState,
  type LibrarySearchFilters,
  type LibrarySearchState,
  type Sort,
} from '../search-state';
import { useLibrarySearch } from '../hooks/use-library-search';
import '../../features.css';
import '../library-search.css';

const SORT_LABELS: Record<Sort, string> = {
  relevance: 'Relevance',
  date: 'Newest published',
  added: 'Recently added',
};
/** How long typing pauses before the search goes out. */
const TYPE_AHEAD_MS = 250;

const filtersOf = ({
  q,
  workspace,
  tag,
  type,
  yearFrom,
  yearTo,
}: LibrarySearchState): LibrarySearchFilters => ({ q, workspace, tag, type, yearFrom, yearTo });

/** The active filters as phrases, for the filter bar's sentence. */
function describeLibraryFilters(
  state: LibrarySearchState,
  workspaces: ReadonlyArray<{ id: string; name: string }>,
): string[] {
  const workspace = workspaces.find((each) => each.id === state.workspace);
  return [
    state.workspace && `Workspace: ${workspace?.name ?? 'one of yours'}`,
    state.tag && `Tag: ${state.tag}`,
    state.type && `Type: ${state.type}`,
    describeYears(state.yearFrom, state.yearTo),
  ].filter((phrase): phrase is string => Boolean(phrase));
}

export function LibrarySearch({
  workspaces,
}: {
  workspaces: ReadonlyArray<{ id: string; name: string }>;
}) {
  const [params, setParams] = useSearchParams();
  const state = readLibrarySearchState(params);
  const search = useLibrarySearch(state);
  const form = useZodForm(LibrarySearchForm, { defaultValues: filtersOf(state) });
  const { errors } = form.formState;
  const resultsRef = useRef<HTMLElement>(null);
  // The address this component last wrote: a change to any other (Back, a link) puts the form back in step.
  const written = useRef<string | null>(null);

  const go = (next: LibrarySearchState, replace = false) => {
    const address = writeLibrarySearchState(next);
    written.current = address.toString();
    setParams(address, { replace });
  };

  const typeAhead = useDebouncedCallback((typed: string) => {
    const q = typed.trim().slice(0, LIMITS.q);
    if (q === state.q) return;
    go({ ...state, q, page: 1 }, state.q !== '' && q !== '');
  }, TYPE_AHEAD_MS);

  const address = params.toString();
  const { reset } = form;
  useEffect(() => {
    if (address === written.current) return;
    written.current = address;
    typeAhead.cancel();
    reset(filtersOf(readLibrarySearchState(new URLSearchParams(address))));
  }, [address, reset, typeAhead]);

  const submit = form.handleSubmit((filters) => {
    typeAhead.cancel();
    go({ ...state, ...filters, page: 1 });
  });
  const toPage = (page: number) => {
    go({ ...state, page });
    resultsRef.current?.focus();
  };

  const reply = search.data;
  const filtered =
    state.workspace !== '' ||
    state.tag !== '' ||
    state.type !== '' ||
    state.yearFrom !== '' ||
    state.yearTo !== '';
  const pages = reply ? Math.max(1, Math.ceil(reply.total / PAGE_SIZE)) : 1;
  const what = state.q ? ` for “${state.q}”` : '';
  return (
    <>
      <form
        role="search"
        aria-label="Your library"
        className="library-search-form"
        noValidate
        onSubmit={(event) => void submit(event)}
      >
        <div className="search-form">
          <label htmlFor="library-query" className="visually-hidden">
            Search your library
          </label>
          <input
            id="library-query"
            type="search"
            placeholder="Titles, authors, notes, tags, annotations, PDF text…"
            maxLength={LIMITS.q}
            autoComplete="off"
            aria-invalid={errors.q ? true : undefined}
            {...form.register('q', {
              onChange: (event: { target: HTMLInputElement }) => typeAhead(event.target.value),
            })}
          />
          <button type="submit" className="button button-primary">
            Search
          </button>
        </div>
        {errors.q && <p className="field-error">{errors.q.message}</p>}
      </form>

      <FilterBlock
        label="Filter your library"
        form={form}
        fields={[
          {
            kind: 'select',
            name: 'workspace',
            label: 'Workspace',
            options: [
              { value: '', label: 'All workspaces' },
              ...workspaces.map((workspace) => ({ value: workspace.id, label: workspace.name })),
            ],
          },
          { kind: 'text', name: 'tag', label: 'Tag', maxLength: LIMITS.tag },
          { kind: 'text', name: 'type', label: 'Type', maxLength: LIMITS.type },
          { kind: 'year', name: 'yearFrom', label: 'From year' },
          { kind: 'year', name: 'yearTo', label: 'To year' },
        ]}
        active={describeLibraryFilters(state, workspaces)}
        onApply={(filters) => {
          typeAhead.cancel();
          go({ ...state, ...filters, page: 1 });
        }}
        onClear={() =>
          go({ ...state, workspace: '', tag: '', type: '', yearFrom: '', yearTo: '', page: 1 })
        }
      >
        <div className="field field-inline library-sort">
          <SortSelect
            id="library-sort"
            value={state.sort}
            sorts={SORTS}
            labels={SORT_LABELS}
            onChange={(sort) => go({ ...state, sort, page: 1 })}
          />
        </div>
      </FilterBlock>

      {search.isPending && <LoadingState label="Searching your library…" />}
      {search.isError && (
        <ErrorState
          title="The library search failed"
          error={search.error}
          onRetry={() => void search.refetch()}
        />
      )}
      {reply && (
        <section
          aria-label="Hits"
          aria-busy={search.isFetching}
          tabIndex={-1}
          ref={resultsRef}
          className="library-hits"
        >
          <p className="results-summary" role="status">
            {search.isFetching ? 'Searching… ' : ''}
            {reply.total === 0
              ? `Nothing found${what}.`
              : `${reply.total} resource${reply.total === 1 ? '' : 's'}${what}`}
          </p>
          {reply.total === 0 &&
            (state.q || filtered ? (
              <EmptyState title="Nothing in your library matches">
                Try other words or the start of a word, {filtered ? 'fewer filters, ' : ''}or search
                the sources from Search.
              </EmptyState>
            ) : (
              <EmptyState title="Your library is empty">
                Save results from Search to a workspace, and find them here.
              </EmptyState>
            ))}
          <div className="results">
            {reply.results.map((hit) => (
              <HitCard key={hit.id} hit={hit} />
            ))}
          </div>
          {(state.page > 1 || reply.hasMore) && (
            <nav aria-label="Pages" className="pager">
              <button
                type="button"
                className="button"
                disabled={state.page <= 1}
                onClick={() => toPage(state.page - 1)}
              >
                Previous page
              </button>
              <span>
                Page {state.page} of {pages}
              </span>
              <button
                type="button"
                className="button"
                disabled={!reply.hasMore}
                onClick={() => toPage(state.page + 1)}
              >
                Next page
              </button>
            </nav>
          )}
        </section>
      )}
    </>
  );
}
