/**
 * Fastify's access log ("incoming request", "request completed"), written for every route except those
 * that say `config: { accessLog: false }` (health and metrics, polled many times a minute). Such a route
 * keeps the server's log level: its handler's warnings and errors are written, and so is Fastify's
 * "request errored" line. A route-level `logLevel` did the same, but Fastify then gives each request's
 * child logger a level of its own, which pino builds by rebinding every log method of the child on
 * every request (docs/performance.md, Health). The route's options are read only when an access-log
 * line would be written at the request logger's level: at `warn` (production's usual level) neither
 * line is, so no request builds its route options for them.
 */
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: no access-log lines for this route (errors are still logged). */
    accessLog?: boolean;
  }
}

/**
 * Whether the request's access-log lines (`info`) are written: its logger writes `info`, and the route
 * did not ask for none (a request without a route of ours has them). A logger without
 * `isLevelEnabled` (Fastify's stand-in when logging is off) is judged by the route alone.
 */
function writesAccessLog(request: FastifyRequest): boolean {
  const log = request.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  if (log.isLevelEnabled?.('info') === false) return false;
  return request.routeOptions?.config?.accessLog !== false;
}

export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (writesAccessLog(request)) super.incomingRequest(request, reply);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error || writesAccessLog(request)) super.requestCompleted(error, request, reply);
  }
}
