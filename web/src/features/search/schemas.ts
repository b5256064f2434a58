/** What the search box sends: the query as GET /api/search takes it (trimmed, at most 500 characters). */
import { z } from 'zod/mini';
import { MAX_QUERY_LENGTH, MAX_VENUE_LENGTH } from './search-state';

export const SearchForm = z.object({
  q: z
    .string()
    .check(z.trim(), z.maxLength(MAX_QUERY_LENGTH, `At most ${MAX_QUERY_LENGTH} characters.`)),
});

const YearText = z.string().check(
  z.trim(),
  z.refine((text) => text === '' || /^\d{4}$/.test(text), 'A year of four digits, such as 2017.'),
);

/** The filter bar's form: years as typed (empty for none), the type's value ('' for any), the venue's words. */
export const SearchFilterForm = z
  .object({
    yearFrom: YearText,
    yearTo: YearText,
    type: z.string(),
    venue: z
      .string()
      .check(z.trim(), z.maxLength(MAX_VENUE_LENGTH, `At most ${MAX_VENUE_LENGTH} characters.`)),
    hasPdf: z.boolean(),
  })
  .check(
    z.superRefine(({ yearFrom, yearTo }, context) => {
      if (yearFrom !== '' && yearTo !== '' && Number(yearTo) < Number(yearFrom))
        context.addIssue({
          code: 'custom',
          input: yearTo,
          path: ['yearTo'],
          message: 'Not before the first year.',
        });
    }),
  );
