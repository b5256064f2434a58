/** The search reply and the provider list, through the typed query hooks (one cache entry per URL state). */
import { keepPreviousData } from '@tanstack/react-query';
import { queries } from '../../api/client';
import { PAGE_SIZE, type SearchState } from './search-state';

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
