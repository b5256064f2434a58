/**
 * The request chain: authenticate → rate limit → validate, declared per route in
 * `config: { auth, rateLimit }` (`auth` on every route), the RateLimit-* headers those of the last
 * limit the route declares.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../../test/support/api-types.js';
import { buildTestApp, type TestApp } from '../../test/support/app.js';
import { buildUser, uniqueEmail, type TestUser } from '../../test/support/factories.js';
import {
  providerEnvFor,
  startFixtureServer,
  type FixtureServer,
} from '../../test/support/fixture-server.js';
import { RATE_LIMIT_HEADERS } from '../platform/openapi.js';
import { ROUTE_LIMITS, typedLimits } from './rate-limits.js';
import { requestChain } from './request-chain.js';

const LIMITS = {
  RATE_LIMIT_AUTHENTICATED_PER_HOUR: '500',
  RATE_LIMIT_SEARCH_PER_HOUR: '7',
  RATE_LIMIT_SEARCH_PER_HOUR_PER_IP: '9',
  RATE_LIMIT_SIGNUP_PER_HOUR_PER_IP: '1',
};

describe('the request chain', () => {
  let fixtures: FixtureServer;
  let t: TestApp;
  let user: TestUser;
  const routes: RouteOptions[] = [];

  beforeAll(async () => {
    // Every provider answers 404 at once: a search costs no time and reaches nothing outside.
    fixtures = await startFixtureServer([]);
    t = await buildTestApp({
      env: { ...providerEnvFor(fixtures.url), ...LIMITS },
      build: { onRoute: (route) => void routes.push(route) },
    });
    user = await buildUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
  });

  describe('authenticate before validating', () => {
    it('no credentials and a malformed body: 401, not 400', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        payload: { name: 42, isPublic: 'yes' },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('AUTHENTICATION_ERROR');
      expect(response.headers['www-authenticate']).toBe('Bearer');
    });

    it('a body that is not even JSON: still 401', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: { 'content-type': 'application/json' },
        payload: '{"name":',
      });
      expect(response.statusCode).toBe(401);
    });

    it('an invalid token and a malformed body: 401 that says the token failed (so the client refreshes)', async () => {
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/api/workspaces/${randomUUID()}`,
        headers: { authorization: 'Bearer not-a-token' },
        payload: { name: '' },
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    });

    it('signed in, the same malformed body is a 400 naming the field', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: user.bearer,
        payload: { name: 42 },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details.field).toBe('name');
    });
  });

  describe('rate limit before validating', () => {
    it('a throttled caller with a malformed request gets 429, not 400', async () => {
      const ask = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          payload: { email: 'not-an-address' },
          remoteAddress: '203.0.113.7',
        });
      // The first is counted, then refused for its body; the second is refused for the count.
      expect((await ask()).statusCode).toBe(400);
      const refused = await ask();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('a query that fails validation is counted against the declared bucket first', async () => {
      const visitor = { cookie: `anon_session=${randomUUID()}` };
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/resources/lookup?id=',
        headers: visitor,
        remoteAddress: '203.0.113.8',
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['ratelimit-limit']).toBe('7');
      expect(response.headers['ratelimit-remaining']).toBe('6');
    });
  });

  describe('RateLimit headers come from the declared bucket', () => {
    it('search: the search limit, not the general one', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/search?q=graphs&providers=openalex',
        headers: user.bearer,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe('7');
    });

    it('a route that declares only the user limit: the signed-in user’s general limit', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/workspaces',
        headers: user.bearer,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe('500');
    });
  });

  describe('the signed-in user’s hourly limit, declared as `user`', () => {
    it('past it: 429 on an ordinary route, the error event on the summary stream, and a finished stream’s reconnect counts nothing', async () => {
      // Signed up from an address of its own: LIMITS allow one sign-up per address, which beforeAll used.
      const credentials = {
        email: uniqueEmail('spent'),
        password: 'tidal-quasar-42',
        name: 'Spent Allowance',
      };
      const signup = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: credentials,
        remoteAddress: '203.0.113.30',
      });
      expect(signup.statusCode).toBe(201);
      const signin = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: credentials.email, password: credentials.password },
      });
      const { user: spent, session } = signin.json<ApiSchema<'SignInResult'>>();
      const bearer = { authorization: `Bearer ${session.access_token}` };
      // The user's allowance used up through the same limiter the routes count with (LIMITS: 500).
      for (let i = 0; i < 500; i++)
        await t.app.ctx.platform.rateLimiter.consume('authenticated', spent.id);

      const refused = await t.app.inject({
        method: 'GET',
        url: '/api/workspaces',
        headers: bearer,
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('RATE_LIMITED');
      expect(refused.headers['ratelimit-limit']).toBe('500');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

      const streamUrl = `/api/summarize?${new URLSearchParams({ title: 'Graphs', abstract: 'We study graphs. Graphs are studied here.' })}`;
      const stream = await t.app.inject({ method: 'GET', url: streamUrl, headers: bearer });
      expect(stream.statusCode).toBe(200);
      expect(stream.body).toMatch(
        /event: error\ndata: \{"message":"Too many requests[^"]*","code":"RATE_LIMITED","retryAfter":\d+\}/,
      );

      const reconnect = await t.app.inject({
        method: 'GET',
        url: streamUrl,
        headers: { ...bearer, 'last-event-id': 'end' },
      });
      expect(reconnect.statusCode).toBe(204);
    });
  });

  describe('every route declares its chain', () => {
    const methodsOf = (route: RouteOptions) =>
      Array.isArray(route.method) ? route.method : [route.method];
    const apiRoutes = () => routes.filter((route) => !methodsOf(route).includes('HEAD'));

    it('the collector saw the routes', () => {
      expect(apiRoutes().length).toBeGreaterThan(30);
    });

    it('every route declares who may call it, and the OpenAPI document says the same', () => {
      const undeclared = apiRoutes()
        .filter((route) => !['required', 'optional', 'none'].includes(String(route.config?.auth)))
        .map((route) => `${String(route.method)} ${route.url}`);
      expect(undeclared).toEqual([]);
      const mismatched = apiRoutes()
        .filter((route) => {
          const documentedOpen = route.schema?.security !== undefined;
          return documentedOpen === (route.config?.auth === 'required');
        })
        .map((route) => `${String(route.method)} ${route.url}`);
      expect(mismatched).toEqual([]);
    });

    it('a route declared without config.auth stops the app from starting', async () => {
      const app = Fastify({ logger: false });
      try {
        const { config, sessions, tokens, platform } = t.app.ctx;
        await app.register(cookie, { hook: false });
        await app.register(requestChain, {
          config,
          sessions,
          tokens,
          limits: typedLimits(platform.rateLimiter),
        });
        expect(() => app.get('/api/forgotten', async () => ({ ok: true }))).toThrow(
          'GET /api/forgotten does not declare config.auth',
        );
      } finally {
        await app.close();
      }
    });

    it('a route that may set cookies, declared outside the cookie plugin’s scope, stops the app from starting', async () => {
      const app = Fastify({ logger: false });
      try {
        const { config, sessions, tokens, platform } = t.app.ctx;
        await app.register(requestChain, {
          config,
          sessions,
          tokens,
          limits: typedLimits(platform.rateLimiter),
        });
        // A visitor's anonymous session on the API, a refreshed session wherever credentials are read.
        expect(() =>
          app.get('/api/visitors', { config: { auth: 'none' } }, async () => ({ ok: true })),
        ).toThrow('GET /api/visitors may set cookies');
        expect(() =>
          app.get('/signed-in', { config: { auth: 'optional' } }, async () => ({ ok: true })),
        ).toThrow('GET /signed-in may set cookies');
        // Routes that set none may stay outside it; inside it, the anonymous cookie is written.
        app.get('/api/probe', { config: { auth: 'none', noCookies: true } }, async () => ({
          ok: true,
        }));
        await app.register(async (scope) => {
          await scope.register(cookie, { hook: false });
          scope.get('/api/visitors', { config: { auth: 'none' } }, async () => ({ ok: true }));
        });
        const probe = await app.inject({ url: '/api/probe', headers: { cookie: 'a=1' } });
        expect(probe.statusCode).toBe(200);
        expect(probe.headers['set-cookie']).toBeUndefined();
        const visit = await app.inject({ url: '/api/visitors' });
        expect(visit.statusCode).toBe(200);
        expect(String(visit.headers['set-cookie'])).toMatch(/^anon_session=[0-9a-f-]{36};/);
      } finally {
        await app.close();
      }
    });

    it('every route that reads credentials counts the signed-in user’s hourly limit', () => {
      const uncounted = apiRoutes()
        .filter(
          (route) => route.config?.auth !== 'none' && !route.config?.rateLimit?.includes('user'),
        )
        .map((route) => `${String(route.method)} ${route.url}`);
      expect(uncounted).toEqual([]);
    });

    it('a route that requires sign-in answers 401 without credentials, whatever its input', async () => {
      const required = apiRoutes().filter((route) => route.config?.auth === 'required');
      expect(required.length).toBeGreaterThan(10);
      for (const route of required) {
        for (const method of methodsOf(route)) {
          const url = route.url.replace(/:[A-Za-z]+/g, () => randomUUID());
          const withBody = method !== 'GET' && method !== 'DELETE';
          const response = await t.app.inject({
            method,
            url,
            ...(withBody ? { payload: { unexpected: [1, 2, 3] } } : {}),
          });
          expect({ route: `${method} ${route.url}`, status: response.statusCode }).toEqual({
            route: `${method} ${route.url}`,
            status: 401,
          });
        }
      }
    });

    it('a route that documents RateLimit headers for everyone declares the limit they come from', () => {
      const undeclared = apiRoutes()
        .filter((route) => {
          const headers = (
            route.schema as { responseHeaders?: Record<number, string[]> } | undefined
          )?.responseHeaders?.[200];
          return (
            headers === RATE_LIMIT_HEADERS &&
            !route.config?.rateLimit?.some((name) => name !== 'user')
          );
        })
        .map((route) => route.url);
      expect(undeclared).toEqual([]);
      for (const route of apiRoutes()) {
        for (const name of route.config?.rateLimit ?? [])
          expect(Object.keys(ROUTE_LIMITS)).toContain(name);
      }
    });

    it('no route file calls the limiter or writes the RateLimit headers itself', () => {
      const src = join(import.meta.dirname, '..');
      const routeFiles = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) =>
        /routes\.ts$/.test(file),
      );
      expect(routeFiles.length).toBeGreaterThan(5);
      for (const file of routeFiles) {
        const text = readFileSync(join(src, file), 'utf8');
        expect({
          file,
          callsLimiter: /rateLimiter|rateLimitHeaders|['"]ratelimit-/i.test(text),
        }).toEqual({ file, callsLimiter: false });
      }
    });
  });
});
