/**
 * Monitor polls answered ahead of the framework. Load balancers and uptime monitors poll `GET
 * /api/health` many times a minute per process, and for that answer Fastify's per-request chain
 * (request and reply objects with their decorators, the cookie, CORS, auth and request-id hooks, the
 * access log's response listeners) cost more than the answer itself (docs/performance.md, Health). So a
 * listener placed before Fastify's on the same server answers a poll with the text and headers the
 * route gives: the health document, X-Request-Id (the client's own when plausible) and Vary: Origin.
 *
 * Everything else goes on to Fastify unchanged: another method or path, a query string, a request
 * with an Origin header (a browser, for which CORS decides the headers), and every request once the
 * server is closing (Fastify answers 503 then). Polls answered here write no access-log line.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { HealthMonitor } from '../platform/health.js';
import { requestIdOf } from '../platform/request-id.js';
import { JSON_CONTENT_TYPE } from '../platform/serialization.js';
import { createHealthText, HEALTH_PATH } from './routes.js';

export function answerMonitorPolls(app: FastifyInstance, health: HealthMonitor, version: string): void {
  const server = app.server;
  const listeners = server.listeners('request') as RequestListener[];
  const framework = listeners[0];
  if (listeners.length !== 1 || !framework) throw new Error(`expected Fastify's one request listener, found ${listeners.length}`);
  const healthText = createHealthText(version);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  server.removeListener('request', framework);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (closing || req.method !== 'GET' || req.url !== HEALTH_PATH || req.headers.origin !== undefined) {
      framework(req, res);
      return;
    }
    const body = healthText(health.states(), new Date());
    res.writeHead(200, {
      'x-request-id': requestIdOf(req),
      vary: 'Origin',
      'content-type': JSON_CONTENT_TYPE,
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
}
