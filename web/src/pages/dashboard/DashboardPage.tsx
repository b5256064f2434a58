/**
 * Search: the query box, provider chips (choose sources; each shows its state as the search streams:
 * searching, its count, or why it did not answer), sort, paging and the results, each with Summarize
 * and Save. The first page shows each provider's results as they arrive, merged in place. Everything
 * the page shows follows from the URL (see search-state.ts).
 */
import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { describeError } from '../../api/errors';
import { EmptyState, ErrorState, LoadingState } from '../../components/States';
import { Page } from '../../components/Page';
import { SortSelect } from '../../components/SortSelect';
import { ResultCard } from '../../features/search/components/ResultCard';
import { ProviderChips } from '../../features/search/components/ProviderChips';
import { noSourceAnswered, SourcesNotice } from '../../features/search/components/SourcesNotice';
import { useStableKeys } from '../../features/search/stable-keys';
import { SearchFiltersBar } from '../../features/search/components/SearchFiltersBar';
import {
  hasActiveFilters,
  MAX_QUERY_LENGTH,
  PAGE_SIZE,
  providerStateOf,
  readSearchState,
  searchParamsOf,
  SORTS,
  type ProviderId,
  type ProviderState,
  type SearchResult,
  type SearchState,
  type Sort,
} from '../../features/search/search-state';
import { SearchForm } from '../../features/search/schemas';
import {
  useMarkSaved,
  useSearchProviders,
  useSearchResults,
} from '../../features/search/hooks/use-search';
import '../../features/features.css';
import { useZodForm } from '../../lib/form';

// The dialogs (and the dialog library) load after the page has drawn: no one opens them before a result is shown.
const SummaryDialog = lazy(() =>
  import('../../features/summary/components/SummaryDialog').then((module) => ({
    default: module.SummaryDialog,
  })),
);
// Follow this search too: it shows only once there are words, and the first page stays within its budget (test/web/bundle-size.test.ts).
const FollowSearch = lazy(() =>
  import('../../features/alerts/components/FollowSearch').then((module) => ({
    default: module.FollowSearch,
  })),
);
const SaveDialog = lazy(() =>
  import('../../features/workspaces/components/SaveDialog').then((module) => ({
    default: module.SaveDialog,
  })),
);

const SORT_LABELS: Record<Sort, string> = {
  relevance: 'Relevance',
  date: 'Newest first',
  citations: 'Most cited',
};

/**
 * An alert's digest links each work to this page as `?q=<its DOI, arXiv id or title>&action=save` (or
 * `summarize`): once the search has answered, its first result's Save or Summarize dialog opens, and
 * `action` leaves the address (a reload, or Back, does not open it again).
 */
function useDigestAction(
  first: SearchResult | undefined,
  open: Record<'save' | 'summarize', (result: SearchResult) => void>,
) {
  const [params, setParams] = useSearchParams();
  const action = params.get('action');
  const { save, summarize } = open;
  useEffect(() => {
    if ((action !== 'save' && action !== 'summarize') || !first) return;
    (action === 'save' ? save : summarize)(first);
    setParams(
      (now) => {
        const next = new URLSearchParams(now);
        next.delete('action');
        return next;
      },
      { replace: true },
    );
  }, [action, first, save, summarize, setParams]);
}

/**
 * The front page (pages/home/FrontPage.tsx) is this page for a visitor: its own title, heading and
 * introduction, and its own Save (which asks them to sign in).
 */
export interface SearchPageVariant {
  title: string;
  intro: ReactNode;
  onSave: (result: SearchResult) => void;
}

