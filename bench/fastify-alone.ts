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
import { HealthResponse, healthDocument, serve } from './health-document.js';

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as BareConfig;
const port = Number(process.argv[3]);
const answer = healthDocument(config);

const app = Fastify({ logger: false });
app.get('/api/health', { schema: { response: { 200: HealthResponse } } }, async () => answer());
await serve(app, port);
