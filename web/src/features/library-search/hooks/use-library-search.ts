/**
 * One page of library search hits for the address's state. Each state is its own query: a newer one
 * replaces the older, whose request is cancelled (the typed hooks pass TanStack's abort signal to fetch),
 * and the hits shown stay until the new ones come. Stale at once (TanStack's default): a resource saved, edited or
 * removed elsewhere in the app shows when the page is next drawn (the page drawn from the cache first).
 */
import { keepPreviousData } from '@tanstack/react-query';
import { queries } from '../../../api/client';
import { apiQuery, type LibrarySearchState } from '../search-state';

export function useLibrarySearch(state: LibrarySearchState) {
  return queries.useQuery(
    'get',
    '/api/library/search',
    { params: { query: apiQuery(state) } },
    { placeholderData: keepPreviousData },
  );
}
