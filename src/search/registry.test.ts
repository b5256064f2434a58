import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_PROVIDER_DEFAULTS, loadConfig } from '../config.js';
import { createProviders, describeProviders, parseProviderSelection } from './registry.js';
import { createTestOutbound, providersAt, startFixtureServer } from './test-support/harness.js';
import type { FixtureServer } from './test-support/harness.js';
import { PROVIDER_IDS } from './types.js';

describe('createProviders / describeProviders', () => {
  const outbound = createTestOutbound();
  afterAll(async () => {
    await outbound.close();
  });

  it('builds the seven providers and describes them with the rate limit in requests per minute', () => {
    const providers = createProviders({
      outbound,
      urls: { ...SEARCH_PROVIDER_DEFAULTS.urls },
      timeoutMs: 8_000,
    });
    const described = describeProviders(providers);
    expect(described.map((provider) => provider.id)).toEqual([...PROVIDER_IDS]);
    expect(
      Object.fromEntries(
        described.map((provider) => [provider.id, [provider.enabled, provider.rateLimit]]),
      ),
    ).toEqual({
      arxiv: [true, 20],
      pubmed: [true, 180],
      crossref: [true, 300],
      openalex: [true, 600],
      semanticscholar: [true, 60],
      zenodo: [true, 30],
      youtube: [false, 300],
    });
    expect(described.find((provider) => provider.id === 'semanticscholar')?.name).toBe(
      'Semantic Scholar',
    );
    expect(described.every((provider) => provider.description.length > 20)).toBe(true);
  });

  it('enables YouTube with a key and moves Crossref to its polite pool with a contact e-mail', () => {
    const providers = createProviders({
      outbound,
      urls: { ...SEARCH_PROVIDER_DEFAULTS.urls },
      timeoutMs: 8_000,
      youtubeApiKey: 'key',
      contactEmail: 'ops@example.org',
    });
    const described = describeProviders(providers);
    expect(described.find((provider) => provider.id === 'youtube')?.enabled).toBe(true);
    expect(described.find((provider) => provider.id === 'crossref')?.rateLimit).toBe(600);
  });

  it("uses each provider's public base address by default", () => {
    expect(loadConfig({}).providers.urls).toEqual({
      arxiv: 'http://export.arxiv.org/api',
      pubmed: 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils',
      crossref: 'https://api.crossref.org',
      openalex: 'https://api.openalex.org',
      semanticscholar: 'https://api.semanticscholar.org/graph/v1',
      zenodo: 'https://zenodo.org/api',
      youtube: 'https://www.googleapis.com/youtube/v3',
    });
  });
});

describe('parseProviderSelection', () => {
  it('reads comma-separated ids with the semantic alias, dropping duplicates', () => {
    expect(parseProviderSelection('arxiv, semantic,semanticscholar,PubMed')).toEqual({
      ok: true,
      ids: ['arxiv', 'semanticscholar', 'pubmed'],
    });
  });

  it('means every provider when absent or empty', () => {
    expect(parseProviderSelection(undefined)).toEqual({ ok: true, ids: [...PROVIDER_IDS] });
    expect(parseProviderSelection(' , ')).toEqual({ ok: true, ids: [...PROVIDER_IDS] });
  });

  it('names the unknown ones', () => {
    expect(parseProviderSelection('arxiv,scholar,ieee')).toEqual({
      ok: false,
      unknown: ['scholar', 'ieee'],
    });
  });
});

describe('polite requests', () => {
  let server: FixtureServer;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      { path: '/crossref/works', fixture: 'crossref/works_query.title_no_results.json' },
      { path: '/openalex/works', fixture: 'openalex/works_filter-title.search_paperqa.json' },
      {
        path: '/semanticscholar/paper/search',
        fixture: 'semanticscholar/paper_search_no_results.json',
      },
      { path: '/arxiv/query', fixture: 'arxiv/empty_idlist_0000.0000_totalResults0.xml' },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  it('identify the operator: User-Agent with the contact, mailto for Crossref/OpenAlex, S2 key header', async () => {
    const providers = providersAt(server.url, outbound, {
      contactEmail: 'ops@example.org',
      semanticScholarApiKey: 's2key',
    });
    await Promise.all([
      providers.crossref.search('q', { limit: 5 }),
      providers.openalex.search('q', { limit: 5 }),
      providers.semanticscholar.search('q', { limit: 5 }),
      providers.arxiv.search('q', { limit: 5 }),
    ]);
    for (const request of server.requests) {
      expect(request.headers['user-agent']).toBe('ResearchWorkspace/0.1 (mailto:ops@example.org)');
    }
    expect(server.requestsTo('/crossref/works')[0]?.query.get('mailto')).toBe('ops@example.org');
    expect(server.requestsTo('/openalex/works')[0]?.query.get('mailto')).toBe('ops@example.org');
    expect(server.requestsTo('/semanticscholar/paper/search')[0]?.headers['x-api-key']).toBe(
      's2key',
    );
  });

  it('leave the outbound client’s own User-Agent alone without a contact', async () => {
    const providers = providersAt(server.url, outbound);
    await providers.crossref.search('no contact', { limit: 5 });
    const request = server
      .requestsTo('/crossref/works')
      .find((r) => r.query.get('query') === 'no contact');
    expect(request?.headers['user-agent']).toBe('test');
    expect(request?.query.has('mailto')).toBe(false);
  });
});
