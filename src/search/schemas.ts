/** Request and response schemas of the search routes (docs/design.md, Search providers). */
import { z } from 'zod';
import { queryFlag } from '../platform/query-flag.js';
import { RESULT_TYPES } from './filters.js';
import type { SearchFilters } from './filters.js';
import { PROVIDER_IDS } from './types.js';

const VENUE_MAX = 200;
const Year = z.coerce
  .number()
  .int('must be a whole year')
  .min(1000, 'must be a year from 1000 to 9999')
  .max(9999, 'must be a year from 1000 to 9999');

/**
 * `GET /api/search`'s parameters, filters included (filters.ts). Any route that searches the providers
 * takes this schema and hands `searchFiltersOf(query)` to `searchProviders`.
 */
export const SearchQuery = z
  .object({
    q: z.string().trim().min(1, 'must be 1-500 characters').max(500, 'must be 1-500 characters'),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    offset: z.coerce.number().int().min(0).max(10_000).default(0),
    sort: z.enum(['relevance', 'date', 'citations']).default('relevance'),
    providers: z
      .string()
      .max(200)
      .optional()
      .describe(
        'Comma-separated provider ids (`semantic` is accepted for `semanticscholar`); all enabled ones when absent',
      ),
    yearFrom: Year.optional().describe(
      'Only works published in or after this year (a work whose year is unknown is left out)',
    ),
    yearTo: Year.optional().describe(
      'Only works published in or before this year (a work whose year is unknown is left out)',
    ),
    hasPdf: queryFlag('true: only works with a freely readable PDF (open access); false: any'),
    type: z
      .enum(RESULT_TYPES)
      .optional()
      .describe(
        'Only works of this kind; every provider type maps onto one (docs/api.md, Search filters)',
      ),
    venue: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(VENUE_MAX, `must be at most ${VENUE_MAX} characters`)
      .optional()
      .describe(
        'Only works whose venue (journal, conference, repository) contains these words, ignoring case and accents',
      ),
  })
  .refine(
    (query) =>
      query.yearFrom === undefined || query.yearTo === undefined || query.yearFrom <= query.yearTo,
    {
      path: ['yearTo'],
      message: 'must not be before yearFrom',
    },
  );

/** The filters of a validated search query, only those set. */
export function searchFiltersOf(query: z.infer<typeof SearchQuery>): SearchFilters {
  return {
    ...(query.yearFrom !== undefined ? { yearFrom: query.yearFrom } : {}),
    ...(query.yearTo !== undefined ? { yearTo: query.yearTo } : {}),
    ...(query.hasPdf ? { hasPdf: true } : {}),
    ...(query.type ? { type: query.type } : {}),
    ...(query.venue ? { venue: query.venue } : {}),
  };
}

const ProviderIdSchema = z.enum(PROVIDER_IDS);

export const SearchResultSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    authors: z.array(z.string()),
    abstract: z.string(),
    url: z.string(),
    provider: ProviderIdSchema,
    publishedDate: z
      .string()
      .nullable()
      .describe(
        'ISO 8601 date at the precision known: YYYY-MM-DD, YYYY-MM or YYYY; null when unknown',
      ),
    citations: z
      .number()
      .int()
      .nullable()
      .describe(
        'How many works cite this one, as the provider counts; null when unknown (arXiv, PubMed, Zenodo and YouTube publish no count), never 0 for unknown',
      ),
    score: z.number().min(0).max(1),
    sources: z.array(ProviderIdSchema),
    doi: z.string().optional(),
    arxivId: z.string().optional(),
    pmid: z.string().optional(),
    pdfUrl: z.string().optional(),
    venue: z.string().optional(),
    type: z
      .string()
      .optional()
      .describe(
        "The provider's own type (`journal-article`, `JournalArticle`, `preprint`, `dataset`, ...)",
      ),
    inLibrary: z
      .array(
        z.object({
          workspaceId: z.uuid(),
          workspaceName: z.string(),
          resourceId: z.uuid().describe("The saved resource's id"),
        }),
      )
      .optional()
      .describe(
        'Where this work already is in your workspaces (same DOI, arXiv id, ' +
          'PMID, URL or result id as adding uses); on GET /api/search for a ' +
          'signed-in user only, empty when nowhere',
      ),
  })
  .meta({ id: 'SearchResult' });

export const ProviderStatusSchema = z
  .object({
    id: ProviderIdSchema,
    status: z.enum(['ok', 'timeout', 'error', 'rate_limited', 'disabled']),
    count: z.number().int(),
    took: z.number(),
    reason: z
      .enum(['unreachable', 'error_response', 'bad_response'])
      .optional()
      .describe(
        'With status `error`: `unreachable` (no connection could be made), `error_response` ' +
          '(it answered with an error) or `bad_response` (its answer could not be read)',
      ),
  })
  .meta({ id: 'ProviderStatus' });

export const SearchResponse = z
  .object({
    results: z.array(SearchResultSchema),
    total: z.number().int(),
    hasMore: z.boolean(),
    query: z.string(),
    took: z.number().describe('Milliseconds'),
    providers: z.array(ProviderStatusSchema),
  })
  .meta({ id: 'SearchReply' });

export const ProvidersResponse = z
  .object({
    providers: z.array(
      z.object({
        id: ProviderIdSchema,
        name: z.string(),
        description: z.string(),
        enabled: z.boolean(),
        rateLimit: z
          .number()
          .describe('Requests per minute this service allows itself against the upstream API'),
      }),
    ),
  })
  .meta({ id: 'ProvidersReply' });

export const LookupQuery = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('A result id, DOI (bare or URL), arXiv id or URL, PMID, or OpenAlex id'),
});

export const LookupResponse = z
  .object({ resource: SearchResultSchema })
  .meta({ id: 'LookupReply' });

export const StreamHeaders = z.object({
  'last-event-id': z
    .string()
    .max(100)
    .optional()
    .describe(
      'Sent by an EventSource when it reconnects; `end` (a finished stream) is answered 204',
    ),
});

export const SearchEventStream = z.unknown().meta({
  id: 'SearchEventStream',
  type: 'string',
  description:
    'Server-sent events: `provider` {provider: ProviderStatus, page: ' +
    'SearchReply} once for each selected provider as it settles (`page`: the ' +
    'requested page of what the providers settled so far found, merged and ' +
    'ranked; `page.providers` lists those providers); then `done`, the ' +
    'SearchReply of `GET /api/search` for the same parameters. On failure ' +
    'one `error` event {message, code, retryAfter?} ends the stream ' +
    '(`retryAfter`: seconds to wait, when the rate limit refused it, code ' +
    '`RATE_LIMITED`). Every event has an id; the last one (`done` or ' +
    '`error`) has the id `end`, and the stream opens with `retry: 3600000`. ' +
    'Lines starting with `:` are keep-alive comments.',
});
