/**
 * POST /api/summarize (JSON, in the variant of its body) and GET /api/summarize (server-sent events:
 * meta, tldr, bullets, tags, done; or error, in that order). The stream's wire rules are in stream.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../auth/index.js';
import type { AppContext } from '../context.js';
import { storedResourceText } from '../workspaces/index.js';
import { RATE_LIMIT_HEADERS, SIGNED_IN_OPTIONAL } from '../platform/openapi.js';
import { abortWhenClientGoes } from '../platform/client-gone.js';
import { toApiError } from '../platform/http-errors.js';
import type { SummaryCache } from './cache.js';
import { z } from 'zod';
import type { Cancellation, Stage, Summarizer, SummaryRequest } from './produce.js';
import {
  presentPlainError,
  presentStreamError,
  presentStreamRefusal,
  presentSummary,
} from './presenters.js';
import {
  PlainError,
  StreamHeaders,
  SummarizeBody,
  SummarizeQuery,
  SummaryEventStream,
  VariantAResponse,
  VariantBResponse,
} from './schemas.js';
import { openStreamsGauge } from './metrics.js';
import {
  FINAL_EVENT_ID,
  openEventStream,
  reconnectsAfterEnd,
  STREAM_RETRY_MS,
  type EventStream,
} from '../platform/event-stream.js';
import { toSummaryVariantA } from './variants.js';

const tags = ['summaries'];
const KEEP_ALIVE_MS = 15_000;
/** What a stream still open when the server shuts down is told. */
const SHUTDOWN_EVENT = {
  message: 'The server is restarting; try again in a moment',
  code: 'SERVICE_UNAVAILABLE',
};

/**
 * The client's going away (or the server's shutdown) as the summarizer's cancellation. Nothing is set
 * up until the work asks for the signal (a cache hit never does).
 */
class ClientDisconnection implements Cancellation {
  private abortSignal: AbortSignal | undefined;

  constructor(
    private readonly reply: FastifyReply,
    /** The server's shutdown, which stops the work as a client's going away does. */
    private readonly shutdown?: AbortSignal,
  ) {}

  signal(): AbortSignal {
    return (this.abortSignal ??= abortWhenClientGoes(this.reply, this.shutdown));
  }
}

/**
 * A request naming a stored resource (workspaceId + resourceId) with what the resource holds: its
 * title and abstract when the request gives none, and its PDF's stored text. Only a signed-in user
 * who may read it: a visitor is asked to sign in, anyone else told it does not exist (404).
 */
async function withStoredResource<
  T extends SummaryRequest & { workspaceId?: string; resourceId?: string },
>(ctx: AppContext, request: FastifyRequest, input: T): Promise<T> {
  if (!input.workspaceId || !input.resourceId) return input;
  const user = requireUser(request);
  const stored = await storedResourceText(ctx.db, user.id, input.workspaceId, input.resourceId);
  return {
    ...input,
    title: input.title || stored.title,
    abstract: input.abstract || stored.abstract,
    stored: { pdf: stored.pdf },
  };
}

