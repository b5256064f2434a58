/** Request and response schemas of the analytics routes. */
import { z } from 'zod';

export const PERIOD_DAYS = { day: 1, week: 7, month: 30, year: 365 } as const;

export const SearchAnalyticsQuery = z.object({
  period: z.enum(['day', 'week', 'month', 'year']).default('week'),
});

export const SearchAnalyticsResponse = z
  .object({
    searches: z
      .array(
        z.object({ query: z.string(), count: z.number().int(), lastSearched: z.iso.datetime() }),
      )
      .describe(
        'Searches grouped by normalised query (shown as last typed), most frequent first, at most 50',
      ),
    totalSearches: z.number().int(),
    popularTopics: z
      .array(z.string())
      .describe('Significant terms and recurring two-word phrases of the queries, at most 10'),
    topicCounts: z
      .array(z.object({ topic: z.string(), count: z.number().int() }))
      .describe(
        'An extension: popularTopics in the same order, each with the number of ' +
          'searches in the period whose query contains it (stopwords removed, as ' +
          'the topics are found; a query counts once per topic)',
      ),
    period: z.enum(['day', 'week', 'month', 'year']),
    since: z.iso.datetime().describe('Start of the period (the last 1, 7, 30 or 365 days)'),
  })
  .meta({ id: 'SearchAnalytics' });

export const ResourceAnalyticsResponse = z
  .object({
    savedResources: z.number().int(),
    sharedResources: z
      .number()
      .int()
      .describe('Resources in workspaces that have a live share link'),
    topCategories: z
      .array(z.object({ category: z.string(), count: z.number().int() }))
      .describe('By type; resources without a type by their tags; at most 10'),
    readingTime: z
      .number()
      .int()
      .describe(
        'Minutes: known reading times where stored, else an estimate from the stored text at 200 words a minute',
      ),
  })
  .meta({ id: 'ResourceAnalytics' });
