/**
 * Related work through the citation graph: `GET /api/works/{id}/references | citations | similar`, and
 * co-citation suggestions for a workspace, `GET /api/workspaces/{id}/suggestions`. Counted in the
 * search bucket (each asks providers as a search does).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../auth/index.js';
import type { AppContext } from '../context.js';
import { abortWhenClientGoes } from '../platform/client-gone.js';
import { notFound } from '../platform/errors.js';
import { ErrorResponse, RATE_LIMIT_HEADERS, SIGNED_IN_OPTIONAL } from '../platform/openapi.js';
import {
  parseIdentifier,
  perProviderLimitFor,
  presentProviderStatus,
  presentSearchResult,
  type LibraryPlaces,
  type SearchProviders,
  type SearchRecord,
  type WorkRelation,
} from '../search/index.js';
import { readableResourceIds, readableWorkspaceWorkIds } from '../workspaces/index.js';
import { findRelated } from './related.js';
import {
  RelatedQuery,
  RelatedResponse,
  SuggestionsQuery,
  SuggestionsResponse,
  WorkParams,
  WorkspaceParams,
} from './schemas.js';
import { suggestForWorkspace } from './suggestions.js';
import { graphIdsOfIdentifier, graphIdsOfSaved, hasGraphIds, type GraphIds } from './work-ids.js';

const tags = ['discover'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SUMMARIES: Record<WorkRelation, string> = {
  references:
    'The works a work cites, from OpenAlex and Semantic Scholar, merged; most cited first',
  citations:
    'The works that cite a work, from OpenAlex and Semantic Scholar, merged; most cited first',
  similar: 'Works like a work (OpenAlex related works, Semantic Scholar recommendations), merged',
};

export async function discoverRoutes(
  root: FastifyInstance,
  ctx: AppContext,
  providers: SearchProviders,
  libraryPlaces: LibraryPlaces,
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { config, platform } = ctx;

  /** Each result says where it already is in the user's workspaces (empty when nowhere). */
  async function present(userId: string | undefined, records: SearchRecord[]) {
    const results = records.map(presentSearchResult);
    if (!userId) return results;
    const places = await libraryPlaces(
      userId,
      records.map((record) => ({
        resourceId: record.id,
        url: record.url,
        doi: record.doi,
        arxivId: record.arxivId,
        pmid: record.pmid,
      })),
    );
    return results.map((result, index) => ({ ...result, inLibrary: places[index] ?? [] }));
  }

  /** The graph ids of a work the caller names: an identifier, or one of their saved resources. */
  async function idsOfWork(id: string, userId: string | undefined): Promise<GraphIds> {
    if (UUID.test(id)) {
      if (!userId) throw notFound('Work');
      return graphIdsOfSaved(await readableResourceIds(ctx.db, { id: userId }, id));
    }
    const parsed = parseIdentifier(id);
    const ids = parsed ? graphIdsOfIdentifier(parsed) : {};
    if (!hasGraphIds(ids)) throw notFound('Work');
    return ids;
  }

  for (const relation of ['references', 'citations', 'similar'] as const) {
    app.get(
      `/api/works/:id/${relation}`,
      {
        config: { auth: 'optional', rateLimit: ['user', 'search'] },
        schema: {
          tags,
          operationId: `listWork${relation[0]?.toUpperCase()}${relation.slice(1)}`,
          summary: SUMMARIES[relation],
          description:
            'Counted per user, else per anonymous session, in the search allowance ' +
            '(RATE_LIMIT_SEARCH_PER_HOUR). A work no graph provider can identify (a ' +
            'video, a page known by its URL only), or a saved resource that is not yours, is 404.',
          security: SIGNED_IN_OPTIONAL,
          params: WorkParams,
          querystring: RelatedQuery,
          response: {
            200: RelatedResponse,
            400: ErrorResponse,
            404: ErrorResponse,
            429: ErrorResponse,
          },
          responseHeaders: { 200: RATE_LIMIT_HEADERS },
        },
      },
      async (request, reply) => {
        const startedAt = Date.now();
        const userId = request.auth.user?.id;
        const ids = await idsOfWork(request.params.id, userId);
        const { offset, limit } = request.query;
        const answer = await findRelated({
          ids,
          relation,
          providers,
          perProviderLimit: perProviderLimitFor(offset, limit),
          deadlineMs: config.providers.timeoutMs,
          cache: platform.cache,
          cacheTtlSeconds: config.providers.cacheTtlSeconds,
          signal: abortWhenClientGoes(reply),
          log: request.log,
        });
        const page = answer.records.slice(offset, offset + limit);
        return {
          relation,
          results: await present(userId, page),
          total: answer.records.length,
          hasMore: offset + page.length < answer.records.length,
          took: Date.now() - startedAt,
          providers: answer.providers.map(presentProviderStatus),
        };
      },
    );
  }

  app.get(
    '/api/workspaces/:id/suggestions',
    {
      config: { auth: 'required', rateLimit: ['user', 'search'] },
      schema: {
        tags,
        operationId: 'listWorkspaceSuggestions',
        summary:
          'Works that several of the workspace’s resources cite or are cited by, most connected first',
        description:
          'Looks at the 8 newest resources a graph provider can identify, through ' +
          'their references and citations (cached as GET /api/works/{id}/… caches ' +
          'them); leaves out works already in the workspace. Counted in the search allowance.',
        params: WorkspaceParams,
        querystring: SuggestionsQuery,
        response: {
          200: SuggestionsResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          404: ErrorResponse,
          429: ErrorResponse,
        },
        responseHeaders: { 200: RATE_LIMIT_HEADERS },
      },
    },
    async (request, reply) => {
      const startedAt = Date.now();
      const user = requireUser(request);
      const resources = await readableWorkspaceWorkIds(ctx.db, user, request.params.id);
      const answer = await suggestForWorkspace(resources, {
        providers,
        deadlineMs: config.providers.timeoutMs,
        cache: platform.cache,
        cacheTtlSeconds: config.providers.cacheTtlSeconds,
        signal: abortWhenClientGoes(reply),
        log: request.log,
      });
      const records = answer.suggestions.map((suggestion) => suggestion.record);
      const presented = await present(user.id, records);
      // A work saved in this workspace under an identifier the graph did not report is left out too.
      const found = answer.suggestions.flatMap((suggestion, index) => {
        const result = presented[index];
        if (!result || result.inLibrary?.some((place) => place.workspaceId === request.params.id))
          return [];
        return [
          {
            result,
            connections: suggestion.resourceIds.length,
            resourceIds: suggestion.resourceIds,
          },
        ];
      });
      const suggestions = found.slice(0, request.query.limit);
      return {
        suggestions,
        total: found.length,
        hasMore: suggestions.length < found.length,
        looked: answer.looked,
        took: Date.now() - startedAt,
        providers: answer.providers.map(presentProviderStatus),
      };
    },
  );
}