export async function summaryRoutes(
  root: FastifyInstance,
  ctx: AppContext,
  summarizer: Summarizer,
  cache: SummaryCache,
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/summarize',
    {
      bodyLimit: 2 * 1024 * 1024,
      config: {
        auth: 'optional',
        rateLimit: ['user', 'summarize'],
        presentError: presentPlainError,
      },
      schema: {
        tags,
        operationId: 'summarize',
        summary:
          'Summarise a paper: by content (Variant B) or by id/source/title/abstract/url/mode (Variant A)',
        security: SIGNED_IN_OPTIONAL,
        description:
          'mode `quick` summarises title + abstract; `deep` the text of the ' +
          "paper's PDF (never falls back); `auto` tries deep and falls back to " +
          'quick. With `workspaceId` and `resourceId` (signed in, a resource you ' +
          "may read; else 401/404) the resource's own title, abstract and stored " +
          'PDF text are used: deep needs no outbound fetch, and is a 422 while the ' +
          'resource has no extracted PDF. A cached summary is served only for the ' +
          'same input (title + abstract; for deep, title + id, source, url, ' +
          'pdfUrl, arxivId and doi). For deep the PDF is found from an arXiv id ' +
          'first, then pdfUrl, the provider record, the open-access locations of ' +
          'the DOI (OpenAlex), and the url. Errors are `{ error: "<message>" }`.',
        body: SummarizeBody,
        response: {
          200: VariantAResponse.or(VariantBResponse),
          400: PlainError,
          401: PlainError,
          404: PlainError,
          413: PlainError,
          422: PlainError,
          429: PlainError,
          500: PlainError,
          502: PlainError,
          503: PlainError,
          504: PlainError,
        },
        responseHeaders: { 200: RATE_LIMIT_HEADERS },
      },
    },
    async (request, reply) => {
      const body = await withStoredResource(ctx, request, request.body);
      // A failure is thrown as an ApiError with its status; the error handler renders it with presentPlainError.
      const outcome = await summarizer.run(body, { cancellation: new ClientDisconnection(reply) });
      return presentSummary(outcome, body.content !== undefined ? 'B' : 'A', cache.description);
    },
  );

  // Streams open now: when the server shuts down each gets an `error` event and its work is stopped,
  // so the process drains at once instead of waiting for them.
  const openStreams = new Set<EventStream>();
  const streamsOpen = openStreamsGauge(ctx.platform.metrics);
  const shutdown = new AbortController();
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.finish('error', SHUTDOWN_EVENT);
    shutdown.abort();
  });

  /** The work behind one stream, after its headers went out; every outcome ends it with `done` or `error`. */
  async function runStream(
    request: FastifyRequest,
    reply: FastifyReply,
    query: SummaryRequest,
    stream: EventStream,
  ): Promise<void> {
    const client = new ClientDisconnection(reply, shutdown.signal);
    const keepAlive = setInterval(() => stream.keepAlive(), KEEP_ALIVE_MS);
    try {
      const outcome = await summarizer.run(await withStoredResource(ctx, request, query), {
        cancellation: client,
        onProgress: (stage: Stage) => stream.send('progress', { stage }),
      });
      stream.send('meta', {
        fromCache: outcome.fromCache,
        cache: cache.description,
        modeRequested: outcome.modeRequested,
        modeUsed: outcome.modeUsed,
      });
      const variantA = toSummaryVariantA(outcome.summary);
      stream.send('tldr', variantA.tldr);
      stream.send('bullets', variantA.bullets);
      stream.send('tags', variantA.tags);
      stream.finish('done', { ok: true });
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status >= 500 && !apiError.details?.reason)
        request.log.error({ err: error }, 'summary stream failed');
      stream.finish('error', presentStreamError(apiError));
    } finally {
      clearInterval(keepAlive);
      stream.end();
    }
  }

  app.get(
    '/api/summarize',
    {
      schema: {
        tags,
        operationId: 'streamSummary',
        summary:
          'Summarise a paper as server-sent events: meta, (progress), tldr, bullets, tags, done — or error',
        security: SIGNED_IN_OPTIONAL,
        description:
          'Events: `meta` {fromCache: false|"kv"|"memory", cache, modeRequested, ' +
          'modeUsed}; `progress` {stage: fetching|extracting|summarizing} during ' +
          'deep work; `tldr` string; `bullets` string[]; `tags` string[]; `done` ' +
          '{ok: true}; `error` {message, code, retryAfter?} (also for bad ' +
          'parameters, the rate limit — code `RATE_LIMITED` with `retryAfter`, the ' +
          'seconds of the Retry-After header — and a server shutting down: code ' +
          '`SERVICE_UNAVAILABLE`). ' +
          `Every event has an id; the last one (\`done\` or \`error\`) has the id ` +
          `\`${FINAL_EVENT_ID}\`, and the stream asks for ` +
          `\`retry: ${STREAM_RETRY_MS}\`. ` +
          `Clients close the EventSource on \`done\` and \`error\`; a reconnect ` +
          `that sends \`Last-Event-ID: ${FINAL_EVENT_ID}\` is answered 204 (an ` +
          `EventSource then stops) and costs nothing. ` +
          'The `RateLimit-*` headers are those of the summarize limit. Comments keep the connection alive on long work; disconnecting stops the work.',
        querystring: SummarizeQuery,
        headers: StreamHeaders,
        // Always 200 for a new stream: problems (a bad query, the rate limit, a failed summary) arrive as an `error` event.
        response: {
          200: {
            description: 'An event stream (text/event-stream)',
            content: { 'text/event-stream': { schema: SummaryEventStream } },
          },
          204: z
            .null()
            .describe(
              'A reconnect after a finished stream (Last-Event-ID: end): nothing more to send',
            ),
        },
      },
      // A rate limit's refusal (the user's hourly one or the summarize limit) and problems with the query
      // are reported as an `error` event, which an EventSource can read; the summarize limit's headers
      // (set by the request chain) replace the general limit's. A reconnect after a finished stream costs nothing.
      config: {
        auth: 'optional',
        rateLimit: ['user', 'summarize'],
        attachRefusal: true,
        uncounted: (request) => reconnectsAfterEnd(request.headers['last-event-id']),
      },
      attachValidation: true,
    },
    async (request, reply) => {
      if (reconnectsAfterEnd(request.headers['last-event-id'])) return reply.code(204).send(null);
      const problem = request.rateLimitRefusal ?? request.validationError;
      const apiError = problem ? toApiError(problem) : null;
      const refusal = apiError ? presentStreamRefusal(apiError) : null;
      const stream = openEventStream(reply);
      if (refusal) {
        stream.finish('error', refusal);
      } else {
        openStreams.add(stream);
        streamsOpen.inc();
        void runStream(request, reply, request.query, stream).finally(() => {
          openStreams.delete(stream);
          streamsOpen.dec();
        });
      }
      return reply;
    },
  );
}
