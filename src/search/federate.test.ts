import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { federatedSearch } from './federate.js';
import type { ProviderStatus } from './federate.js';
import { mergeRecords } from './merge.js';
import { ProviderError } from './provider-error.js';
import { createTestOutbound, providersAt, startFixtureServer } from './test-support/harness.js';
import type { FixtureRoute, FixtureServer } from './test-support/harness.js';
import type { ProviderAnswerCache, ProviderId, SearchProvider } from './types.js';
import { freePort } from '../../test/support/server-process.js';
import { timed, withinBound } from '../../test/support/timing.js';

const QUERY = 'Augmenting large language models with chemistry tools';

/** Each provider's recorded answer for the query, under its own path prefix. */
function defaultRoutes(): Record<ProviderId, FixtureRoute[]> {
  return {
    arxiv: [{ path: '/arxiv/query', fixture: 'arxiv/empty_idlist_0000.0000_totalResults0.xml' }],
    pubmed: [
      { path: '/pubmed/esearch.fcgi', fixture: 'pubmed/esearch_no_results_PhraseNotFound.xml' },
    ],
    crossref: [
      {
        path: '/crossref/works',
        fixture: 'crossref/works_query.title-augmenting-llm-chemistry-tools_rows1.json',
      },
    ],
    openalex: [
      {
        path: '/openalex/works',
        fixture: 'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
      },
    ],
    semanticscholar: [
      {
        path: '/semanticscholar/paper/search',
        fixture: 'semanticscholar/paper_search_match_augmenting-llm-chemistry-tools.json',
      },
    ],
    zenodo: [
      { path: '/zenodo/records', fixture: 'zenodo/records_search_q-title_size2_page1.json' },
    ],
    youtube: [{ path: '/youtube/search', fixture: 'youtube/search_list_q-surfing_page1.json' }],
  };
}

const outbound = createTestOutbound();
const servers: FixtureServer[] = [];

async function serveProviders(
  overrides: Partial<Record<ProviderId, FixtureRoute[]>> = {},
): Promise<FixtureServer> {
  const routes = { ...defaultRoutes(), ...overrides };
  const server = await startFixtureServer(Object.values(routes).flat());
  servers.push(server);
  return server;
}

function statusOf(statuses: ProviderStatus[], id: ProviderId): ProviderStatus | undefined {
  return statuses.find((status) => status.id === id);
}

