/**
 * The client's failures, against a real HTTP server on loopback: an error reply, a reply that is not
 * JSON and a refused connection all arrive as an ApiError (status, code, message, Retry-After), for a
 * plain call through `unwrap` and for the query hooks' fetch alike; a cancelled request stays an abort.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors';

let server: Server;
let origin: string;
let client: typeof import('./client');

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url?.startsWith('/api/search?')) {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' });
      response.end(
        JSON.stringify({
          error: { code: 'RATE_LIMITED', message: 'Too many requests, please try again later' },
        }),
      );
    } else if (request.url === '/api/auth/signin') {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: { code: 'AUTHENTICATION_ERROR', message: 'Invalid login credentials' },
        }),
      );
    } else if (request.url === '/api/search/providers') {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad gateway</html>');
    } else if (request.url === '/api/analytics/resources') {
      // Never answers: the caller aborts.
    } else {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ providers: [] }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The client addresses the page's own origin.
  vi.stubGlobal('location', { origin });
  client = await import('./client');
});

afterAll(async () => {
  vi.unstubAllGlobals();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('the call succeeded');
}

describe('the API client', () => {
  it('throws an error reply as an ApiError with its code, message and Retry-After', async () => {
    const error = await failureOf(
      client.unwrap(client.api.GET('/api/search', { params: { query: { q: 'graph' } } })),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Too many requests, please try again later',
      retryAfter: 30,
    });
  });

  it("throws the same ApiError from the query hooks' fetch (which would otherwise throw the bare body)", async () => {
    const { queryFn, queryKey } = client.queries.queryOptions('get', '/api/search', {
      params: { query: { q: 'graph' } },
    });
    const error = await failureOf(
      Promise.resolve(
        queryFn({
          queryKey,
          signal: new AbortController().signal,
          meta: undefined,
          client: new QueryClient(),
        }),
      ),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 30 });
  });

  it("does not try to refresh a sign-in's 401: wrong credentials are the answer", async () => {
    const error = await failureOf(
      client.unwrap(
        client.api.POST('/api/auth/signin', {
          body: { email: 'ada@example.org', password: 'wrong password' },
        }),
      ),
    );
    expect(error).toMatchObject({
      status: 401,
      code: 'AUTHENTICATION_ERROR',
      message: 'Invalid login credentials',
    });
  });

  it("words a reply that is not the API's JSON from its status", async () => {
    const error = await failureOf(client.unwrap(client.api.GET('/api/search/providers')));
    expect(error).toMatchObject({ status: 502, code: 'INTERNAL_ERROR' });
  });

  it('throws a refused connection as a NETWORK_ERROR, and leaves a cancelled request an abort', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failureOf(
      client.unwrap(
        client.api.GET('/api/search/providers', { baseUrl: `http://127.0.0.1:${port}` }),
      ),
    );
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });

    const controller = new AbortController();
    const pending = failureOf(
      client.api.GET('/api/analytics/resources', { signal: controller.signal }),
    );
    controller.abort();
    const aborted = await pending;
    expect(aborted).not.toBeInstanceOf(ApiError);
    expect((aborted as Error).name).toBe('AbortError');
  });
});
