/** What the library search form sends: the filters of GET /api/library/search with its bounds (search-state.ts). */
import { z } from 'zod/mini';
import { isYear, LIMITS } from './search-state';

const atMost = (max: number) => `At most ${max} characters.`;
const bounded = (max: number) => z.string().check(z.trim(), z.maxLength(max, atMost(max)));
/** Empty (no bound) or a year the API takes. */
const Year = z.string().check(
  z.trim(),
  z.refine(
    (value) => value === '' || isYear(value),
    `A year from ${LIMITS.yearMin} to ${LIMITS.yearMax}, such as 2017.`,
  ),
);

export const LibrarySearchForm = z
  .object({
    q: bounded(LIMITS.q),
    workspace: z.string(),
    tag: bounded(LIMITS.tag),
    type: bounded(LIMITS.type),
    yearFrom: Year,
    yearTo: Year,
  })
  .check(
    z.superRefine(({ yearFrom, yearTo }, context) => {
      if (isYear(yearFrom) && isYear(yearTo) && Number(yearTo) < Number(yearFrom))
        context.addIssue({
          code: 'custom',
          input: yearTo,
          path: ['yearTo'],
          message: 'Not before the first year.',
        });
    }),
  );
