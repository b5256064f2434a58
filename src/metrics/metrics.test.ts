/**
 * GET /metrics scraped over a real socket, the text read by a Prometheus text parser: a search moves
 * the request, provider and cache series it should; a summary stream shows while open; the database
 * pool shows on PostgreSQL. Who may scrape: open in test, a bearer token when METRICS_TOKEN is set, no
 * route at all in production without one.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiSchema } from '../../test/support/api-types.js';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import {
  everyProviderRoutes,
  providerEnvFor,
  startFixtureServer,
  type FixtureServer,
} from '../../test/support/fixture-server.js';
import {
  parseScrape,
  seriesValue,
  type Family,
  type Labels,
} from '../../test/support/prometheus-text.js';

const PROVIDERS = [
  'arxiv',
  'pubmed',
  'crossref',
  'openalex',
  'semanticscholar',
  'zenodo',
  'youtube',
];
const TOKEN = 'm'.repeat(40);

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

async function scrape(
  base: string,
  headers: Record<string, string> = {},
): Promise<Map<string, Family>> {
  const res = await fetch(`${base}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseScrape(await res.text());
}

/** How much each series moved between two scrapes (a series absent before counts from 0). */
function moved(
  before: Map<string, Family>,
  after: Map<string, Family>,
  name: string,
  labels: Labels,
): number {
  return (seriesValue(after, name, labels) ?? 0) - (seriesValue(before, name, labels) ?? 0);
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`GET /metrics (${leg.name})`, () => {
    let fixtures: FixtureServer;
    let t: TestApp;
    let base: string;
    beforeAll(async () => {
      fixtures = await startFixtureServer([
        // Zenodo refuses this one query for its rate (no Retry-After: no retry); a PDF that never comes.
        {
          path: '/zenodo/records',
          query: { q: /ratelimited/ },
          status: 429,
          body: '{"status":429,"message":"Too many requests"}',
        },
        { path: '/papers/slow.pdf', delayMs: 60_000, body: '%PDF-1.7' },
        ...everyProviderRoutes(),
      ]);
      t = await buildTestApp({
        leg,
        env: { ...providerEnvFor(fixtures.url), YOUTUBE_API_KEY: 'test-key' },
      });
      base = await listen(t);
    });
    afterAll(async () => {
      // The test's fetch (undici's pool) may leave a connection it opened and never sent a request on;
      // the server would wait for it until its headers timeout (60 s) before closing.
      t?.app.server.closeAllConnections();
      await t?.close();
      await fixtures?.close();
    });

    it('counts a search by its route and status, each provider call, and the search cache missing then hitting', async () => {
      const before = await scrape(base);
      const search = await fetch(`${base}/api/search?q=metrics%20probe&limit=5`);
      expect(search.status).toBe(200);
      const after = await scrape(base);

      const searchRoute = { method: 'GET', route: '/api/search', status_code: '200' };
      expect(moved(before, after, 'http_request_duration_seconds_count', searchRoute)).toBe(1);
      expect(
        seriesValue(after, 'http_request_duration_seconds_bucket', { ...searchRoute, le: '+Inf' }),
      ).toBe(seriesValue(after, 'http_request_duration_seconds_count', searchRoute));
      // The route's pattern, never the address asked for (bounded labels).
      const routes = after
        .get('http_request_duration_seconds')!
        .samples.map((sample) => sample.labels.route);
      expect(routes.some((route) => route?.includes('?') || route?.includes('probe'))).toBe(false);

      for (const provider of PROVIDERS) {
        expect(
          moved(before, after, 'search_provider_calls_total', {
            provider,
            operation: 'search',
            outcome: 'ok',
          }),
          provider,
        ).toBe(1);
        expect(
          moved(before, after, 'search_provider_call_duration_seconds_count', {
            provider,
            operation: 'search',
          }),
          provider,
        ).toBe(1);
      }
      expect(moved(before, after, 'cache_lookups_total', { cache: 'search', result: 'miss' })).toBe(
        PROVIDERS.length,
      );
      expect(moved(before, after, 'cache_lookups_total', { cache: 'search', result: 'hit' })).toBe(
        0,
      );

      // The same search again is answered from the cache: hits, and no provider asked.
      expect((await fetch(`${base}/api/search?q=metrics%20probe&limit=5`)).status).toBe(200);
      const again = await scrape(base);
      expect(moved(after, again, 'cache_lookups_total', { cache: 'search', result: 'hit' })).toBe(
        PROVIDERS.length,
      );
      expect(
        moved(after, again, 'search_provider_calls_total', {
          provider: 'crossref',
          operation: 'search',
          outcome: 'ok',
        }),
      ).toBe(0);
      expect(moved(after, again, 'http_request_duration_seconds_count', searchRoute)).toBe(1);
    });

    it("counts a provider's 429 as a rate-limit hit and its call as rate_limited", async () => {
      const before = await scrape(base);
      const res = await fetch(`${base}/api/search?q=ratelimited&limit=5`);
      const zenodo = (await res.json()) as ApiSchema<'SearchReply'>;
      expect(zenodo.providers.find((p) => p.id === 'zenodo')?.status).toBe('rate_limited');
      const after = await scrape(base);
      expect(
        moved(before, after, 'search_provider_rate_limit_hits_total', {
          provider: 'zenodo',
          by: 'upstream',
        }),
      ).toBe(1);
      expect(
        moved(before, after, 'search_provider_calls_total', {
          provider: 'zenodo',
          operation: 'search',
          outcome: 'rate_limited',
        }),
      ).toBe(1);
      expect(
        moved(before, after, 'search_provider_calls_total', {
          provider: 'crossref',
          operation: 'search',
          outcome: 'ok',
        }),
      ).toBe(1);
    });

    it('counts an unknown address as the route "unmatched", and a refused request by its status', async () => {
      const before = await scrape(base);
      expect((await fetch(`${base}/api/no-such-thing/12345`)).status).toBe(404);
      expect((await fetch(`${base}/api/workspaces`)).status).toBe(401);
      const after = await scrape(base);
      expect(
        moved(before, after, 'http_request_duration_seconds_count', {
          method: 'GET',
          route: 'unmatched',
          status_code: '404',
        }),
      ).toBe(1);
      expect(
        moved(before, after, 'http_request_duration_seconds_count', {
          method: 'GET',
          route: '/api/workspaces',
          status_code: '401',
        }),
      ).toBe(1);
    });

    it('counts the summary cache missing, then hitting for the same paper', async () => {
      const paper = {
        title: 'Metrics for a summary',
        abstract: 'Counting what a cache does tells an operator whether it pays. '.repeat(6),
        mode: 'quick',
      };
      const summarize = () =>
        fetch(`${base}/api/summarize`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(paper),
        });
      const before = await scrape(base);
      expect((await summarize()).status).toBe(200);
      const first = await scrape(base);
      expect(
        moved(before, first, 'cache_lookups_total', { cache: 'summary', result: 'miss' }),
      ).toBe(1);
      expect(moved(before, first, 'cache_lookups_total', { cache: 'summary', result: 'hit' })).toBe(
        0,
      );
      expect((await summarize()).status).toBe(200);
      const second = await scrape(base);
      expect(moved(first, second, 'cache_lookups_total', { cache: 'summary', result: 'hit' })).toBe(
        1,
      );
      expect(
        moved(first, second, 'http_request_duration_seconds_count', {
          method: 'POST',
          route: '/api/summarize',
          status_code: '200',
        }),
      ).toBe(1);
    });

    it('shows a summary stream while it is open', async () => {
      const client = new AbortController();
      const query = new URLSearchParams({ url: `${fixtures.url}/papers/slow.pdf`, mode: 'deep' });
      const res = await fetch(`${base}/api/summarize?${query}`, { signal: client.signal });
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('event: progress'))
        text += new TextDecoder().decode((await reader.read()).value);
      expect(seriesValue(await scrape(base), 'summary_streams_open')).toBe(1);
      client.abort();
      await vi.waitFor(
        async () => expect(seriesValue(await scrape(base), 'summary_streams_open')).toBe(0),
        { timeout: 10_000, interval: 50 },
      );
    });

    it('reports the database pool on PostgreSQL (the embedded database has none), and the process with its event-loop lag', async () => {
      const families = await scrape(base);
      if (leg.postgres) {
        expect(seriesValue(families, 'db_pool_connections_max')).toBe(10);
        expect(seriesValue(families, 'db_pool_connections')).toBeGreaterThanOrEqual(1);
        expect(seriesValue(families, 'db_pool_waiting_queries')).toBe(0);
      } else {
        expect(families.has('db_pool_connections')).toBe(false);
      }
      expect(seriesValue(families, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(seriesValue(families, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    });
  });
}

describe('who may scrape GET /metrics', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const start = async (env: Record<string, string>): Promise<string> => {
    const t = await buildTestApp({ env });
    apps.push(t);
    return listen(t);
  };

  it('in production asks for the bearer METRICS_TOKEN: 401 without it or with another', async () => {
    const base = await start({ NODE_ENV: 'production', METRICS_TOKEN: TOKEN });
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.text()).not.toContain('http_request_duration_seconds');
    expect(
      (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${'x'.repeat(40)}` } }))
        .status,
    ).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: TOKEN } })).status).toBe(
      401,
    );
    const families = await scrape(base, { authorization: `Bearer ${TOKEN}` });
    expect(families.has('http_request_duration_seconds')).toBe(true);
  });

  it('in production without METRICS_TOKEN is no route at all (404), and the API document does not list it', async () => {
    const base = await start({ NODE_ENV: 'production' });
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(doc.paths['/metrics']).toBeUndefined();
  });

  it('in development and test without METRICS_TOKEN is open, and documented', async () => {
    const base = await start({});
    const families = await scrape(base);
    expect(families.has('cache_lookups_total')).toBe(true);
    const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as {
      paths: Record<string, { get?: { operationId?: string } }>;
    };
    expect(doc.paths['/metrics']?.get?.operationId).toBe('getMetrics');
  });
});
