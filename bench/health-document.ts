/**
 * What GET /api/health answers, for the reference servers (fastify-alone.ts, fastify-plugins.ts): its
 * response schema, and the handler's work (read the backend states, derive the status, stamp the time).
 */
import type { FastifyInstance } from 'fastify';
import type { BareConfig } from './bare-server.js';

export const HealthResponse = {
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

/** The handler's answer for `config`'s backends. */
export function healthDocument(config: BareConfig): () => object {
  const services = Object.freeze({ ...config.health.services });
  return () => ({
    status:
      services.database !== 'connected' || Object.values(services).includes('disconnected')
        ? 'degraded'
        : 'ok',
    timestamp: new Date().toISOString(),
    version: config.health.version,
    services,
  });
}

/** Listens on `port`, says so (`listening <port>`), and closes on SIGTERM or SIGINT. */
export async function serve(app: FastifyInstance, port: number): Promise<void> {
  await app.listen({ port, host: '127.0.0.1' });
  process.stdout.write(`listening ${port}\n`);
  const shutdown = () => void app.close().then(() => process.exit(0));
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
