/** Request and response schemas of the related-works and suggestions routes. */
import { z } from 'zod';
import { ProviderStatusSchema, SearchResultSchema } from '../search/index.js';
import { LIST_FIELDS } from '../platform/reply-shapes.js';

/** The deepest point a page may start at: each provider is asked for at most 100 neighbours, two providers at most 200. */
const MAX_OFFSET = 199;

export const WorkParams = z.object({
  id: z
    .string()
    .trim()
    .min(1, 'must be 1-300 characters')
    .max(300, 'must be 1-300 characters')
    .describe(
      "A search result id, DOI, arXiv id, PMID or OpenAlex id (percent-encoded: a DOI's `/` as `%2F`), or the id of one of your saved resources",
    ),
});

export const RelatedQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(20),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
});

export const RelatedResponse = z
  .object({
    relation: z.enum(['references', 'citations', 'similar']),
    results: z.array(SearchResultSchema),
    total: z
      .number()
      .int()
      .describe('Works in the merged list the page was cut from (at most 100 per provider)'),
    hasMore: z.boolean(),
    took: z.number().describe('Milliseconds'),
    providers: z
      .array(ProviderStatusSchema)
      .describe(
        'OpenAlex and Semantic Scholar; `disabled` when the provider knows none of the work’s identifiers',
      ),
  })
  .meta({ id: 'RelatedWorksReply' });

export const WorkspaceParams = z.object({ id: z.uuid('must be a UUID') });

export const SuggestionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const SuggestionsResponse = z
  .object({
    suggestions: z.array(
      z.object({
        result: SearchResultSchema,
        connections: z
          .number()
          .int()
          .min(2)
          .describe('How many of the workspace’s resources cite it or are cited by it'),
        resourceIds: z.array(z.uuid()).describe('Those resources'),
      }),
    ),
    ...LIST_FIELDS,
    looked: z
      .number()
      .int()
      .describe('Resources looked at: the newest ones a graph provider can identify, at most 8'),
    took: z.number().describe('Milliseconds'),
    providers: z
      .array(ProviderStatusSchema)
      .describe('Per provider over all the calls: `ok` only when every call was'),
  })
  .meta({ id: 'WorkspaceSuggestionsReply' });