export function DashboardPage({ variant }: { variant?: SearchPageVariant } = {}) {
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

  const go = (next: Partial<SearchState>) =>
    setParams(searchParamsOf({ ...state, page: 1, ...next }));
  const submit = form.handleSubmit(({ q }) => go({ q }));
  const enabledIds = (providers.data ?? [])
    .filter((provider) => provider.enabled)
    .map((provider) => provider.id);
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
  // The reply of these words (not the previous search's, kept on screen while this one starts).
  const current = reply && reply.query === state.q ? reply : undefined;
  const streaming = search.isFetching;
  useDigestAction(current && !streaming ? current.results[0] : undefined, {
    save: variant?.onSave ?? setSaving,
    summarize: setSummarizing,
  });
  const stateOf = (id: ProviderId): ProviderState | null => {
    const status = current?.providers.find((each) => each.id === id);
    if (status) return providerStateOf(status);
    return streaming && state.q && chosen.has(id) ? { kind: 'pending' } : null;
  };
  const settledCount = current?.providers.filter((status) => chosen.has(status.id)).length ?? 0;
  const keyOf = useStableKeys(state.q, reply?.results ?? []);
  const pages = reply ? Math.max(1, Math.ceil(reply.total / PAGE_SIZE)) : 1;
  const retry = () => void search.refetch();
  const count = (total: number) => `${total} result${total === 1 ? '' : 's'}`;
  const summaryText = !reply
    ? ''
    : current && streaming
      ? `Searching… ${settledCount} of ${chosen.size} sources have answered; ${count(current.total)} so far.`
      : `${streaming ? 'Updating… ' : ''}${
          reply.total > 0
            ? `${count(reply.total)} for “${reply.query}” (${(reply.took / 1000).toFixed(1)} s)`
            : `${noSourceAnswered(reply.providers) ? 'No source answered' : 'No results'} for “${reply.query}”.`
        }`;
  return (
    <Page
      title={state.q ? `${state.q} – Search` : (variant?.title ?? 'Search')}
      heading={variant?.title ?? 'Search'}
    >
      {variant?.intro}
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
        {providers.isPending && <span className="muted">Loading sources…</span>}
        {providers.isError && (
          <span className="field-error">
            Sources could not be loaded: {describeError(providers.error)}
          </span>
        )}
        {providers.data && (
          <ProviderChips
            providers={providers.data}
            chosen={chosen}
            stateOf={stateOf}
            onToggle={toggleProvider}
          />
        )}
      </div>

      <SearchFiltersBar filters={state.filters} onApply={(filters) => go({ filters })}>
        <div className="field field-inline">
          <SortSelect
            id="search-sort"
            value={state.sort}
            sorts={SORTS}
            labels={SORT_LABELS}
            onChange={(sort) => go({ sort })}
          />
        </div>
      </SearchFiltersBar>

      {summaryError && (
        <div className="form-alert" role="alert">
          <p>The summary failed: {summaryError}</p>
          <button
            type="button"
            className="button button-small"
            onClick={() => setSummaryError(null)}
          >
            Dismiss
          </button>
        </div>
      )}

      {!state.q && (
        <EmptyState title="Search across arXiv, PubMed, Crossref, OpenAlex, Semantic Scholar, Zenodo and YouTube">
          Type a query above and press Enter.
        </EmptyState>
      )}
      {state.q && search.isPending && <LoadingState label="Searching…" />}
      {state.q && search.isError && (
        <ErrorState title="The search failed" error={search.error} onRetry={retry} />
      )}
      {state.q && reply && (
        <section aria-label="Results" aria-busy={streaming}>
          <p className="results-summary" role="status">
            {summaryText}
          </p>
          {current && !streaming && (
            <SourcesNotice
              reply={current}
              filtered={hasActiveFilters(state.filters)}
              onRetry={retry}
            />
          )}
          <div className="results">
            {reply.results.map((result) => (
              <ResultCard
                key={keyOf(result)}
                result={result}
                onSummarize={setSummarizing}
                onSave={variant?.onSave ?? setSaving}
              />
            ))}
          </div>
          {(state.page > 1 || reply.hasMore) && (
            <nav aria-label="Pages" className="pager">
              <button
                type="button"
                className="button"
                disabled={state.page <= 1}
                onClick={() => go({ page: state.page - 1 })}
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
                onClick={() => go({ page: state.page + 1 })}
              >
                Next page
              </button>
            </nav>
          )}
        </section>
      )}
      {/* After the results: at 360 px the first result stays in the first screen. */}
      {state.q && (
        <Suspense fallback={null}>
          <FollowSearch
            // A new search (words, sources, filters) offers to follow that one, not to say the last was followed.
            key={searchParamsOf({ ...state, sort: 'relevance', page: 1 }).toString()}
            search={{ query: state.q, providers: state.providers, filters: state.filters }}
            signInTo={
              variant
                ? `/auth/signin?next=${encodeURIComponent(`/dashboard?${searchParamsOf({ ...state, page: 1 }).toString()}`)}`
                : null
            }
          />
        </Suspense>
      )}
      <Suspense fallback={null}>
        <SummaryDialog
          result={summarizing}
          onClose={() => setSummarizing(null)}
          onServerError={onServerError}
        />
        {!variant && (
          <SaveDialog result={saving} onClose={() => setSaving(null)} onSaved={markSaved} />
        )}
      </Suspense>
    </Page>
  );
}
