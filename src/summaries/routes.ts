/**
 * POST /api/summarize (JSON, in the variant of its body) and GET /api/summarize (server-sent events:
 * meta, tldr, bullets, tags, done; or error), spec §4.4 and §6.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { consumeRequesterLimit } from '../auth/request-auth.js';
import type { AppContext } from '../context.js';
import { rateLimitHeaders } from '../platform/rate-limit.js';
import { toApiError } from '../platform/http-errors.js';
import { sendSerialised } from '../platform/serialization.js';
import type { SummaryCache } from './cache.js';
import { SummaryFailure, type Cancellation, type Stage, type Summarizer } from './produce.js';
import { createReplyMemo, type PresentedSummary } from './presenters.js';
import { PlainError, SummarizeBody, SummarizeQuery, VariantAResponse, VariantBResponse } from './schemas.js';
import { toSummaryVariantA } from './summarize.js';

const tags = ['summaries'];
const KEEP_ALIVE_MS = 15_000;

/**
 * The client's going away as an AbortSignal, aborted when the client disconnects before the reply is
 * complete. Nothing is set up until the work asks for the signal (a cache hit never does).
 */
class ClientDisconnection implements Cancellation {
  private controller: AbortController | undefined;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
  ) {}

  signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    const controller = (this.controller = new AbortController());
    const response = this.reply.raw;
    if (this.gone()) {
      controller.abort();
    } else {
      response.once('close', () => {
        if (!response.writableFinished) controller.abort();
      });
      this.request.raw.once('aborted', () => controller.abort());
    }
    return controller.signal;
  }

  /** Whether the client has gone, without setting anything up. */
  get aborted(): boolean {
    return this.controller ? this.controller.signal.aborted : this.gone();
  }

  private gone(): boolean {
    return this.reply.raw.destroyed && !this.reply.raw.writableFinished;
  }
}

export async function summaryRoutes(root: FastifyInstance, ctx: AppContext, summarizer: Summarizer, cache: SummaryCache): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const limiter = ctx.platform.rateLimiter;
  const replies = createReplyMemo(cache.description);

  app.post(
    '/api/summarize',
    {
      bodyLimit: 2 * 1024 * 1024,
      config: { plainErrors: true },
      schema: {
        tags,
        summary: 'Summarise a paper: by content (Variant B) or by id/source/title/abstract/url/mode (Variant A)',
        description:
          'mode `quick` summarises title + abstract; `deep` the text of the paper\'s PDF (never falls back); `auto` tries deep and falls back to quick. Errors are `{ error: "<message>" }`.',
        body: SummarizeBody,
        response: {
          200: VariantAResponse.or(VariantBResponse),
          400: PlainError,
          413: PlainError,
          422: PlainError,
          429: PlainError,
          502: PlainError,
          504: PlainError,
        },
      },
    },
    async (request, reply) => {
      const state = await consumeRequesterLimit(limiter, 'summarize', request);
      void reply.headers(rateLimitHeaders(state));
      const body = request.body;
      const client = new ClientDisconnection(request, reply);
      try {
        const outcome = await summarizer.run(body, { cancellation: client });
        // The app's serialisers (platform/serialization.ts) write strings.
        const serialize = (presented: PresentedSummary) => reply.serialize(presented) as string;
        const json = replies.serialised(outcome, body.content !== undefined ? 'B' : 'A', serialize);
        return sendSerialised(reply, json);
      } catch (error) {
        // Failure statuses are the ones the schema lists (and 499 when the client has already gone).
        if (error instanceof SummaryFailure) return reply.status(error.status as 422).send({ error: error.message });
        throw error;
      }
    },
  );

  app.get(
    '/api/summarize',
    {
      schema: {
        tags,
        summary: 'Summarise a paper as server-sent events: meta, (progress), tldr, bullets, tags, done — or error',
        description:
          'Events: `meta` {fromCache: false|"kv"|"memory", cache, modeRequested, modeUsed}; `progress` {stage: fetching|extracting|summarizing} during deep work; `tldr` string; `bullets` string[]; `tags` string[]; `done` {ok: true}; `error` {message, code}. Comments keep the connection alive on long work; disconnecting stops the work.',
        querystring: SummarizeQuery,
        produces: ['text/event-stream'],
      },
      // Problems with the query are reported as an `error` event, which an EventSource can read.
      attachValidation: true,
    },
    async (request, reply) => {
      const raw = reply.raw;
      reply.hijack();
      raw.writeHead(200, {
        ...Object.fromEntries(Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)])),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const send = (event: string, data: unknown) => {
        if (!raw.writableEnded) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const client = new ClientDisconnection(request, reply);
      const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      try {
        if (request.validationError) throw request.validationError;
        await consumeRequesterLimit(limiter, 'summarize', request);
        const outcome = await summarizer.run(request.query, {
          cancellation: client,
          onProgress: (stage: Stage) => send('progress', { stage }),
        });
        send('meta', { fromCache: outcome.fromCache, cache: cache.description, modeRequested: outcome.modeRequested, modeUsed: outcome.modeUsed });
        const variantA = toSummaryVariantA(outcome.summary);
        send('tldr', variantA.tldr);
        send('bullets', variantA.bullets);
        send('tags', variantA.tags);
        send('done', { ok: true });
      } catch (error) {
        if (!client.aborted) {
          if (error instanceof SummaryFailure) {
            send('error', { message: error.message, code: error.code });
          } else {
            const apiError = toApiError(error as Error);
            if (apiError.status >= 500) request.log.error({ err: error }, 'summary stream failed');
            send('error', { message: apiError.message, code: apiError.code });
          }
        }
      } finally {
        clearInterval(keepAlive);
        raw.end();
      }
    },
  );
}
