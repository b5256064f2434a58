/** Search routes (search, providers) and the lookup by identifier that adding a resource by `resourceId` needs (docs/design.md, Dialects). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordSearch } from '../analytics/index.js';
import type { AppContext } from '../context.js';
import { abortWhenClientGoes } from '../platform/client-gone.js';
import {
  FINAL_EVENT_ID,
  openEventStream,
  reconnectsAfterEnd,
  STREAM_RETRY_MS,
  type EventStream,
} from '../platform/event-stream.js';
import { toApiError } from '../platform/http-errors.js';
import { notFound, serviceUnavailable, validationError } from '../platform/errors.js';
import {
  ErrorResponse,
  PUBLIC,
  RATE_LIMIT_HEADERS,
  SIGNED_IN_OPTIONAL,
} from '../platform/openapi.js';
import { parseIdentifier } from './identifiers.js';
import { lookupResource, LookupUnavailableError } from './lookup.js';
import { isNewSearch } from './new-search.js';
import { presentProviderStatus, presentSearchResult, presentStreamError } from './presenters.js';
import { describeProviders, parseProviderSelection } from './registry.js';
import {
  LookupQuery,
  LookupResponse,
  ProvidersResponse,
  SearchEventStream,
  SearchQuery,
  SearchResponse,
  searchFiltersOf,
  StreamHeaders,
} from './schemas.js';
import { searchProviders, type SearchReply } from './search.js';
import type { SearchService } from './service.js';

const tags = ['search'];
const KEEP_ALIVE_MS = 15_000;
/** What a stream still open when the server shuts down is told. */
const SHUTDOWN_EVENT = {
  message: 'The server is restarting; try again in a moment',
  code: 'SERVICE_UNAVAILABLE',
};
const SEARCH_LIMIT_NOTE =
  'Counted per user, else per anonymous session and address ' +
  '(RATE_LIMIT_SEARCH_PER_HOUR), only when the search must ask a provider: ' +
  'another page, another sort or fewer sources for the same words, ' +
  'answered from the provider cache, count nothing (a caller past the ' +
  'limit is still refused). Analytics records the words once per user ' +
  'within the cache lifetime.';

type SearchQueryInput = z.infer<typeof SearchQuery>;
type PresentedReply = z.infer<typeof SearchResponse>;

/** Who the analytics "already searched" key is kept for: the user, else the anonymous session, else the address. */
function requesterOf(request: FastifyRequest): string {
  if (request.auth.user) return `user:${request.auth.user.id}`;
  return request.auth.anonymousId ? `anon:${request.auth.anonymousId}` : `ip:${request.ip}`;
}

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

