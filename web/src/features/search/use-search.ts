/** The search reply and the provider list, through TanStack Query (one cache entry per URL state). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { PAGE_SIZE, type SearchReply, type SearchState } from './search-state';

export function useSearchResults(state: SearchState) {
  return useQuery({
    queryKey: ['search', state.q, state.sort, state.providers?.join(',') ?? '', state.page],
    enabled: state.q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
    queryFn: ({ signal }): Promise<SearchReply> =>
      unwrap(
        api.GET('/api/search', {
          params: {
            query: {
              q: state.q,
              limit: PAGE_SIZE,
              offset: (state.page - 1) * PAGE_SIZE,
              sort: state.sort,
              ...(state.providers ? { providers: state.providers.join(',') } : {}),
            },
          },
          signal,
        }),
      ),
  });
}

export function useSearchProviders() {
  return useQuery({
    queryKey: ['search-providers'],
    staleTime: 60 * 60_000,
    queryFn: async () => (await unwrap(api.GET('/api/search/providers'))).providers,
  });
}
