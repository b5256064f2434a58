/**
 * Fastify's access log ("incoming request", "request completed"), written for every route except those
 * that say `config: { accessLog: false }` (health and metrics, polled many times a minute). Such a route
 * keeps the server's log level: its handler's warnings and errors are written, and so is Fastify's
 * "request errored" line. A route-level `logLevel` did the same, but Fastify then gives each request's
 * child logger a level of its own, which pino builds by rebinding every log method of the child on
 * every request (docs/performance.md, Health).
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: no access-log lines for this route (errors are still logged). */
    accessLog?: boolean;
  }
}

/** Whether the route asked for no access-log lines (a request without a route of ours has one). */
function quiet(request: FastifyRequest): boolean {
  return request.routeOptions?.config?.accessLog === false;
}

export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (!quiet(request)) super.incomingRequest(request, reply);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error || !quiet(request)) super.requestCompleted(error, request, reply);
  }
}
