/**
 * GET /metrics: the Prometheus scrape (platform/metrics.ts). Not public in production: with
 * METRICS_TOKEN set it asks for `Authorization: Bearer <METRICS_TOKEN>`; in production without one
 * there is no such page (404); in development and test without one it is open.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { authenticationError } from '../platform/errors.js';
import { ErrorResponse, PUBLIC } from '../platform/openapi.js';

const METRICS_PATH = '/metrics';

const MetricsHeaders = z.object({
  authorization: z
    .string()
    .max(1024)
    .optional()
    .describe('`Bearer <METRICS_TOKEN>` when the service has one'),
});

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Compared as digests, in constant time: the answer tells nothing about how much of a guess was right. */
function presentsToken(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}

export async function metricsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const access = ctx.config.metrics;
  // Not declared at all: the answer is any unknown URL's 404, and the API document does not list it.
  if (access.access === 'off') return;
  const { metrics } = ctx.platform;
  app.get(
    METRICS_PATH,
    {
      // Scraped every few seconds: no session, no cookie, no access-log line (errors are still logged).
      config: { auth: 'none', noCookies: true, accessLog: false },
      schema: {
        tags: ['utility'],
        operationId: 'getMetrics',
        summary: 'Prometheus metrics (text exposition format 0.0.4)',
        security: PUBLIC,
        description:
          'Requests by method, route pattern and status with their durations (`http_request_duration_seconds`), search provider calls by outcome, their durations and rate-limit hits (`search_provider_*`), cache lookups (`cache_lookups_total`), the PostgreSQL pool (`db_pool_*`, absent on the embedded database), open summary streams (`summary_streams_open`) and the process (`process_*`, `nodejs_*`, event-loop lag among them). ' +
          'With METRICS_TOKEN set, send `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise). In production without METRICS_TOKEN there is no such route (404, and this document does not list it); in development and test without one it is open.',
        headers: MetricsHeaders,
        response: {
          200: {
            description: 'Every series, in the Prometheus text format',
            content: { 'text/plain; version=0.0.4': { schema: z.string() } },
          },
          401: {
            description: 'METRICS_TOKEN is set and the request did not present it',
            content: { 'application/json': { schema: ErrorResponse } },
          },
        },
      },
    },
    async (request, reply) => {
      if (access.access === 'token' && !presentsToken(request, access.token))
        throw authenticationError('A metrics token is required');
      const body = await metrics.scrape();
      return reply.header('cache-control', 'no-store').type(metrics.contentType).send(body);
    },
  );
}
