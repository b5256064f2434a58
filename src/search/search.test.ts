import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchProviders } from './registry.js';
import { perProviderLimitFor, searchProviders } from './search.js';
import { createTestOutbound, providersAt, startFixtureServer } from './test-support/harness.js';
import type { FixtureServer } from './test-support/harness.js';
import type { ProviderAnswerCache } from './types.js';

const QUERY = 'Augmenting large language models with chemistry tools';

describe('searchProviders', () => {
  let server: FixtureServer;
  let providers: SearchProviders;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      { path: '/arxiv/query', fixture: 'arxiv/empty_idlist_0000.0000_totalResults0.xml' },
      { path: '/pubmed/esearch.fcgi', fixture: 'pubmed/esearch_no_results_PhraseNotFound.xml' },
      {
        path: '/crossref/works',
        fixture: 'crossref/works_query.title-augmenting-llm-chemistry-tools_rows1.json',
      },
      {
        path: '/openalex/works',
        fixture: 'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
      },
      {
        path: '/semanticscholar/paper/search',
        fixture: 'semanticscholar/paper_search_match_augmenting-llm-chemistry-tools.json',
      },
      { path: '/zenodo/records', fixture: 'zenodo/records_search_q-title_size2_page1.json' },
    ]);
    providers = providersAt(server.url, outbound);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  const run = (overrides: Partial<Parameters<typeof searchProviders>[0]> = {}) =>
    searchProviders({
      query: QUERY,
      providers: Object.values(providers),
      sort: 'relevance',
      offset: 0,
      limit: 20,
      ...overrides,
    });

  it('returns one merged, scored list with the public envelope and provider statuses', async () => {
    const reply = await run();
    expect(reply.query).toBe(QUERY);
    expect(reply.total).toBe(3);
    expect(reply.hasMore).toBe(false);
    expect(reply.took).toBeGreaterThanOrEqual(0);
    expect(reply.providers).toHaveLength(7);
    expect(reply.results[0]).toMatchObject({
      id: 'crossref:10.1038/s42256-024-00832-8',
      sources: ['crossref', 'openalex', 'semanticscholar'],
    });
    expect(reply.results.every((record) => record.score >= 0 && record.score <= 1)).toBe(true);
    expect(reply.results[0]?.score).toBeGreaterThan(reply.results[1]?.score ?? 1);
  });

  it('sorts by date and by citations with unknown values last', async () => {
    const byDate = await run({ sort: 'date' });
    expect(byDate.results.map((record) => record.publishedDate)).toEqual([
      '2024-05-08',
      '2022-09-18',
      '2022-09-14',
    ]);
    const byCitations = await run({ sort: 'citations' });
    expect(byCitations.results[0]?.citations).toBe(488);
    expect(byCitations.results.slice(1).every((record) => !record.citationsKnown)).toBe(true);
  });

  it('pages the merged list honestly', async () => {
    const page = await run({ sort: 'date', offset: 1, limit: 1 });
    expect(page).toMatchObject({ total: 3, hasMore: true });
    expect(page.results.map((record) => record.id)).toEqual(['zenodo:7089850']);
    const past = await run({ offset: 3, limit: 20 });
    expect(past).toMatchObject({ results: [], total: 3, hasMore: false });
  });

  it('asks each provider for a fixed bucket so that the next page is served by the cache', async () => {
    const entries = new Map<string, string>();
    const cache: ProviderAnswerCache = {
      get: async (key) => entries.get(key) ?? null,
      set: async (key, value) => {
        entries.set(key, value);
      },
    };
    const before = server.requests.length;
    await run({ cache, offset: 0, limit: 20 });
    const asked = server.requests.length - before;
    expect(server.requestsTo('/crossref/works').at(-1)?.query.get('rows')).toBe('50');
    await run({ cache, offset: 20, limit: 20 });
    expect(server.requests.length - before).toBe(asked);
  });

  it('chooses 50 per provider for the first pages and 100 beyond', () => {
    expect(perProviderLimitFor(0, 20)).toBe(50);
    expect(perProviderLimitFor(30, 20)).toBe(50);
    expect(perProviderLimitFor(40, 20)).toBe(100);
    expect(perProviderLimitFor(0, 100)).toBe(100);
  });
});
