/** What the search box sends: the query as GET /api/search takes it (trimmed, at most 500 characters). */
import { z } from 'zod/mini';
import { MAX_QUERY_LENGTH } from './search-state';

export const SearchForm = z.object({
  q: z.string().check(z.trim(), z.maxLength(MAX_QUERY_LENGTH, `At most ${MAX_QUERY_LENGTH} characters.`)),
});
