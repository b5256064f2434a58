/**
 * The reference for GET /api/health: Fastify alone (no plugins, no hooks, logger off) doing the
 * route's handler work — read the backend states, derive the status, stamp the time — and answering
 * the same document, serialised by Fastify from a response schema as the service's is. The service's
 * rate over this one is what its whole request chain (request id, CORS, request auth, the logger,
 * metrics; no cookies: the route reads none) costs on top of the framework. Configuration: the bare
 * server's JSON file (`BareConfig`) and a port, as arguments. Prints `listening <port>`.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import type { BareConfig } from './bare-server.js';

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as BareConfig;
const port = Number(process.argv[3]);
const services = Object.freeze({ ...config.health.services });

const HealthResponse = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    timestamp: { type: 'string' },
    version: { type: 'string' },
    services: {
      type: 'object',
      additionalProperties: {
        type: 'string',
        enum: ['connected', 'disconnected', 'not_configured', 'outbox'],
      },
    },
  },
  required: ['status', 'timestamp', 'version', 'services'],
} as const;

const app = Fastify({ logger: false });
app.get('/api/health', { schema: { response: { 200: HealthResponse } } }, async () => ({
  status:
    services.database !== 'connected' || Object.values(services).includes('disconnected')
      ? 'degraded'
      : 'ok',
  timestamp: new Date().toISOString(),
  version: config.health.version,
  services,
}));
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`listening ${port}\n`);
const shutdown = () => void app.close().then(() => process.exit(0));
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
