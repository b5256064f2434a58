/**
 * Search: the query box, provider chips (choose sources; each shows its status and count from the last
 * reply), sort, paging and the results, each with Summarize and Save. Everything the page shows
 * follows from the URL (see search-state.ts).
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { describeError } from '../../api/errors';
import { EmptyState, ErrorState, LoadingState } from '../../components/States';
import { Page } from '../../components/Page';
import { SortSelect } from '../../components/SortSelect';
import { ResultCard } from '../../features/search/ResultCard';
import { SearchFiltersBar } from '../../features/search/SearchFiltersBar';
import {
  describeProviderStatus,
  hasActiveFilters,
  MAX_QUERY_LENGTH,
  PAGE_SIZE,
  PROVIDER_NAMES,
  readSearchState,
  searchParamsOf,
  SORTS,
  type ProviderId,
  type SearchResult,
  type SearchState,
  type Sort,
} from '../../features/search/search-state';
import { SearchForm } from '../../features/search/schemas';
import { useMarkSaved, useSearchProviders, useSearchResults } from '../../features/search/use-search';
import '../../features/features.css';
import { useZodForm } from '../../lib/form';

// The dialogs (and the dialog library) load after the page has drawn: no one opens them before a result is shown.
const SummaryDialog = lazy(() => import('../../features/summary/SummaryDialog').then((module) => ({ default: module.SummaryDialog })));
const SaveDialog = lazy(() => import('../../features/workspaces/SaveDialog').then((module) => ({ default: module.SaveDialog })));

const SORT_LABELS: Record<Sort, string> = { relevance: 'Relevance', date: 'Newest first', citations: 'Most cited' };

export function DashboardPage() {
  const [params, setParams] = useSearchParams();
  const state = readSearchState(params);
  const form = useZodForm(SearchForm, { defaultValues: { q: state.q } });
  const [summarizing, setSummarizing] = useState<SearchResult | null>(null);
  const [saving, setSaving] = useState<SearchResult | null>(null);
  const [summaryError, setSummaryError] = useState<string | null>(null);
  const search = useSearchResults(state);
  const providers = useSearchProviders();
  const markSaved = useMarkSaved();

  // Back/forward change the URL under the page: the box follows.
  useEffect(() => form.reset({ q: state.q }), [state.q, form]);

  const go = (next: Partial<SearchState>) => setParams(searchParamsOf({ ...state, page: 1, ...next }));
  const submit = form.handleSubmit(({ q }) => go({ q }));
  const enabledIds = (providers.data ?? []).filter((provider) => provider.enabled).map((provider) => provider.id);
  const chosen = new Set<ProviderId>(state.providers ?? enabledIds);
  const toggleProvider = (id: ProviderId) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    const list = enabledIds.filter((provider) => next.has(provider));
    if (list.length === 0) return;
    go({ providers: list.length === enabledIds.length ? null : list });
  };
  const onServerError = useCallback((message: string) => {
    setSummarizing(null);
    setSummaryError(message);
  }, []);

  const reply = search.data;
  const statusOf = (id: ProviderId) => (reply && reply.query === state.q ? reply.providers.find((status) => status.id === id) : undefined);
  const pages = reply ? Math.max(1, Math.ceil(reply.total / PAGE_SIZE)) : 1;
  return (
    <Page title={state.q ? `${state.q} – Search` : 'Search'} heading="Search">
      <form role="search" className="search-form" onSubmit={(event) => void submit(event)}>
        <label htmlFor="search-query" className="visually-hidden">
          Search
        </label>
        <input
          id="search-query"
          type="search"
          placeholder="Search papers, preprints, datasets…"
          maxLength={MAX_QUERY_LENGTH}
          {...form.register('q')}
        />
        <button type="submit" className="button button-primary">
          Search
        </button>
      </form>

      <div className="search-controls">
        <div role="group" aria-label="Sources" className="chips">
          {providers.isPending && <span className="muted">Loading sources…</span>}
          {providers.isError && <span className="field-error">Sources could not be loaded: {describeError(providers.error)}</span>}
          {providers.data?.map((provider) => {
            const status = statusOf(provider.id);
            const failed = status && status.status !== 'ok';
            return (
              <button
                key={provider.id}
                type="button"
                className={`chip${failed ? ' chip-failed' : ''}`}
                aria-pressed={provider.enabled && chosen.has(provider.id)}
                disabled={!provider.enabled}
                title={provider.description}
                onClick={() => toggleProvider(provider.id)}
              >
                <span>{PROVIDER_NAMES[provider.id]}</span>
                {!provider.enabled && <span className="chip-status">disabled</span>}
                {provider.enabled && status && <span className="chip-status">{describeProviderStatus(status)}</span>}
              </button>
            );
          })}
        </div>
        <div className="field field-inline">
          <SortSelect id="search-sort" value={state.sort} sorts={SORTS} labels={SORT_LABELS} onChange={(sort) => go({ sort })} />
        </div>
      </div>

      <SearchFiltersBar filters={state.filters} onApply={(filters) => go({ filters })} />

      {summaryError && (
        <div className="form-alert" role="alert">
          <p>The summary failed: {summaryError}</p>
          <button type="button" className="button button-small" onClick={() => setSummaryError(null)}>
            Dismiss
          </button>
        </div>
      )}

      {!state.q && <EmptyState title="Search across arXiv, PubMed, Crossref, OpenAlex, Semantic Scholar, Zenodo and YouTube">Type a query above and press Enter.</EmptyState>}
      {state.q && search.isPending && <LoadingState label="Searching…" />}
      {state.q && search.isError && <ErrorState title="The search failed" error={search.error} onRetry={() => void search.refetch()} />}
      {state.q && reply && (
        <section aria-label="Results" aria-busy={search.isFetching}>
          <p className="results-summary" role="status">
            {search.isFetching ? 'Updating… ' : ''}
            {reply.total === 0 ? `No results for “${reply.query}”.` : `${reply.total} result${reply.total === 1 ? '' : 's'} for “${reply.query}” (${(reply.took / 1000).toFixed(1)} s)`}
          </p>
          {reply.total === 0 && (
            <EmptyState title="Nothing found">Try other words{hasActiveFilters(state.filters) ? ', fewer filters' : ''}, another sort, or more sources{reply.providers.some((status) => status.status !== 'ok') ? ' (some sources did not answer: see above)' : ''}.</EmptyState>
          )}
          <div className="results">
            {reply.results.map((result) => (
              <ResultCard key={`${result.provider}:${result.id}`} result={result} onSummarize={setSummarizing} onSave={setSaving} />
            ))}
          </div>
          {(state.page > 1 || reply.hasMore) && (
            <nav aria-label="Pages" className="pager">
              <button type="button" className="button" disabled={state.page <= 1} onClick={() => go({ page: state.page - 1 })}>
                Previous page
              </button>
              <span>
                Page {state.page} of {pages}
              </span>
              <button type="button" className="button" disabled={!reply.hasMore} onClick={() => go({ page: state.page + 1 })}>
                Next page
              </button>
            </nav>
          )}
        </section>
      )}
      <Suspense fallback={null}>
        <SummaryDialog result={summarizing} onClose={() => setSummarizing(null)} onServerError={onServerError} />
        <SaveDialog result={saving} onClose={() => setSaving(null)} onSaved={markSaved} />
      </Suspense>
    </Page>
  );
}
