import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../platform/db/client.js';
import { HealthResponse } from './routes.js';

/** The service listening on a real port, logging every request (info) into `lines`. */
describe('monitor polls of GET /api/health, answered before the framework', () => {
  let app: FastifyInstance;
  let database: Database;
  let dataDir: string;
  let origin: string;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rw-polls-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      APP_ORIGIN: 'http://app.test',
    });
    database = await openDatabase({ pgliteDir: 'memory://' });
    app = await buildApp(config, { platformOverrides: { database }, logStream: { write: (line) => void lines.push(JSON.parse(line)) } });
    origin = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const loggedIds = () => new Set(lines.map((line) => line.reqId).filter(Boolean));

  it('answers a poll with the route’s document and headers, and writes no access-log line for it', async () => {
    const poll = await fetch(`${origin}/api/health`);
    expect(poll.status).toBe(200);
    const body = HealthResponse.parse(await poll.json());
    expect(body).toMatchObject({ status: 'ok', services: { database: 'connected' } });
    expect(Date.parse(body.timestamp)).toBeGreaterThan(Date.now() - 10_000);
    const id = poll.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(loggedIds().has(id)).toBe(false);

    // The framework's answer to the same request (inject does not pass through the server).
    const routed = await app.inject({ method: 'GET', url: '/api/health' });
    expect(HealthResponse.parse(routed.json()).services).toEqual(body.services);
    for (const name of ['content-type', 'vary']) expect(poll.headers.get(name), name).toBe(String(routed.headers[name]));
    expect(Number(poll.headers.get('content-length'))).toBe(Buffer.byteLength(routed.body));
  });

  it('keeps a plausible client request id and replaces anything else', async () => {
    const kept = await fetch(`${origin}/api/health`, { headers: { 'x-request-id': 'monitor-poll-0001' } });
    expect(kept.headers.get('x-request-id')).toBe('monitor-poll-0001');
    const replaced = await fetch(`${origin}/api/health`, { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves a browser’s request (Origin), another method, a query string and other paths to the framework', async () => {
    const browser = await fetch(`${origin}/api/health`, { headers: { origin: 'http://app.test' } });
    expect(browser.status).toBe(200);
    expect(browser.headers.get('access-control-allow-origin')).toBe('http://app.test');
    const head = await fetch(`${origin}/api/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const query = await fetch(`${origin}/api/health?verbose=1`);
    expect(query.status).toBe(200);
    const post = await fetch(`${origin}/api/health`, { method: 'POST' });
    expect(post.status).toBe(404);
    const ids = loggedIds();
    for (const res of [browser, head, query, post]) expect(ids.has(res.headers.get('x-request-id'))).toBe(true);
  });
});
