import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { HealthResponse } from './routes.js';

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`GET /api/health (${leg.name})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
    });
    afterAll(async () => t?.close());

    it('reports status, version and the real state of each backend', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.status).toBe('ok');
      expect(body.version).toBe(version);
      expect(Date.parse(body.timestamp)).toBeGreaterThan(Date.now() - 10_000);
      expect(body.services.database).toBe('connected');
      expect(body.services.redis).toBe(leg.redis ? 'connected' : 'not_configured');
      // No SMTP_URL: mail is written to the outbox, which is how it is reported.
      expect(body.services.mail).toBe('outbox');
    });

    it('answers liveness and, with the database up, readiness', async () => {
      const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'alive' });
      const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
      expect(ready.headers['set-cookie']).toBeUndefined();
    });
  });
}

describe('health when a backend is down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: Redis is configured but unreachable.
    t = await buildTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
  });
  afterAll(async () => t?.close());

  it('says disconnected and degraded, and the service keeps answering', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toMatchObject({
      status: 'degraded',
      services: { redis: 'disconnected', database: 'connected' },
    });
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'down@example.org', password: 'still-works-9' },
    });
    expect(signup.statusCode).toBe(201);
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'down@example.org', password: 'still-works-9' },
    });
    expect(signin.statusCode).toBe(200);
  });
});

describe('health as the backends change', () => {
  let t: TestApp;
  let searchIndexUp = true;
  beforeAll(async () => {
    t = await buildTestApp({ extraHealthChecks: { searchIndex: async () => searchIndexUp } });
  });
  afterAll(async () => t?.close());

  const health = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return HealthResponse.parse(res.json());
  };

  it('answers what the monitor last saw, with a fresh timestamp on every answer', async () => {
    const first = await health();
    expect(first).toMatchObject({
      status: 'ok',
      services: { database: 'connected', searchIndex: 'connected' },
    });

    searchIndexUp = false;
    await t.app.ctx.platform.health.refresh();
    const down = await health();
    expect(down).toMatchObject({
      status: 'degraded',
      services: { database: 'connected', searchIndex: 'disconnected' },
    });

    searchIndexUp = true;
    await t.app.ctx.platform.health.refresh();
    // A later answer, a second on (only the clock is fake: the app's own timers run as they would).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(first.timestamp) + 1000 });
    try {
      const up = await health();
      expect(up).toMatchObject({ status: 'ok', services: { searchIndex: 'connected' } });
      expect(Date.parse(up.timestamp)).toBe(Date.parse(first.timestamp) + 1000);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('GET /api/debug/emailjs', () => {
  it('reports configuration without secrets', async () => {
    const t = await buildTestApp({
      env: {
        EMAILJS_SERVICE_ID: 'service_x',
        EMAILJS_TEMPLATE_ID: 'template_y',
        EMAILJS_PUBLIC_KEY: 'pk_z',
      },
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/debug/emailjs' });
    expect(res.json()).toEqual({
      configured: true,
      serviceId: 'service_x',
      templateId: 'template_y',
      publicKey: 'pk_z',
    });
    await t.close();
    const bare = await buildTestApp();
    expect((await bare.app.inject({ method: 'GET', url: '/api/debug/emailjs' })).json()).toEqual({
      configured: false,
      serviceId: '',
      templateId: '',
      publicKey: '',
    });
    await bare.close();
  });
});

describe('cross-cutting HTTP behaviour', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { BODY_LIMIT_BYTES: '2048' } });
  });
  afterAll(async () => t?.close());

  it('answers CORS preflight for the app origin exactly', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/profile',
      headers: {
        origin: 'http://app.test',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://app.test');
    expect(res.headers['access-control-allow-methods']).toContain('PUT');
    // If-Match: optimistic concurrency on updates and deletes (docs/api.md, Editing at the same time).
    expect(res.headers['access-control-allow-headers']).toBe(
      'Content-Type, Authorization, Idempotency-Key, If-Match',
    );
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers['access-control-allow-origin']).not.toBe('https://evil.example');
  });

  it('gives CORS headers to the app origin only, and says the answer varies by Origin', async () => {
    const fromApp = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'http://app.test' },
    });
    expect(fromApp.headers['access-control-allow-origin']).toBe('http://app.test');
    expect(fromApp.headers['access-control-allow-credentials']).toBe('true');
    expect(fromApp.headers['access-control-expose-headers']).toContain('X-Request-Id');
    // A version to send back as If-Match.
    expect(fromApp.headers['access-control-expose-headers']).toContain('ETag');
    for (const headers of [{}, { origin: 'https://evil.example' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/health', headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(res.headers.vary)).toMatch(/origin/i);
    }
    expect(String(fromApp.headers.vary)).toMatch(/origin/i);
  });

  it('answers 413 for a body over the limit, 404 envelope for unknown routes, and a request id', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'a@b.co', password: 'x'.repeat(4000) },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    const missing = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('NOT_FOUND');
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'client-req-12345' },
    });
    expect(echoed.headers['x-request-id']).toBe('client-req-12345');
  });

  it('publishes the OpenAPI 3.1 document with responses, and the reference page', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/api/auth/signup',
      '/api/auth/signin',
      '/api/auth/refresh',
      '/api/profile',
      '/api/profile/avatar',
      '/api/health',
      '/api/health/live',
      '/api/health/ready',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/api/health/ready'].get.responses['503']).toBeDefined();
    expect(doc.paths['/api/auth/signup'].post.responses['201']).toBeDefined();
    expect(doc.paths['/api/auth/signup'].post.responses['409']).toBeDefined();
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });
});

describe('readiness while the process drains before it stops', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('answers 503 for readiness only; liveness and the rest still answer', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    t.app.ctx.drain.begin();
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      error: { code: 'SERVICE_UNAVAILABLE', message: 'Not ready: shutting down' },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