export async function searchRoutes(
  root: FastifyInstance,
  ctx: AppContext,
  search: SearchService,
  libraryPlaces?: LibraryPlaces,
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { config, platform } = ctx;

  /**
   * One search as `GET /api/search` answers it, for both routes: the providers asked (the search limit
   * counted only if one must be asked: `request.countWork`), the reply presented and marked with the
   * user's library, and the analytics row written once the reply has gone, for a new search only
   * (new-search.ts). `onProgress` gets each provider's status and the page so far (the stream).
   */
  async function serveSearch(
    request: FastifyRequest,
    query: SearchQueryInput,
    reply: FastifyReply,
    onProgress?: (
      provider: ReturnType<typeof presentProviderStatus>,
      page: PresentedReply,
    ) => Promise<void>,
  ): Promise<PresentedReply> {
    const selection = parseProviderSelection(query.providers);
    if (!selection.ok) {
      throw validationError(
        'providers',
        `unknown provider: ${selection.unknown.join(', ')}`.slice(0, 200),
      );
    }
    const later = afterReply(reply);
    const user = request.auth.user;
    const present = async (result: SearchReply): Promise<PresentedReply> => {
      const results = result.results.map(presentSearchResult);
      // Marked per request, after the (shared) provider cache: a cached answer never carries anyone's library.
      if (user && libraryPlaces) {
        const places = await libraryPlaces(
          user.id,
          result.results.map((record) => ({
            resourceId: record.id,
            url: record.url,
            doi: record.doi,
            arxivId: record.arxivId,
            pmid: record.pmid,
          })),
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
    };
    // Progress events go out one after another, in the order the providers settled.
    let progress = Promise.resolve();
    const result = await searchProviders({
      query: query.q,
      providers: selection.ids.map((id) => search.providers[id]),
      sort: query.sort,
      filters: searchFiltersOf(query),
      offset: query.offset,
      limit: query.limit,
      deadlineMs: config.providers.timeoutMs,
      cache: platform.cache,
      cacheTtlSeconds: config.providers.cacheTtlSeconds,
      signal: abortWhenClientGoes(reply),
      deferWork: later,
      log: request.log,
      beforeProviderCalls: request.countWork ?? undefined,
      onProgress: onProgress
        ? (settled, page) => {
            progress = progress
              .then(async () => onProgress(presentProviderStatus(settled), await present(page)))
              .catch((error: unknown) =>
                request.log.warn({ err: error }, 'could not send a search progress event'),
              );
          }
        : undefined,
    });
    await progress;
    const searched = {
      userId: user?.id ?? null,
      anonymousId: user ? null : request.auth.anonymousId,
      query: query.q,
      providers: selection.ids,
      resultCount: result.total,
      tookMs: result.took,
    };
    // The reply does not need the analytics row: it is written once the reply has gone out.
    later(async () => {
      try {
        if (
          await isNewSearch(
            platform.cache,
            requesterOf(request),
            query.q,
            config.providers.cacheTtlSeconds,
          )
        )
          await recordSearch(ctx.db, searched);
      } catch (error) {
        request.log.warn({ err: error }, 'could not record the search for analytics');
      }
    });
    return present(result);
  }

  app.get(
    '/api/search',
    {
      config: { auth: 'optional', rateLimit: ['user', 'searchProviderCalls'] },
      schema: {
        tags,
        operationId: 'search',
        summary: 'Search all selected providers at once; one merged, de-duplicated, ranked list',
        description: SEARCH_LIMIT_NOTE,
        security: SIGNED_IN_OPTIONAL,
        querystring: SearchQuery,
        response: { 200: SearchResponse, 400: ErrorResponse, 429: ErrorResponse },
        responseHeaders: { 200: RATE_LIMIT_HEADERS },
      },
    },
    async (request, reply) => serveSearch(request, request.query, reply),
  );

  // Streams open now: when the server shuts down each gets an `error` event and its work is stopped.
  const openStreams = new Set<EventStream>();
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.finish('error', SHUTDOWN_EVENT);
  });

  app.get(
    '/api/search/stream',
    {
      config: {
        auth: 'optional',
        rateLimit: ['user', 'searchProviderCalls'],
        // A refusal (the rate limit, a bad query) is the stream's `error` event, which an EventSource can read.
        attachRefusal: true,
        uncounted: (request) => reconnectsAfterEnd(request.headers['last-event-id']),
      },
      attachValidation: true,
      schema: {
        tags,
        operationId: 'streamSearch',
        summary:
          'The same search as server-sent events: each provider as it answers, then the whole reply',
        description:
          'Takes the parameters of `GET /api/search`. Events: `provider` ' +
          '{provider: ProviderStatus, page: SearchReply} as each selected provider ' +
          'settles (answered, failed, timed out, rate limited or disabled), in the ' +
          'order they settle: `page` is the requested page of the records of the ' +
          'providers settled so far, merged, ranked and marked as the final reply ' +
          'is, and `page.providers` lists those providers; `done` the SearchReply ' +
          '`GET /api/search` answers; `error` {message, code, retryAfter?} (bad ' +
          'parameters: code `VALIDATION_ERROR`; the rate limit: code ' +
          '`RATE_LIMITED` with `retryAfter` in seconds; a server shutting down: ' +
          '`SERVICE_UNAVAILABLE`). ' +
          `Every event has an id; the last one (\`done\` or \`error\`) has the id ` +
          `\`${FINAL_EVENT_ID}\`, and the stream asks for ` +
          `\`retry: ${STREAM_RETRY_MS}\`. ` +
          `Clients close the EventSource on \`done\` and \`error\`; a reconnect ` +
          `that sends \`Last-Event-ID: ${FINAL_EVENT_ID}\` is answered 204 and ` +
          `costs nothing. ` +
          SEARCH_LIMIT_NOTE,
        security: SIGNED_IN_OPTIONAL,
        querystring: SearchQuery,
        headers: StreamHeaders,
        response: {
          200: {
            description: 'An event stream (text/event-stream)',
            content: { 'text/event-stream': { schema: SearchEventStream } },
          },
          204: z
            .null()
            .describe(
              'A reconnect after a finished stream (Last-Event-ID: end): nothing more to send',
            ),
        },
      },
    },
    async (request, reply) => {
      if (reconnectsAfterEnd(request.headers['last-event-id'])) return reply.code(204).send(null);
      const problem = request.rateLimitRefusal ?? request.validationError;
      const stream = openEventStream(reply);
      if (problem) {
        stream.finish('error', presentStreamError(toApiError(problem)));
        return reply;
      }
      openStreams.add(stream);
      const keepAlive = setInterval(() => stream.keepAlive(), KEEP_ALIVE_MS);
      serveSearch(request, request.query, reply, async (provider, page) =>
        stream.send('provider', { provider, page }),
      )
        .then((final) => stream.finish('done', final))
        .catch((error: unknown) => {
          const apiError = toApiError(error);
          if (apiError.status >= 500) request.log.error({ err: error }, 'search stream failed');
          stream.finish('error', presentStreamError(apiError));
        })
        .finally(() => {
          clearInterval(keepAlive);
          openStreams.delete(stream);
          stream.end();
        });
      return reply;
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
        response: {
          200: LookupResponse,
          400: ErrorResponse,
          404: ErrorResponse,
          429: ErrorResponse,
          503: ErrorResponse,
        },
        responseHeaders: { 200: RATE_LIMIT_HEADERS },
      },
    },
    async (request, reply) => {
      if (!parseIdentifier(request.query.id)) {
        throw validationError(
          'id',
          'not a recognised identifier',
          'id must be a result id, DOI, arXiv id, PMID or OpenAlex id',
        );
      }
      const record = await lookupResource(request.query.id, search.providers, {
        signal: abortWhenClientGoes(reply),
      }).catch((error: unknown) => {
        if (error instanceof LookupUnavailableError)
          throw serviceUnavailable('The providers that know this identifier did not answer');
        throw error;
      });
      if (!record) throw notFound('Resource');
      return { resource: presentSearchResult(record) };
    },
  );
}
