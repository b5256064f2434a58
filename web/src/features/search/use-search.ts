/** The search reply and the provider list, through the typed query hooks (one cache entry per URL state). */
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { queries } from '../../api/client';
import type { components } from '../../api/schema';
import { PAGE_SIZE, type SearchResult, type SearchState } from './search-state';

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
  };
  return queries.useQuery('get', '/api/search', { params: { query } }, { enabled: state.q.length > 0, placeholderData: keepPreviousData, staleTime: 5 * 60_000 });
}

export function useSearchProviders() {
  return queries.useQuery('get', '/api/search/providers', undefined, { staleTime: 60 * 60_000, select: (reply) => reply.providers });
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
        if (result.provider !== saved.provider || result.id !== saved.id || places.some((each) => each.resourceId === place.resourceId)) return result;
        return { ...result, inLibrary: [...places, place] };
      };
      queryClient.setQueriesData<SearchReply>({ queryKey: ['get', '/api/search'] }, (reply) => reply && { ...reply, results: reply.results.map(withPlace) });
      // A result's related-works lists (RelatedWorks.tsx) hold search results too.
      for (const path of ['/api/works/{id}/references', '/api/works/{id}/citations', '/api/works/{id}/similar'] as const) {
        queryClient.setQueriesData<RelatedReply>({ queryKey: ['get', path] }, (reply) => reply && { ...reply, results: reply.results.map(withPlace) });
      }
    },
    [queryClient],
  );
}
