/** Request and response schemas of the search routes (docs/design.md, Search providers). */
import { z } from 'zod';
import { PROVIDER_IDS } from './types.js';

export const SearchQuery = z.object({
  q: z.string().trim().min(1, 'must be 1-500 characters').max(500, 'must be 1-500 characters'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
  sort: z.enum(['relevance', 'date', 'citations']).default('relevance'),
  providers: z.string().max(200).optional().describe('Comma-separated provider ids (`semantic` is accepted for `semanticscholar`); all enabled ones when absent'),
});

const ProviderIdSchema = z.enum(PROVIDER_IDS);

export const SearchResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  authors: z.array(z.string()),
  abstract: z.string(),
  url: z.string(),
  provider: ProviderIdSchema,
  publishedDate: z.string().nullable().describe('ISO 8601 date at the precision known: YYYY-MM-DD, YYYY-MM or YYYY; null when unknown'),
  citations: z.number().int(),
  score: z.number().min(0).max(1),
  sources: z.array(ProviderIdSchema),
  doi: z.string().optional(),
  arxivId: z.string().optional(),
  pmid: z.string().optional(),
  pdfUrl: z.string().optional(),
  venue: z.string().optional(),
  type: z.string().optional(),
  inLibrary: z
    .array(z.object({ workspaceId: z.uuid(), workspaceName: z.string(), resourceId: z.uuid().describe("The saved resource's id") }))
    .optional()
    .describe('Where this work already is in your workspaces (same DOI, arXiv id, PMID, URL or result id as adding uses); on GET /api/search for a signed-in user only, empty when nowhere'),
}).meta({ id: 'SearchResult' });

export const ProviderStatusSchema = z.object({
  id: ProviderIdSchema,
  status: z.enum(['ok', 'timeout', 'error', 'rate_limited', 'disabled']),
  count: z.number().int(),
  took: z.number(),
}).meta({ id: 'ProviderStatus' });

export const SearchResponse = z.object({
  results: z.array(SearchResultSchema),
  total: z.number().int(),
  hasMore: z.boolean(),
  query: z.string(),
  took: z.number().describe('Milliseconds'),
  providers: z.array(ProviderStatusSchema),
}).meta({ id: 'SearchReply' });

export const ProvidersResponse = z.object({
  providers: z.array(
    z.object({
      id: ProviderIdSchema,
      name: z.string(),
      description: z.string(),
      enabled: z.boolean(),
      rateLimit: z.number().describe('Requests per minute this service allows itself against the upstream API'),
    }),
  ),
}).meta({ id: 'ProvidersReply' });

export const LookupQuery = z.object({
  id: z.string().trim().min(1).max(500).describe('A result id, DOI (bare or URL), arXiv id or URL, PMID, or OpenAlex id'),
});

export const LookupResponse = z.object({ resource: SearchResultSchema }).meta({ id: 'LookupReply' });
