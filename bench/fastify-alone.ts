/**
 * A yardstick for GET /api/health: Fastify alone (no plugins, no hooks, logger off) answering the same
 * document, so the table can show how much of the gap to bare node:http is the framework's and how much
 * the service's own (hooks, plugins, logging). Configuration: the bare server's JSON file (`BareConfig`)
 * and a port, as arguments. Prints `listening <port>`.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import type { BareConfig } from './bare-server.js';

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as BareConfig;
const port = Number(process.argv[3]);
const app = Fastify({ logger: false });
app.get('/api/health', async () => ({
  status: 'ok',
  timestamp: new Date().toISOString(),
  version: config.health.version,
  services: config.health.services,
}));
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`listening ${port}\n`);
const shutdown = () => void app.close().then(() => process.exit(0));
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
