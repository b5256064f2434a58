/** Analytics routes: the signed-in user's searches and saved resources. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../auth/index.js';
import type { AppContext } from '../context.js';
import { ErrorResponse } from '../platform/openapi.js';
import { resourceCategories, resourceTotals } from '../workspaces/index.js';
import { topCategories } from './categories.js';
import {
  PERIOD_DAYS,
  ResourceAnalyticsResponse,
  SearchAnalyticsQuery,
  SearchAnalyticsResponse,
} from './schemas.js';
import { countSearches, searchGroups } from './store.js';
import { popularTopicCounts } from './topics.js';

const tags = ['analytics'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse };
const SEARCHES_SHOWN = 50;
/** Topics are drawn from this many of the most searched queries. */
const QUERIES_FOR_TOPICS = 1_000;

export async function analyticsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    '/api/analytics/search',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'getSearchAnalytics',
        summary:
          'Your searches over a period (day, week (default), month, year): grouped queries, total, popular topics with their counts',
        querystring: SearchAnalyticsQuery,
        response: { 200: SearchAnalyticsResponse, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { period } = request.query;
      const since = new Date(Date.now() - PERIOD_DAYS[period] * 86_400_000);
      const [groups, totalSearches] = await Promise.all([
        searchGroups(db, user.id, since, QUERIES_FOR_TOPICS),
        countSearches(db, user.id, since),
      ]);
      const topics = popularTopicCounts(
        groups.map(({ normalizedQuery, count }) => ({ query: normalizedQuery, count })),
      );
      return {
        searches: groups.slice(0, SEARCHES_SHOWN).map(({ query, count, lastSearched }) => ({
          query,
          count,
          lastSearched: lastSearched.toISOString(),
        })),
        totalSearches,
        popularTopics: topics.map((entry) => entry.topic),
        topicCounts: topics,
        period,
        since: since.toISOString(),
      };
    },
  );

  app.get(
    '/api/analytics/resources',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'getResourceAnalytics',
        summary:
          'Your saved resources: how many, how many shared, top categories, total reading time in minutes',
        response: { 200: ResourceAnalyticsResponse, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const [totals, categories] = await Promise.all([
        resourceTotals(db, user.id, new Date()),
        resourceCategories(db, user.id),
      ]);
      return {
        savedResources: totals.saved,
        sharedResources: totals.shared,
        topCategories: topCategories(categories),
        readingTime: Math.ceil(totals.readingMinutes),
      };
    },
  );
}
