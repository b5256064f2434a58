/**
 * The second reference for GET /api/health: Fastify answering as bench/fastify-alone.ts does, plus the
 * work the service does on every answer, each piece done the plainest way its library documents:
 * - a pino logger at `warn` (production's level), so Fastify binds a child logger to each request;
 * - a request id (a client's well-formed `X-Request-Id`, else a random UUID) sent back as `X-Request-Id`;
 * - @fastify/cors with the service's options (`Vary: Origin` on every answer);
 * - the request counted in a prom-client histogram by method, route and status.
 * Between this one and Fastify alone lies the cost of that work, the libraries' own; between the
 * service and this one, what the service adds around it (docs/performance.md, Health). Same arguments
 * and output as fastify-alone.ts.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import cors from '@fastify/cors';
import Fastify from 'fastify';
import { Histogram, Registry } from 'prom-client';
import type { BareConfig } from './bare-server.js';
import { HealthResponse, healthDocument, serve } from './health-document.js';

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as BareConfig;
const port = Number(process.argv[3]);
const answer = healthDocument(config);
const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

const requests = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Requests by method, route and status',
  labelNames: ['method', 'route', 'status_code'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [new Registry()],
});

const app = Fastify({
  logger: { level: 'warn' },
  genReqId: (req) => {
    const incoming = req.headers['x-request-id'];
    return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  },
});
app.addHook('onRequest', (request, reply, done) => {
  void reply.header('x-request-id', request.id);
  done();
});
app.addHook('onResponse', (request, reply, done) => {
  requests.observe(
    { method: request.method, route: request.routeOptions.url, status_code: reply.statusCode },
    reply.elapsedTime / 1000,
  );
  done();
});
await app.register(cors, {
  origin: (origin, callback) => callback(null, origin === 'http://app.bench.test'),
  credentials: true,
  methods: 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  maxAge: 600,
});
app.get('/api/health', { schema: { response: { 200: HealthResponse } } }, async () => answer());
await serve(app, port);
