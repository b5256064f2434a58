/** Search routes (search, providers) and the lookup by identifier that adding a resource by `resourceId` needs (docs/design.md, Dialects). */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordSearch } from '../analytics/index.js';
import type { AppContext } from '../context.js';
import { abortWhenClientGoes } from '../platform/client-gone.js';
import { notFound, serviceUnavailable, validationError } from '../platform/errors.js';
import { ErrorResponse, PUBLIC, RATE_LIMIT_HEADERS, SIGNED_IN_OPTIONAL } from '../platform/openapi.js';
import { parseIdentifier } from './identifiers.js';
import { lookupResource, LookupUnavailableError } from './lookup.js';
import { presentProviderStatus, presentSearchResult } from './presenters.js';
import { describeProviders, parseProviderSelection } from './registry.js';
import { LookupQuery, LookupResponse, ProvidersResponse, SearchQuery, SearchResponse, searchFiltersOf } from './schemas.js';
import { searchProviders } from './search.js';
import type { SearchService } from './service.js';

const tags = ['search'];

/**
 * A queue of work the reply does not depend on (cache writes, the analytics row), run once the reply
 * has been sent or the client has gone (the response emits `close` either way), so that the caller
 * does not wait for it.
 */
function afterReply(reply: FastifyReply): (work: () => unknown) => void {
  const queued: Array<() => unknown> = [];
  let replied = reply.raw.destroyed || reply.raw.writableFinished;
  if (!replied) {
    reply.raw.once('close', () => {
      replied = true;
      for (const work of queued.splice(0)) void work();
    });
  }
  // Work queued once the client has gone (it left mid-search) runs on the next turn.
  return (work) => (replied ? void setImmediate(() => void work()) : void queued.push(work));
}

/** Where a work already is in a user's library (library search's `findInLibrary`, wired by app.ts). */
export type LibraryPlaces = (
  userId: string,
  works: Array<{ resourceId: string; url: string; doi?: string; arxivId?: string; pmid?: string }>,
) => Promise<Array<Array<{ workspaceId: string; workspaceName: string; resourceId: string }>>>;

export async function searchRoutes(root: FastifyInstance, ctx: AppContext, search: SearchService, libraryPlaces?: LibraryPlaces): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { config, platform } = ctx;

  app.get(
    '/api/search',
    {
      config: { auth: 'optional', rateLimit: ['user', 'search'] },
      schema: {
        tags,
        operationId: 'search',
        summary: 'Search all selected providers at once; one merged, de-duplicated, ranked list',
        description: 'Counted per user, else per anonymous session (RATE_LIMIT_SEARCH_PER_HOUR).',
        security: SIGNED_IN_OPTIONAL,
        querystring: SearchQuery,
        response: { 200: SearchResponse, 400: ErrorResponse, 429: ErrorResponse },
        responseHeaders: { 200: RATE_LIMIT_HEADERS },
      },
    },
    async (request, reply) => {
      const selection = parseProviderSelection(request.query.providers);
      if (!selection.ok) {
        throw validationError('providers', `unknown provider: ${selection.unknown.join(', ')}`.slice(0, 200));
      }
      const later = afterReply(reply);
      const result = await searchProviders({
        query: request.query.q,
        providers: selection.ids.map((id) => search.providers[id]),
        sort: request.query.sort,
        filters: searchFiltersOf(request.query),
        offset: request.query.offset,
        limit: request.query.limit,
        deadlineMs: config.providers.timeoutMs,
        cache: platform.cache,
        cacheTtlSeconds: config.providers.cacheTtlSeconds,
        signal: abortWhenClientGoes(reply),
        deferWork: later,
        log: request.log,
      });
      const searched = {
        userId: request.auth.user?.id ?? null,
        anonymousId: request.auth.user ? null : request.auth.anonymousId,
        query: request.query.q,
        providers: selection.ids,
        resultCount: result.total,
        tookMs: result.took,
      };
      // The reply does not need the analytics row: it is written once the reply has gone out.
      later(() => recordSearch(ctx.db, searched).catch((error: unknown) => request.log.warn({ err: error }, 'could not record the search for analytics')));
      const results = result.results.map(presentSearchResult);
      // Marked per request, after the (shared) provider cache: a cached answer never carries anyone's library.
      const user = request.auth.user;
      if (user && libraryPlaces) {
        const places = await libraryPlaces(
          user.id,
          result.results.map((record) => ({ resourceId: record.id, url: record.url, doi: record.doi, arxivId: record.arxivId, pmid: record.pmid })),
        );
        results.forEach((presented, index) => {
          presented.inLibrary = places[index] ?? [];
        });
      }
      return {
        results,
        total: result.total,
        hasMore: result.hasMore,
        query: result.query,
        took: result.took,
        providers: result.providers.map(presentProviderStatus),
      };
    },
  );

  app.get(
    '/api/search/providers',
    {
      config: { auth: 'optional', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listSearchProviders',
        summary: 'The search providers, whether each is enabled, and its rate limit',
        security: PUBLIC,
        response: { 200: ProvidersResponse },
      },
    },
    async () => ({ providers: describeProviders(search.providers) }),
  );

  app.get(
    '/api/resources/lookup',
    {
      config: { auth: 'optional', rateLimit: ['user', 'search'] },
      schema: {
        tags,
        operationId: 'lookupResource',
        summary: 'One normalised record for a result id, DOI, arXiv id or URL, PMID or OpenAlex id',
        security: SIGNED_IN_OPTIONAL,
        querystring: LookupQuery,
        response: { 200: LookupResponse, 400: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse },
        responseHeaders: { 200: RATE_LIMIT_HEADERS },
      },
    },
    async (request, reply) => {
      if (!parseIdentifier(request.query.id)) {
        throw validationError('id', 'not a recognised identifier', 'id must be a result id, DOI, arXiv id, PMID or OpenAlex id');
      }
      const record = await lookupResource(request.query.id, search.providers, { signal: abortWhenClientGoes(reply) }).catch((error: unknown) => {
        if (error instanceof LookupUnavailableError) throw serviceUnavailable('The providers that know this identifier did not answer');
        throw error;
      });
      if (!record) throw notFound('Resource');
      return { resource: presentSearchResult(record) };
    },
  );
}
