import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultTypeOf } from './filters.js';
import type { SearchFilters } from './filters.js';
import type { SearchProviders } from './registry.js';
import { searchProviders } from './search.js';
import { createTestOutbound, providersAt, startFixtureServer } from './test-support/harness.js';
import type { FixtureServer } from './test-support/harness.js';
import type { ProviderAnswerCache, ProviderId } from './types.js';

const QUERY = 'Augmenting large language models with chemistry tools';

describe('search filters', () => {
  let server: FixtureServer;
  let providers: SearchProviders;
  const outbound = createTestOutbound();

  // Every provider answers its recorded reply whatever it was asked, as a provider that ignores a filter would.
  beforeAll(async () => {
    server = await startFixtureServer([
      { path: '/arxiv/query', fixture: 'arxiv/query_all-testing_start0_max10.xml' },
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
      { path: '/youtube/search', fixture: 'youtube/search_list_q-surfing_page1.json' },
      { path: '/youtube/videos', fixture: 'youtube/videos_list_multiple_ids.json' },
    ]);
    providers = providersAt(server.url, outbound, { youtubeApiKey: 'test-key' });
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  const run = (filters: SearchFilters, only?: ProviderId[], cache?: ProviderAnswerCache) =>
    searchProviders({
      query: QUERY,
      providers: (only ?? (Object.keys(providers) as ProviderId[])).map((id) => providers[id]),
      sort: 'relevance',
      offset: 0,
      limit: 100,
      filters,
      ...(cache ? { cache } : {}),
    });
  const lastQuery = (path: string) => server.requestsTo(path).at(-1)?.query;

  describe('applied to the merged list of recorded answers', () => {
    it('keeps only works within the year range, leaving out unknown years', async () => {
      const unfiltered = await run({});
      expect(unfiltered.results.some((record) => record.year !== null && record.year < 2023)).toBe(
        true,
      );
      const recent = await run({ yearFrom: 2023 });
      expect(recent.results.map((record) => record.id)).toContain(
        'crossref:10.1038/s42256-024-00832-8',
      );
      expect(recent.results.every((record) => record.year !== null && record.year >= 2023)).toBe(
        true,
      );
      const early = await run({ yearTo: 2021 });
      expect(early.results.length).toBeGreaterThan(0);
      expect(early.results.every((record) => record.year !== null && record.year <= 2021)).toBe(
        true,
      );
      expect(early.total).toBe(early.results.length);
    });

    it('keeps only works with a PDF when asked', async () => {
      const unfiltered = await run({}, ['crossref', 'openalex', 'semanticscholar', 'zenodo']);
      expect(unfiltered.results.some((record) => !record.pdfUrl)).toBe(true);
      const withPdf = await run({ hasPdf: true }, [
        'crossref',
        'openalex',
        'semanticscholar',
        'zenodo',
      ]);
      expect(withPdf.results.map((record) => record.id)).toEqual([
        'crossref:10.1038/s42256-024-00832-8',
      ]);
    });

    it('keeps only the chosen type, whatever each provider calls it', async () => {
      const datasets = await run({ type: 'dataset' });
      expect(datasets.results.map((record) => record.id)).toEqual(['zenodo:7078760']);
      const articles = await run({ type: 'article' }, [
        'crossref',
        'openalex',
        'semanticscholar',
        'zenodo',
      ]);
      expect(articles.results.map((record) => record.id)).toEqual([
        'crossref:10.1038/s42256-024-00832-8',
      ]);
      const preprints = await run({ type: 'preprint' }, ['arxiv', 'crossref', 'zenodo']);
      expect(preprints.results.length).toBe(10);
      expect(preprints.results.every((record) => record.provider === 'arxiv')).toBe(true);
    });

    it('counts for each provider the kept works it contributed, not what it sent', async () => {
      const unfiltered = await run({}, ['crossref', 'openalex', 'semanticscholar', 'zenodo']);
      const zenodoSent = unfiltered.providers.find((status) => status.id === 'zenodo')?.count ?? 0;
      expect(zenodoSent).toBeGreaterThan(1);
      const datasets = await run({ type: 'dataset' }, [
        'crossref',
        'openalex',
        'semanticscholar',
        'zenodo',
      ]);
      const counts = Object.fromEntries(
        datasets.providers.map((status) => [status.id, status.count]),
      );
      // One Zenodo dataset is kept; the other providers' articles are not.
      expect(counts).toEqual({
        crossref: 0,
        openalex: 0,
        semanticscholar: 0,
        zenodo: datasets.results.filter((record) => record.sources.includes('zenodo')).length,
      });
      expect(counts.zenodo).toBe(1);
    });

    it('keeps only venues containing the words, ignoring case and accents', async () => {
      const nature = await run({ venue: 'NATURE  máchine' });
      expect(nature.results.map((record) => record.venue)).toEqual(['Nature Machine Intelligence']);
      const none = await run({ venue: 'Physical Review' });
      expect(none).toMatchObject({ results: [], total: 0, hasMore: false });
    });
  });

  describe('sent to the providers that support them', () => {
    const filters: SearchFilters = {
      yearFrom: 2019,
      yearTo: 2021,
      hasPdf: true,
      type: 'article',
      venue: 'Nature',
    };

    it('Crossref: from-pub-date, until-pub-date, has-full-text and type filters; query.container-title', async () => {
      await run(filters, ['crossref']);
      expect(lastQuery('/crossref/works')?.get('filter')).toBe(
        'from-pub-date:2019,until-pub-date:2021,has-full-text:true,type:journal-article',
      );
      expect(lastQuery('/crossref/works')?.get('query.container-title')).toBe('Nature');
    });

    it('OpenAlex: publication dates, is_oa and type (an OR of its article types)', async () => {
      await run(filters, ['openalex']);
      expect(lastQuery('/openalex/works')?.get('filter')).toBe(
        'from_publication_date:2019-01-01,to_publication_date:2021-12-31,is_oa:true,type:article|review|letter|editorial',
      );
    });

    it('Semantic Scholar: year range, publicationTypes, venue and openAccessPdf', async () => {
      await run(filters, ['semanticscholar']);
      const query = lastQuery('/semanticscholar/paper/search');
      expect(query?.get('year')).toBe('2019-2021');
      expect(query?.get('publicationTypes')).toBe('JournalArticle,Review');
      expect(query?.get('venue')).toBe('Nature');
      expect(query?.has('openAccessPdf')).toBe(true);
      await run({ yearFrom: 2020 }, ['semanticscholar']);
      expect(lastQuery('/semanticscholar/paper/search')?.get('year')).toBe('2020-');
      expect(lastQuery('/semanticscholar/paper/search')?.has('openAccessPdf')).toBe(false);
    });

    it('PubMed: [dp] year range, free full text and the journal in the term', async () => {
      await run(filters, ['pubmed']);
      expect(lastQuery('/pubmed/esearch.fcgi')?.get('term')).toBe(
        `(${QUERY}) AND 2019:2021[dp] AND free full text[sb] AND "Nature"[journal]`,
      );
      await run({}, ['pubmed']);
      expect(lastQuery('/pubmed/esearch.fcgi')?.get('term')).toBe(QUERY);
    });

    it('arXiv: a submittedDate range; another type than preprint asks nothing', async () => {
      await run({ yearFrom: 2019, yearTo: 2021 }, ['arxiv']);
      expect(lastQuery('/arxiv/query')?.get('search_query')).toMatch(
        /^all:Augmenting AND .* AND submittedDate:\[201901010000 TO 202112312359\]$/,
      );
      const before = server.requestsTo('/arxiv/query').length;
      const reply = await run({ type: 'dataset' }, ['arxiv']);
      expect(server.requestsTo('/arxiv/query').length).toBe(before);
      expect(reply.providers[0]).toMatchObject({ id: 'arxiv', status: 'ok', count: 0 });
    });

    it('Zenodo: a publication_date range in q, and type/subtype', async () => {
      await run({ yearFrom: 2019, type: 'dataset' }, ['zenodo']);
      expect(lastQuery('/zenodo/records')?.get('q')).toBe(
        `(${QUERY}) AND publication_date:[2019-01-01 TO *]`,
      );
      expect(lastQuery('/zenodo/records')?.get('type')).toBe('dataset');
      await run({ type: 'preprint' }, ['zenodo']);
      expect(lastQuery('/zenodo/records')?.get('type')).toBe('publication');
      expect(lastQuery('/zenodo/records')?.get('subtype')).toBe('preprint');
    });

    it('YouTube: publishedAfter/publishedBefore; a PDF or another type than video asks nothing', async () => {
      await run({ yearFrom: 2019, yearTo: 2021 }, ['youtube']);
      expect(lastQuery('/youtube/search')?.get('publishedAfter')).toBe('2019-01-01T00:00:00Z');
      expect(lastQuery('/youtube/search')?.get('publishedBefore')).toBe('2022-01-01T00:00:00Z');
      const before = server.requestsTo('/youtube/search').length;
      await run({ hasPdf: true }, ['youtube']);
      await run({ type: 'article' }, ['youtube']);
      expect(server.requestsTo('/youtube/search').length).toBe(before);
    });

    it('nothing extra without filters', async () => {
      await run({}, ['crossref', 'openalex', 'zenodo']);
      expect(lastQuery('/crossref/works')?.has('filter')).toBe(false);
      expect(lastQuery('/openalex/works')?.has('filter')).toBe(false);
      expect(lastQuery('/zenodo/records')?.get('q')).toBe(QUERY);
    });
  });

  it('caches each filter set under its own key', async () => {
    const entries = new Map<string, string>();
    const cache: ProviderAnswerCache = {
      get: async (key) => entries.get(key) ?? null,
      set: async (key, value) => {
        entries.set(key, value);
      },
    };
    const asked = () => server.requestsTo('/crossref/works').length;
    const start = asked();
    await run({}, ['crossref'], cache);
    await run({ yearFrom: 2023 }, ['crossref'], cache);
    expect(asked() - start).toBe(2);
    expect(lastQuery('/crossref/works')?.get('filter')).toBe('from-pub-date:2023');
    await run({ yearFrom: 2023 }, ['crossref'], cache);
    await run({}, ['crossref'], cache);
    expect(asked() - start).toBe(2);
    expect(entries.size).toBe(2);
  });

  it('maps every provider type onto one coarse type', () => {
    expect(
      [
        'journal-article',
        'JournalArticle',
        'posted-content',
        'preprint',
        'proceedings-article',
        'Conference',
        'book-chapter',
        'BookSection',
        'dataset',
        'Dataset',
        'software',
        'video',
        'thesis',
        'dissertation',
        'paratext',
        undefined,
      ].map(resultTypeOf),
    ).toEqual([
      'article',
      'article',
      'preprint',
      'preprint',
      'conference',
      'conference',
      'chapter',
      'chapter',
      'dataset',
      'dataset',
      'software',
      'video',
      'thesis',
      'thesis',
      'other',
      'other',
    ]);
  });
});
