/**
 * The search reply and the provider list, through the typed query hooks (one cache entry per URL
 * state). The first page is streamed (search-stream.ts): the cache entry of GET /api/search for the
 * same parameters fills as each provider answers, and ends as the reply that route gives, so later
 * pages, back/forward and "In your library" marks treat it as any other reply.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { queries } from '../../../api/client';
import type { components } from '../../../api/schema';
import { apiFilters, PAGE_SIZE, type SearchResult, type SearchState } from '../search-state';
import { streamSearch } from '../search-stream';

type SearchReply = components['schemas']['SearchReply'];
type RelatedReply = components['schemas']['RelatedWorksReply'];
/** Where a result is kept: a workspace and the resource saved there. */
type LibraryPlace = NonNullable<SearchResult['inLibrary']>[number];

export function useSearchResults(state: SearchState) {
  const query = {
    q: state.q,
    limit: PAGE_SIZE,
    offset: (state.page - 1) * PAGE_SIZE,
    sort: state.sort,
    ...(state.providers ? { providers: state.providers.join(',') } : {}),
    ...apiFilters(state.filters),
  };
  const options = queries.queryOptions('get', '/api/search', { params: { query } });
  const queryClient = useQueryClient();
  return useQuery({
    ...options,
    ...(state.page === 1
      ? {
          queryFn: ({ signal }) =>
            streamSearch(query, (page) => queryClient.setQueryData(options.queryKey, page), signal),
        }
      : {}),
    enabled: state.q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

export function useSearchProviders() {
  return queries.useQuery('get', '/api/search/providers', undefined, {
    staleTime: 60 * 60_000,
    select: (reply) => reply.providers,
  });
}

/**
 * A result just saved says "In your library" at once, in every cached reply that holds it (searches and
 * related-works lists), without a new search (which would count against the hourly limit and ask every provider again).
 */
export function useMarkSaved() {
  const queryClient = useQueryClient();
  return useCallback(
    (saved: SearchResult, place: LibraryPlace) => {
      const withPlace = (result: SearchResult): SearchResult => {
        const places = result.inLibrary ?? [];
        if (
          result.provider !== saved.provider ||
          result.id !== saved.id ||
          places.some((each) => each.resourceId === place.resourceId)
        )
          return result;
        return { ...result, inLibrary: [...places, place] };
      };
      queryClient.setQueriesData<SearchReply>(
        { queryKey: ['get', '/api/search'] },
        (reply) => reply && { ...reply, results: reply.results.map(withPlace) },
      );
      // A result's related-works lists (RelatedWorks.tsx) hold search results too.
      for (const path of [
        '/api/works/{id}/references',
        '/api/works/{id}/citations',
        '/api/works/{id}/similar',
      ] as const) {
        queryClient.setQueriesData<RelatedReply>(
          { queryKey: ['get', path] },
          (reply) => reply && { ...reply, results: reply.results.map(withPlace) },
        );
      }
    },
    [queryClient],
  );
}
