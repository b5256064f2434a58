/**
 * Search the whole library: a search box that searches as one types (debounced; the server matches the
 * last word as a prefix), filters (workspace, tag, type, years) applied with the form, a sort, the hits
 * with their snippets, and paging. Everything shown follows from the address (search-state.ts): typing
 * replaces the current entry, so Back goes to the search before, not to each letter; a submitted form,
 * a sort or a page is a new entry.
 */
import { useEffect, useId, useRef } from 'react';
import { useController } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { useDebouncedCallback } from 'use-debounce';
import { TextField } from '../../../components/Field';
import { SortSelect } from '../../../components/SortSelect';
import { EmptyState, ErrorState, LoadingState } from '../../../components/States';
import { useZodForm } from '../../../lib/form';
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
  const workspaceFieldId = useId();
  // Controlled: the workspaces arrive after the address's choice, and a controlled select takes it once its option is there.
  const workspaceField = useController({ control: form.control, name: 'workspace' });
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
        <fieldset className="library-filters library-search-filters">
          <legend className="visually-hidden">Filters</legend>
          <div className="field">
            <label htmlFor={workspaceFieldId}>Workspace</label>
            <select id={workspaceFieldId} {...workspaceField.field}>
              <option value="">All workspaces</option>
              {workspaces.map((workspace) => (
                <option key={workspace.id} value={workspace.id}>
                  {workspace.name}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label="Tag"
            maxLength={LIMITS.tag}
            {...form.register('tag')}
            error={errors.tag?.message}
          />
          <TextField
            label="Type"
            maxLength={LIMITS.type}
            {...form.register('type')}
            error={errors.type?.message}
          />
          <TextField
            label="From year"
            inputMode="numeric"
            maxLength={4}
            {...form.register('yearFrom')}
            error={errors.yearFrom?.message}
          />
          <TextField
            label="To year"
            inputMode="numeric"
            maxLength={4}
            {...form.register('yearTo')}
            error={errors.yearTo?.message}
          />
          <div className="row-actions library-filter-actions">
            <button type="submit" className="button">
              Apply filters
            </button>
            {filtered && (
              <button
                type="button"
                className="button"
                onClick={() =>
                  go({
                    ...state,
                    workspace: '',
                    tag: '',
                    type: '',
                    yearFrom: '',
                    yearTo: '',
                    page: 1,
                  })
                }
              >
                Clear filters
              </button>
            )}
          </div>
        </fieldset>
      </form>

      <div className="field field-inline library-sort">
        <SortSelect
          id="library-sort"
          value={state.sort}
          sorts={SORTS}
          labels={SORT_LABELS}
          onChange={(sort) => go({ ...state, sort, page: 1 })}
        />
      </div>

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