/** The Map-backed cache the platform's memory/Redis caches stand in for. */
function createMapCache(): ProviderAnswerCache & {
  entries: Map<string, { value: string; ttlSeconds: number }>;
} {
  const entries = new Map<string, { value: string; ttlSeconds: number }>();
  return {
    entries,
    get: async (key) => entries.get(key)?.value ?? null,
    set: async (key, value, ttlSeconds) => {
      entries.set(key, { value, ttlSeconds });
    },
  };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(async () => {
  await outbound.close();
});

/**
 * How long a federated search takes on this machine now when its one provider answers at once: the
 * baseline the timing checks below add their deadlines to (test/support/timing.ts).
 */
async function answeredAtOnceMs(): Promise<number> {
  const instant: SearchProvider = {
    id: 'arxiv',
    name: 'At once',
    description: 'answers at once',
    requestsPerSecond: 1_000,
    maxConcurrency: 10,
    isEnabled: () => true,
    search: async () => ({ records: [] }),
    lookup: async () => null,
  };
  const { ms } = await timed(() =>
    federatedSearch({ providers: [instant], query: 'baseline', perProviderLimit: 25 }),
  );
  return ms;
}

describe('federatedSearch', () => {
  it('logs each provider failure at warn with its cause, and nothing for those that answered', async () => {
    const server = await serveProviders({
      openalex: [{ path: '/openalex/works', status: 500, body: '{"error":"boom"}' }],
    });
    const nobodyListens = `http://127.0.0.1:${await freePort()}`;
    const working = providersAt(server.url, outbound);
    const refused = providersAt(nobodyListens, outbound);
    const warnings: Array<{ details: Record<string, unknown>; message: string }> = [];
    const result = await federatedSearch({
      providers: [working.crossref, working.openalex, refused.zenodo],
      query: QUERY,
      perProviderLimit: 25,
      log: { warn: (details, message) => warnings.push({ details, message }) },
    });
    expect(result.providers.map((status) => status.status)).toEqual(['ok', 'error', 'error']);
    expect(warnings.map((warning) => warning.details.provider).sort()).toEqual([
      'openalex',
      'zenodo',
    ]);
    expect(warnings.every((warning) => warning.message === 'search provider failed')).toBe(true);
    const zenodo = warnings.find((warning) => warning.details.provider === 'zenodo')!.details;
    expect(zenodo).toMatchObject({ status: 'error', kind: 'network' });
    expect(zenodo.cause).toMatch(/ECONNREFUSED/);
    expect(
      warnings.find((warning) => warning.details.provider === 'openalex')!.details,
    ).toMatchObject({ kind: 'upstream', httpStatus: 500 });
  });

  it('tells a provider that could not be reached from one that answered with an error', async () => {
    const server = await serveProviders({
      openalex: [{ path: '/openalex/works', status: 500, body: '{"error":"boom"}' }],
      crossref: [{ path: '/crossref/works', body: 'not json' }],
    });
    const working = providersAt(server.url, outbound);
    const refused = providersAt(`http://127.0.0.1:${await freePort()}`, outbound);
    const result = await federatedSearch({
      providers: [working.crossref, working.openalex, refused.zenodo],
      query: QUERY,
      perProviderLimit: 25,
    });
    expect(statusOf(result.providers, 'zenodo')).toMatchObject({
      status: 'error',
      reason: 'unreachable',
    });
    expect(statusOf(result.providers, 'openalex')).toMatchObject({
      status: 'error',
      reason: 'error_response',
    });
    expect(statusOf(result.providers, 'crossref')).toMatchObject({
      status: 'error',
      reason: 'bad_response',
    });
  });

  it('asks every provider at once and reports each; the chemistry paper merges across three providers', async () => {
    const server = await serveProviders();
    const providers = providersAt(server.url, outbound);
    const result = await federatedSearch({
      providers: Object.values(providers),
      query: QUERY,
      perProviderLimit: 25,
    });

    expect(result.providers.map((status) => [status.id, status.status, status.count])).toEqual([
      ['arxiv', 'ok', 0],
      ['pubmed', 'ok', 0],
      ['crossref', 'ok', 1],
      ['openalex', 'ok', 2],
      ['semanticscholar', 'ok', 1],
      ['zenodo', 'ok', 2],
      ['youtube', 'disabled', 0],
    ]);
    expect(server.requestsTo(/^\/youtube/)).toHaveLength(0);
    expect(statusOf(result.providers, 'crossref')?.total).toBe(2531297);
    // Each record carries its rank in its provider's answer.
    expect(result.records.find((record) => record.id === 'openalex:W4365597205')?.ranks).toEqual({
      openalex: 2,
    });

    const merged = mergeRecords(result.records);
    // Crossref (1) + OpenAlex article and preprint (2) + Semantic Scholar (1) fold into one; Zenodo's 2 stay.
    expect(merged).toHaveLength(3);
    const paper = merged.find((record) => record.sources.length > 1);
    expect(paper).toMatchObject({
      id: 'crossref:10.1038/s42256-024-00832-8',
      provider: 'crossref',
      title: 'Augmenting large language models with chemistry tools',
      sources: ['crossref', 'openalex', 'semanticscholar'],
      doi: '10.1038/s42256-024-00832-8',
      pmid: '38799228',
      arxivId: '2304.05376',
      openalexId: 'W4396723768',
      // The highest count of the three (Crossref 232, OpenAlex 236, Semantic Scholar 488).
      citations: 488,
      publishedDate: '2024-05-08',
      pdfUrl: 'https://www.nature.com/articles/s42256-024-00832-8.pdf',
      ranks: { crossref: 1, openalex: 1, semanticscholar: 1 },
    });
    // The longest abstract of the group is the preprint's (OpenAlex W4365597205).
    expect(
      paper?.abstract.startsWith(
        'Over the last decades, excellent computational chemistry tools have been developed.',
      ),
    ).toBe(true);
  });

  it('reports a provider that outlives its deadline as timeout and still returns the others in time', async () => {
    const server = await serveProviders({
      crossref: [
        {
          path: '/crossref/works',
          delayMs: 3_000,
          fixture: 'crossref/works_query.title-augmenting-llm-chemistry-tools_rows1.json',
        },
      ],
    });
    const providers = providersAt(server.url, outbound);
    const { value: result, ms } = await timed(() =>
      federatedSearch({
        providers: Object.values(providers),
        query: QUERY,
        perProviderLimit: 25,
        deadlineMs: 500,
      }),
    );
    // Within its deadline, nowhere near the 3 s Crossref takes.
    expect(ms).toBeLessThan(withinBound(await answeredAtOnceMs(), 500, 3_000));
    const crossref = statusOf(result.providers, 'crossref');
    expect(crossref).toMatchObject({ status: 'timeout', count: 0 });
    expect(crossref?.took).toBeGreaterThanOrEqual(450);
    expect(statusOf(result.providers, 'openalex')).toMatchObject({ status: 'ok', count: 2 });
    expect(statusOf(result.providers, 'semanticscholar')).toMatchObject({ status: 'ok', count: 1 });
    expect(result.records.some((record) => record.provider === 'crossref')).toBe(false);
  });

  it('honours a per-provider deadline over the default one', async () => {
    const server = await serveProviders({
      zenodo: [
        {
          path: '/zenodo/records',
          delayMs: 400,
          fixture: 'zenodo/records_search_q-title_size2_page1.json',
        },
      ],
    });
    const providers = providersAt(server.url, outbound);
    const result = await federatedSearch({
      providers: [providers.zenodo, providers.crossref],
      query: QUERY,
      perProviderLimit: 25,
      deadlineMs: 100,
      providerDeadlinesMs: { zenodo: 2_000 },
    });
    expect(statusOf(result.providers, 'zenodo')).toMatchObject({ status: 'ok', count: 2 });
  });

  it('reports an erroring provider as error without failing the search', async () => {
    const server = await serveProviders({
      openalex: [{ path: '/openalex/works', status: 500, body: 'Internal Server Error' }],
      youtube: [],
    });
    const providers = providersAt(server.url, outbound, { youtubeApiKey: 'key' });
    const result = await federatedSearch({
      providers: Object.values(providers),
      query: QUERY,
      perProviderLimit: 25,
    });
    expect(statusOf(result.providers, 'openalex')).toMatchObject({ status: 'error', count: 0 });
    expect(statusOf(result.providers, 'openalex')?.message).toContain('HTTP 500');
    // With a key YouTube is asked, but no route answers it (501): an error too.
    expect(statusOf(result.providers, 'youtube')).toMatchObject({ status: 'error' });
    expect(statusOf(result.providers, 'crossref')).toMatchObject({ status: 'ok', count: 1 });
  });

  it('reports a 429 without Retry-After as rate_limited, asking once', async () => {
    const server = await serveProviders({
      semanticscholar: [
        {
          path: '/semanticscholar/paper/search',
          status: 429,
          fixture: 'semanticscholar/error_429_too_many_requests.json',
        },
      ],
    });
    const providers = providersAt(server.url, outbound);
    const result = await federatedSearch({
      providers: [providers.semanticscholar],
      query: QUERY,
      perProviderLimit: 25,
    });
    expect(result.providers).toMatchObject([
      { id: 'semanticscholar', status: 'rate_limited', count: 0 },
    ]);
    expect(server.requestsTo('/semanticscholar/paper/search')).toHaveLength(1);
  });

  it('retries a 429 carrying Retry-After once and reports the retried answer', async () => {
    const server = await serveProviders({
      semanticscholar: [
        {
          path: '/semanticscholar/paper/search',
          times: 1,
          status: 429,
          headers: { 'retry-after': '1' },
          fixture: 'semanticscholar/error_429_too_many_requests.json',
        },
        {
          path: '/semanticscholar/paper/search',
          fixture: 'semanticscholar/paper_search_match_augmenting-llm-chemistry-tools.json',
        },
      ],
    });
    const providers = providersAt(server.url, outbound);
    const result = await federatedSearch({
      providers: [providers.semanticscholar],
      query: QUERY,
      perProviderLimit: 25,
    });
    expect(result.providers).toMatchObject([{ id: 'semanticscholar', status: 'ok', count: 1 }]);
    expect(server.requestsTo('/semanticscholar/paper/search')).toHaveLength(2);
  });

  it('does not retry a 429 whose Retry-After ends past the deadline', async () => {
    const server = await serveProviders({
      semanticscholar: [
        {
          path: '/semanticscholar/paper/search',
          status: 429,
          headers: { 'retry-after': '5' },
          fixture: 'semanticscholar/error_429_too_many_requests.json',
        },
      ],
    });
    const providers = providersAt(server.url, outbound);
    const { value: result, ms } = await timed(() =>
      federatedSearch({
        providers: [providers.semanticscholar],
        query: QUERY,
        perProviderLimit: 25,
        deadlineMs: 2_000,
      }),
    );
    expect(result.providers).toMatchObject([{ id: 'semanticscholar', status: 'rate_limited' }]);
    expect(server.requestsTo('/semanticscholar/paper/search')).toHaveLength(1);
    // Answered at once, not after waiting out the deadline.
    expect(ms).toBeLessThan(withinBound(await answeredAtOnceMs(), 0, 2_000));
  });

  it('bounds a provider that ignores its abort signal, and maps foreign errors to error', async () => {
    const hanging: SearchProvider = {
      id: 'zenodo',
      name: 'Hangs',
      description: 'never answers',
      requestsPerSecond: 1,
      maxConcurrency: 1,
      isEnabled: () => true,
      search: () => new Promise(() => undefined),
      lookup: async () => null,
    };
    const throwing: SearchProvider = {
      ...hanging,
      id: 'arxiv',
      search: async () => Promise.reject(new TypeError('boom')),
    };
    const limited: SearchProvider = {
      ...hanging,
      id: 'pubmed',
      search: async () => Promise.reject(new ProviderError('pubmed', 'rate_limited', 'quota')),
    };
    const { value: result, ms } = await timed(() =>
      federatedSearch({
        providers: [hanging, throwing, limited],
        query: 'anything',
        perProviderLimit: 10,
        deadlineMs: 200,
      }),
    );
    // The hanging provider would never answer: the search ends at its deadline (rather than 2 s on).
    expect(ms).toBeLessThan(withinBound(await answeredAtOnceMs(), 200, 2_000));
    expect(result.providers.map((status) => [status.id, status.status])).toEqual([
      ['zenodo', 'timeout'],
      ['arxiv', 'error'],
      ['pubmed', 'rate_limited'],
    ]);
    expect(result.records).toEqual([]);
  });

  it('starts providers whose search is a chain of requests first, and reports them in the order given', async () => {
    const started: ProviderId[] = [];
    const fake = (id: ProviderId, requestsPerSearch?: number): SearchProvider => ({
      id,
      name: id,
      description: id,
      requestsPerSecond: 1,
      maxConcurrency: 1,
      ...(requestsPerSearch ? { requestsPerSearch } : {}),
      isEnabled: () => true,
      search: async () => {
        started.push(id);
        return { records: [] };
      },
      lookup: async () => null,
    });
    const result = await federatedSearch({
      providers: [
        fake('arxiv'),
        fake('pubmed', 2),
        fake('crossref', 1),
        fake('youtube', 2),
        fake('zenodo'),
      ],
      query: 'anything',
      perProviderLimit: 10,
    });
    expect(started).toEqual(['pubmed', 'youtube', 'arxiv', 'crossref', 'zenodo']);
    expect(result.providers.map((status) => status.id)).toEqual([
      'arxiv',
      'pubmed',
      'crossref',
      'youtube',
      'zenodo',
    ]);
  });

  it('stops every provider when the caller aborts', async () => {
    const server = await serveProviders({
      crossref: [
        {
          path: '/crossref/works',
          delayMs: 2_000,
          fixture: 'crossref/works_query.title_no_results.json',
        },
      ],
    });
    const providers = providersAt(server.url, outbound);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { value: result, ms } = await timed(() =>
      federatedSearch({
        providers: [providers.crossref],
        query: QUERY,
        perProviderLimit: 25,
        signal: controller.signal,
      }),
    );
    // Ended by the abort after 100 ms, not by Crossref's answer after 2 s.
    expect(ms).toBeLessThan(withinBound(await answeredAtOnceMs(), 100, 2_000));
    expect(result.providers).toMatchObject([{ id: 'crossref', status: 'error', count: 0 }]);
  });

  describe('answer cache', () => {
    it('serves the next identical search from the cache without asking the providers again', async () => {
      const server = await serveProviders();
      const providers = providersAt(server.url, outbound);
      const cache = createMapCache();
      const options = {
        providers: Object.values(providers),
        query: QUERY,
        perProviderLimit: 50,
        cache,
      };
      const first = await federatedSearch(options);
      const requestsAfterFirst = server.requests.length;
      expect(requestsAfterFirst).toBe(6);
      // Six answered (YouTube is disabled), each stored for the default 300 s.
      expect(cache.entries.size).toBe(6);
      expect([...cache.entries.values()].every((entry) => entry.ttlSeconds === 300)).toBe(true);

      const second = await federatedSearch(options);
      expect(server.requests.length).toBe(requestsAfterFirst);
      expect(second.records).toEqual(first.records);
      expect(statusOf(second.providers, 'crossref')).toMatchObject({
        status: 'ok',
        count: 1,
        cached: true,
        total: 2531297,
      });
      expect(statusOf(first.providers, 'crossref')?.cached).toBeUndefined();
    });

    it('leaves cache writes to deferWork when given one (the route runs them after the reply)', async () => {
      const server = await serveProviders();
      const providers = providersAt(server.url, outbound);
      const cache = createMapCache();
      const deferred: Array<() => void> = [];
      const seen: string[] = [];
      await federatedSearch({
        providers: [providers.crossref, providers.zenodo],
        query: QUERY,
        perProviderLimit: 50,
        cache,
        deferWork: (work) => deferred.push(work),
        onAnswer: (records) => seen.push(...records.map((record) => record.id)),
      });
      expect(seen.length).toBeGreaterThan(0);
      expect(cache.entries.size).toBe(0);
      for (const work of deferred) work();
      await vi.waitFor(() => expect(cache.entries.size).toBe(2));
    });

    it('caches only successful answers, for the configured time', async () => {
      const server = await serveProviders({
        openalex: [{ path: '/openalex/works', status: 503, body: 'down' }],
      });
      const providers = providersAt(server.url, outbound);
      const cache = createMapCache();
      await federatedSearch({
        providers: [providers.openalex, providers.crossref],
        query: QUERY,
        perProviderLimit: 50,
        cache,
        cacheTtlSeconds: 60,
      });
      const keys = [...cache.entries.keys()];
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/^search:v1:crossref:50:/);
      expect(cache.entries.get(keys[0] ?? '')?.ttlSeconds).toBe(60);
    });

    it('keys answers by provider, limit and query', async () => {
      const server = await serveProviders();
      const providers = providersAt(server.url, outbound);
      const cache = createMapCache();
      await federatedSearch({
        providers: [providers.crossref],
        query: QUERY,
        perProviderLimit: 50,
        cache,
      });
      await federatedSearch({
        providers: [providers.crossref],
        query: QUERY,
        perProviderLimit: 100,
        cache,
      });
      await federatedSearch({
        providers: [providers.crossref],
        query: `${QUERY} 2`,
        perProviderLimit: 50,
        cache,
      });
      expect(server.requestsTo('/crossref/works')).toHaveLength(3);
      await federatedSearch({
        providers: [providers.crossref],
        query: `  ${QUERY}  `,
        perProviderLimit: 50,
        cache,
      });
      expect(server.requestsTo('/crossref/works')).toHaveLength(3);
    });

    it('asks the provider when the cache fails', async () => {
      const server = await serveProviders();
      const providers = providersAt(server.url, outbound);
      const broken: ProviderAnswerCache = {
        get: async () => Promise.reject(new Error('redis down')),
        set: async () => Promise.reject(new Error('redis down')),
      };
      const result = await federatedSearch({
        providers: [providers.crossref],
        query: QUERY,
        perProviderLimit: 50,
        cache: broken,
      });
      expect(result.providers).toMatchObject([{ id: 'crossref', status: 'ok', count: 1 }]);
    });
  });

  describe('beforeProviderCalls and onSettled', () => {
    it('waits on beforeProviderCalls once before the first request, and not at all when every answer is cached', async () => {
      const server = await serveProviders({
        zenodo: [
          {
            path: '/zenodo/records',
            fixture: 'zenodo/records_search_q-title_size2_page1.json',
            delayMs: 300,
          },
        ],
      });
      const providers = providersAt(server.url, outbound);
      const cache = createMapCache();
      const order: string[] = [];
      const options = {
        providers: [providers.crossref, providers.zenodo, providers.youtube],
        query: QUERY,
        perProviderLimit: 50,
        cache,
        beforeProviderCalls: async () =>
          void order.push(`gate after ${server.requests.length} requests`),
        onSettled: (status: ProviderStatus) => void order.push(status.id),
      };
      const first = await federatedSearch(options);
      // Asked once, before any request left; each provider reported as it settles (the slow one last),
      // the disabled one too, which asks nothing.
      expect(order.filter((entry) => entry !== 'youtube')).toEqual([
        'gate after 0 requests',
        'crossref',
        'zenodo',
      ]);
      expect(order).toContain('youtube');
      expect(first.providers.map((status) => status.id)).toEqual(['crossref', 'zenodo', 'youtube']);
      order.length = 0;
      await federatedSearch(options);
      expect(order.filter((entry) => entry.startsWith('gate'))).toEqual([]);
    });

    it('fails the search with the refusal of beforeProviderCalls, asking no provider', async () => {
      const server = await serveProviders();
      const providers = providersAt(server.url, outbound);
      const refusal = new Error('rate limited');
      await expect(
        federatedSearch({
          providers: [providers.crossref, providers.zenodo],
          query: QUERY,
          perProviderLimit: 50,
          beforeProviderCalls: async () => Promise.reject(refusal),
        }),
      ).rejects.toBe(refusal);
      expect(server.requests).toHaveLength(0);
    });
  });
});
