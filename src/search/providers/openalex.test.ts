import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../provider-error.js';
import {
  createTestOutbound,
  factoryOptions,
  readFixture,
  startFixtureServer,
} from '../test-support/harness.js';
import type { FixtureServer } from '../test-support/harness.js';
import { createOpenalexProvider, openalexWorkPath, rebuildInvertedAbstract } from './openalex.js';

const CHEMISTRY_QUERY = 'Augmenting large language models with chemistry tools';

describe('openalex provider', () => {
  let server: FixtureServer;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      {
        path: '/works',
        query: { search: CHEMISTRY_QUERY },
        fixture: 'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
      },
      {
        path: '/works',
        query: { search: 'toast biodiversity' },
        fixture:
          'openalex/works_filter-fulltext.search_toast-AND-biodiversity_cursor_per-page200_TRIMMED-first10.json',
      },
      { path: '/works', query: { search: 'broken' }, status: 500, body: 'Internal Server Error' },
      {
        path: '/works/doi:10.1016/j.xgen.2025.100814',
        fixture: 'openalex/work_by_doi_10.1016_j.xgen.2025.100814.json',
      },
      { path: '/works/W1', status: 404, fixture: 'openalex/error_404_work_not_found.html' },
      // Related works: the recorded work, then recorded `/works?filter=` list answers (another filter's works: the shape is what counts).
      {
        path: '/works/doi:10.2139/ssrn.2250500',
        fixture: 'openalex/work_by_doi_10.1016_j.xgen.2025.100814.json',
      },
      {
        path: '/works',
        query: { filter: /^(openalex|cites):/ },
        fixture: 'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
      },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  const provider = () =>
    createOpenalexProvider(
      factoryOptions(server.url, outbound, { contactEmail: 'ops@example.org' }),
    );

  it('reads works: abstract rebuilt from the inverted index, authors from authorships, ids', async () => {
    const answer = await provider().search(CHEMISTRY_QUERY, { limit: 25 });
    expect(answer.total).toBe(2);
    const [article, preprint] = answer.records;
    expect(article).toMatchObject({
      id: 'openalex:W4396723768',
      provider: 'openalex',
      title: 'Augmenting large language models with chemistry tools',
      authors: [
        'Andres M. Bran',
        'Sam Cox',
        'Oliver Schilter',
        'Carlo Baldassari',
        'Andrew Dickson White',
        'Philippe Schwaller',
      ],
      publishedDate: '2024-05-08',
      citations: 236,
      citationsKnown: true,
      doi: '10.1038/s42256-024-00832-8',
      pmid: '38799228',
      openalexId: 'W4396723768',
      url: 'https://doi.org/10.1038/s42256-024-00832-8',
      pdfUrl: 'https://www.nature.com/articles/s42256-024-00832-8.pdf',
    });
    // The index starts with the heading word "Abstract", which is dropped.
    expect(
      article?.abstract.startsWith(
        'Large language models (LLMs) have shown strong performance in tasks across domains',
      ),
    ).toBe(true);
    expect(
      article?.abstract.endsWith(
        'bridging the gap between experimental and computational chemistry.',
      ),
    ).toBe(true);
    expect(preprint).toMatchObject({
      id: 'openalex:W4365597205',
      title: 'ChemCrow: Augmenting large-language models with chemistry tools',
      doi: '10.48550/arxiv.2304.05376',
      arxivId: '2304.05376',
      type: 'preprint',
      citations: 106,
    });
    expect(
      preprint?.abstract.startsWith(
        'Over the last decades, excellent computational chemistry tools have been developed.',
      ),
    ).toBe(true);
    expect(preprint?.pdfUrl).toBeUndefined();
  });

  it('reads the bibliographic details: names as printed, venue, biblio, publisher, type', async () => {
    const answer = await provider().search(CHEMISTRY_QUERY, { limit: 25 });
    const [article, preprint] = answer.records;
    // raw_author_name "Andrew D. White" (his profile's display_name is "Andrew Dickson White").
    expect(article?.details).toEqual({
      creators: [
        { role: 'author', family: 'Bran', given: 'Andres M.' },
        { role: 'author', family: 'Cox', given: 'Sam' },
        { role: 'author', family: 'Schilter', given: 'Oliver' },
        { role: 'author', family: 'Baldassari', given: 'Carlo' },
        { role: 'author', family: 'White', given: 'Andrew D.' },
        { role: 'author', family: 'Schwaller', given: 'Philippe' },
      ],
      type: 'article-journal',
      containerTitle: 'Nature Machine Intelligence',
      volume: '6',
      issue: '5',
      pages: '525-535',
      publisher: 'Nature Portfolio',
      issn: '2522-5839',
      language: 'en',
    });
    // Source "arXiv (Cornell University)", a repository of host "Cornell University": the publisher.
    expect(preprint?.details).toEqual({
      creators: [
        { role: 'author', family: 'Bran', given: 'Andres M' },
        { role: 'author', family: 'Cox', given: 'Sam' },
        { role: 'author', family: 'White', given: 'Andrew D' },
        { role: 'author', family: 'Schwaller', given: 'Philippe' },
      ],
      type: 'preprint',
      publisher: 'arXiv',
      language: 'en',
    });

    const toast = await provider().search('toast biodiversity', { limit: 10 });
    const byId = new Map(toast.records.map((record) => [record.openalexId, record]));
    // The profile of this work's first author is another person's ("Michaël Aubert"); the work prints "T. Decaëns".
    const soil = byId.get('W1977698992');
    expect(soil?.authors[0]).toBe('Michaël Aubert');
    expect(soil?.details).toMatchObject({
      creators: expect.arrayContaining([{ role: 'author', family: 'Decaëns', given: 'T.' }]),
      containerTitle: 'European Journal of Soil Biology',
      volume: '42',
      pages: 'S23-S38',
      issn: '1164-5563, 1778-3615',
    });
    expect(soil?.details?.issue).toBeUndefined();
    expect(byId.get('W2158856211')?.details).toMatchObject({
      creators: [{ role: 'author', family: 'Huis', nonDroppingParticle: 'van', given: 'Arnold' }],
      type: 'article-journal',
      publisher: 'Annual Reviews',
    });
    // first_page = last_page = "335": one page.
    expect(byId.get('W2949573358')?.details?.pages).toBe('335');
  });

  it('asks /works with search, per-page, a field selection and mailto', async () => {
    await provider().search(CHEMISTRY_QUERY, { limit: 25 });
    const request = server
      .requestsTo('/works')
      .find((r) => r.query.get('search') === CHEMISTRY_QUERY);
    expect(request?.query.get('per-page')).toBe('25');
    expect(request?.query.get('mailto')).toBe('ops@example.org');
    expect(request?.query.get('select')).toContain('abstract_inverted_index');
  });

  it('unescapes HTML entities in index tokens and leaves a bare ampersand alone', async () => {
    const answer = await provider().search('toast biodiversity', { limit: 10 });
    expect(answer.total).toBe(806);
    expect(answer.records).toHaveLength(10);
    const byId = new Map(answer.records.map((record) => [record.nativeId, record]));
    expect(byId.get('W1754328501')?.abstract).toContain('only Figures 79-81 were “staged.”');
    expect(
      byId
        .get('W2052660886')
        ?.abstract.startsWith('To articulate a healthy and sustainable (H&S) diet;'),
    ).toBe(true);
    expect(byId.get('W2949573358')?.title).toBe(
      'Plant Biostimulants: Importance of the Quality and Yield of Horticultural Crops and the Improvement of Plant Tolerance to Abiotic Stress—A Review',
    );
    expect(byId.get('W2158856211')).toMatchObject({
      authors: ['A. van Huis'],
      citations: 1450,
      pmid: '23020616',
    });
  });

  it('looks up a work by DOI (doi: form) and keeps a null abstract as empty', async () => {
    const record = await provider().lookup('doi:10.1016/j.xgen.2025.100814');
    expect(record).toMatchObject({
      id: 'openalex:W4408732759',
      title: 'High-throughput screening of human genetic variants by pooled prime editing',
      abstract: '',
      citations: 3,
      publishedDate: '2025-03-01',
      pmid: '40120586',
    });
    expect(record?.authors).toHaveLength(6);
    // biblio: no volume or issue, first_page = last_page = "100814" (an article number).
    expect(record?.details).toMatchObject({
      type: 'article-journal',
      containerTitle: 'Cell Genomics',
      pages: '100814',
      publisher: 'Elsevier BV',
      issn: '2666-979X',
    });
    expect(record?.details?.volume).toBeUndefined();
  });

  it('answers null for the HTML 404 page', async () => {
    expect(await provider().lookup('W1')).toBeNull();
  });

  it('reports a 500 as an upstream error', async () => {
    const failure = await provider()
      .search('broken', { limit: 5 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ kind: 'upstream', status: 500 });
  });

  it('rebuilds an abstract in word-position order', () => {
    const work = JSON.parse(readFixture('openalex/works_filter-title.search_paperqa.json')) as {
      results: Array<{ abstract_inverted_index: unknown }>;
    };
    const text = rebuildInvertedAbstract(work.results[0]?.abstract_inverted_index);
    expect(
      text.startsWith(
        'Large Language Models (LLMs) generalize well across language tasks, but suffer from hallucinations',
      ),
    ).toBe(true);
    expect(
      text.endsWith("Finally, we demonstrate PaperQA's matches expert human researchers on LitQA."),
    ).toBe(true);
    expect(text.split(' ')).toHaveLength(165);
    expect(rebuildInvertedAbstract(null)).toBe('');
    expect(rebuildInvertedAbstract({ '(&amp;lt;75': [1], ages: [0] })).toBe('ages (<75');
  });

  it('maps native ids to /works paths', () => {
    expect(openalexWorkPath('W2741809807')).toBe('/works/W2741809807');
    expect(openalexWorkPath('https://openalex.org/W2741809807')).toBe('/works/W2741809807');
    expect(openalexWorkPath('doi:10.1038/nature14539')).toBe('/works/doi:10.1038/nature14539');
    expect(openalexWorkPath('pmid:38799228')).toBe('/works/pmid:38799228');
    expect(openalexWorkPath('nonsense')).toBeNull();
  });

  describe('related works', () => {
    const recorded = JSON.parse(
      readFixture('openalex/work_by_doi_10.1016_j.xgen.2025.100814.json'),
    ) as { referenced_works: string[] };
    const shortIds = recorded.referenced_works.map((id) => id.replace('https://openalex.org/', ''));

    it('reads the work, then resolves at most `limit` of its references in one filter request; total is the work’s count', async () => {
      const answer = await provider().related!('references', 'doi:10.2139/ssrn.2250500', {
        limit: 20,
      });
      expect(answer.total).toBe(shortIds.length);
      expect(answer.records.map((record) => record.id)).toEqual([
        'openalex:W4396723768',
        'openalex:W4365597205',
      ]);
      const workRequest = server.requestsTo('/works/doi:10.2139/ssrn.2250500').at(-1)!;
      expect(workRequest.query.get('select')).toBe('id,referenced_works');
      const listRequest = server.requestsTo('/works').at(-1)!;
      expect(listRequest.query.get('filter')).toBe(`openalex:${shortIds.slice(0, 20).join('|')}`);
      expect(listRequest.query.get('per-page')).toBe('20');
    });

    it('asks what cites the work by its W-id, most cited first', async () => {
      await provider().related!('citations', 'doi:10.2139/ssrn.2250500', { limit: 500 });
      const listRequest = server.requestsTo('/works').at(-1)!;
      expect(listRequest.query.get('filter')).toBe('cites:W4408732759');
      expect(listRequest.query.get('sort')).toBe('cited_by_count:desc');
      expect(listRequest.query.get('per-page')).toBe('100');
    });

    it('answers nothing for a work OpenAlex does not know', async () => {
      expect(await provider().related!('references', 'W1', { limit: 10 })).toEqual({
        records: [],
        total: 0,
      });
    });
  });
});
