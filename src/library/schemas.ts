/** Request and response schemas of library search: they validate, type the handler and feed OpenAPI. */
import { z } from 'zod';
import { ErrorResponse } from '../platform/openapi.js';
import { LIST_FIELDS } from '../platform/reply-shapes.js';

const LIMITS = {
  query: 500,
  tag: 50,
  type: 50,
  limitDefault: 20,
  limitMax: 100,
  offsetMax: 10_000,
} as const;

const Year = z.coerce
  .number()
  .int('must be a whole year')
  .min(1000, 'must be a year from 1000 to 9999')
  .max(9999, 'must be a year from 1000 to 9999');

export const LibrarySearchQuery = z
  .object({
    q: z
      .string()
      .max(LIMITS.query, `must be at most ${LIMITS.query} characters`)
      .optional()
      .describe(
        'Words to find (websearch syntax: "a phrase", `or`, `-word`), in any case ' +
          'and with or without accents (`muller` finds Müller); the last ' +
          'word matches as a prefix until a space follows it. Absent or blank: ' +
          'every resource, filtered and sorted',
      ),
    workspaceId: z
      .uuid('must be a UUID')
      .optional()
      .describe('Only this workspace (404 when you cannot read it)'),
    tag: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(LIMITS.tag, `must be at most ${LIMITS.tag} characters`)
      .optional()
      .describe('Only resources with this tag (ignoring case)'),
    type: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(LIMITS.type, `must be at most ${LIMITS.type} characters`)
      .optional()
      .describe('Only resources of this type (ignoring case)'),
    yearFrom: Year.optional().describe('Only resources published in or after this year'),
    yearTo: Year.optional().describe('Only resources published in or before this year'),
    sort: z
      .enum(['relevance', 'date', 'added'])
      .default('relevance')
      .describe(
        'relevance (without words: as added), date (published, newest first), added (newest first)',
      ),
    limit: z.coerce.number().int().min(1).max(LIMITS.limitMax).default(LIMITS.limitDefault),
    offset: z.coerce.number().int().min(0).max(LIMITS.offsetMax).default(0),
  })
  .refine(
    (query) =>
      query.yearFrom === undefined || query.yearTo === undefined || query.yearFrom <= query.yearTo,
    {
      path: ['yearTo'],
      message: 'must not be before yearFrom',
    },
  );

export const SNIPPET_PLACES = [
  'title',
  'authors',
  'abstract',
  'notes',
  'tag',
  'annotation',
  'pdf',
] as const;

const SnippetSchema = z
  .object({
    in: z.enum(SNIPPET_PLACES).describe('Where the hit is'),
    page: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('The PDF page (numbered from 1), when `in` is pdf'),
    annotationId: z.uuid().optional().describe('The annotation, when `in` is annotation'),
    text: z.string().describe('Plain text around the hit (not HTML: escape it to show it)'),
    highlights: z
      .array(z.object({ start: z.number().int().min(0), end: z.number().int().min(0) }))
      .describe('The matched words in `text`, as [start, end) offsets in UTF-16 code units'),
  })
  .meta({ id: 'LibrarySnippet' });

export const LibraryHitSchema = z
  .object({
    id: z.uuid().describe("The resource's id"),
    workspace: z.object({ id: z.uuid(), name: z.string() }),
    title: z.string(),
    citationKey: z.string().describe('The key documents cite it by (see Resource.citationKey)'),
    authors: z.array(z.string()),
    tags: z.array(z.string()),
    type: z.string().nullable(),
    url: z.string().nullable(),
    publishedDate: z
      .string()
      .nullable()
      .describe(
        "YYYY-MM-DD, YYYY-MM or YYYY of the record's date issued (as last edited); null when unknown",
      ),
    addedAt: z.iso.datetime(),
    rank: z.number().min(0).describe('Higher is a better match (0 without words)'),
    snippets: z.array(SnippetSchema),
  })
  .meta({ id: 'LibraryHit' });

export const LibrarySearchResponse = z
  .object({
    results: z.array(LibraryHitSchema),
    total: z.number().int().min(0),
    hasMore: z.boolean(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: 'LibrarySearchReply' });

export const libraryErrors = {
  400: ErrorResponse,
  401: ErrorResponse,
  404: ErrorResponse,
  429: ErrorResponse,
};

export const CitationKeySearchQuery = z.object({
  q: z
    .string()
    .max(200, 'must be at most 200 characters')
    .default('')
    .describe(
      'Words each found in the key, the title or an author (any case, with or without accents); ' +
        'empty lists keys A–Z',
    ),
  limit: z.coerce.number().int().min(1).max(50).default(20).describe('1-50, default 20'),
});

const CitationKeyHitSchema = z
  .object({
    citationKey: z.string(),
    resourceId: z.uuid(),
    title: z.string(),
    shortReference: z
      .string()
      .describe('"Vaswani et al. 2017": the first author (two named, more as et al.) and the year'),
    workspace: z.object({ id: z.uuid(), name: z.string() }),
  })
  .meta({ id: 'CitationKeyHit' });

export const CitationKeySearchResponse = z
  .object({
    results: z
      .array(CitationKeyHitSchema)
      .describe('The exact key first, then keys beginning with q, then the rest by key'),
    ...LIST_FIELDS,
  })
  .meta({ id: 'CitationKeySearch' });
