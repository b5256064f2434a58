import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../provider-error.js';
import { createTestOutbound, factoryOptions, startFixtureServer } from '../test-support/harness.js';
import type { FixtureServer } from '../test-support/harness.js';
import { createSemanticScholarProvider } from './semanticscholar.js';

describe('semanticscholar provider', () => {
  let server: FixtureServer;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      {
        path: '/paper/search',
        query: { query: 'turing' },
        fixture: 'semanticscholar/paper_search_turing_all-fields_limit100.json',
      },
      {
        path: '/paper/search',
        query: { query: 'n0 r3sult s3arch t3rm' },
        fixture: 'semanticscholar/paper_search_no_results.json',
      },
      {
        path: '/paper/search',
        query: { query: 'chemistry tools' },
        fixture: 'semanticscholar/paper_search_match_augmenting-llm-chemistry-tools.json',
      },
      {
        path: '/paper/search',
        query: { query: 'busy' },
        status: 429,
        fixture: 'semanticscholar/error_429_too_many_requests.json',
      },
      {
        path: '/paper/search',
        query: { query: 'bad fields' },
        status: 400,
        fixture: 'semanticscholar/error_400_unrecognized_fields.json',
      },
      { path: '/paper/0', status: 404, fixture: 'semanticscholar/error_404_paper_not_found.json' },
      {
        path: '/paper/forbidden',
        status: 403,
        fixture: 'semanticscholar/error_403_forbidden_batch.json',
      },
      // Related works, with the base address as configured in production (`…/graph/v1`).
      {
        path: '/graph/v1/paper/10.2139/ssrn.2250500/references',
        fixture:
          'semanticscholar/paper_references_doi-10.2139_ssrn.2250500_fields-title_offset0_limit50.json',
      },
      {
        path: '/graph/v1/paper/CorpusID:14514057/citations',
        fixture:
          'semanticscholar/paper_citations_corpusid-14514057_fields-title_offset0_limit100.json',
      },
      {
        path: '/recommendations/v1/papers/forpaper/10.2139/ssrn.2250500',
        fixture:
          'semanticscholar/recommendations_forpaper_doi-10.2139_ssrn.2250500_fields-title_limit100.json',
      },
      {
        path: '/graph/v1/paper/busy/citations',
        status: 429,
        fixture: 'semanticscholar/error_429_too_many_requests.json',
      },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  const provider = (apiKey?: string) =>
    createSemanticScholarProvider(factoryOptions(server.url, outbound, apiKey ? { apiKey } : {}));

  it('reads a paper search: external ids, nullable abstracts and PDFs, citation counts', async () => {
    const answer = await provider().search('turing', { limit: 100 });
    expect(answer.total).toBe(67113);
    expect(answer.records).toHaveLength(100);
    const [first, second, third, fourth] = answer.records;
    expect(first).toMatchObject({
      id: 'semanticscholar:7cbc2a7843411a1768ab762930707af0a3c33a19',
      provider: 'semanticscholar',
      title:
        'Using DeepSpeed and Megatron to Train Megatron-Turing NLG 530B, A Large-Scale Generative Language Model',
      arxivId: '2201.11990',
      publishedDate: '2022-01-28',
      citations: 476,
      citationsKnown: true,
      url: 'https://www.semanticscholar.org/paper/7cbc2a7843411a1768ab762930707af0a3c33a19',
    });
    expect(first?.authors.slice(0, 3)).toEqual(['Shaden Smith', 'M. Patwary', 'Brandon Norick']);
    expect(first?.pdfUrl).toBeUndefined();
    expect(second).toMatchObject({
      title: 'Quantum theory, the Church–Turing principle and the universal quantum computer',
      doi: '10.1098/rspa.1985.0070',
      publishedDate: '1985-07-08',
      citations: 4236,
      authors: ['D. Deutsch'],
      pdfUrl: 'http://www.cs.berkeley.edu/~christos/classics/Deutsch_quantum_theory.pdf',
    });
    expect(third).toMatchObject({ title: 'Neural Turing Machines', arxivId: '1410.5401' });
    expect(fourth).toMatchObject({ title: 'The Church-Turing Thesis', abstract: '' });
    // Papers without a publicationDate fall back to their year.
    const attention = answer.records.find(
      (record) => record.title === 'Attention is Turing-Complete',
    );
    expect(attention?.publishedDate).toBe('2021');
  });

  it('reads the bibliographic details: journal, volume, pages, names, CSL type', async () => {
    const answer = await provider().search('turing', { limit: 100 });
    const byId = new Map(answer.records.map((record) => [record.nativeId, record.details]));
    // journal { name: "ArXiv", volume: "abs/2201.11990" }, venue "arXiv.org": a preprint, no container.
    expect(byId.get('7cbc2a7843411a1768ab762930707af0a3c33a19')).toMatchObject({
      type: 'preprint',
      creators: expect.arrayContaining([
        { role: 'author', family: 'Smith', given: 'Shaden' },
        { role: 'author', family: 'Patwary', given: 'M.' },
      ]),
    });
    const megatron = byId.get('7cbc2a7843411a1768ab762930707af0a3c33a19');
    expect(megatron?.containerTitle).toBeUndefined();
    expect(megatron?.volume).toBeUndefined();
    // Deutsch 1985: pages "117 - 97" run backwards in the reply.
    expect(byId.get('6b0f06617d9f5256a80ed62d9398acb92a55a6bd')).toEqual({
      creators: [{ role: 'author', family: 'Deutsch', given: 'D.' }],
      containerTitle:
        'Proceedings of the Royal Society of London. A. Mathematical and Physical Sciences',
      volume: '400',
      pages: '97-117',
    });
    // JMLR: pages "75:1-75:35", publicationVenue issn 1532-4435 and alternate_issns [1533-7928].
    expect(byId.get('c4cb90a67f45e7cbacb5286e934b309e89843922')).toMatchObject({
      type: 'article-journal',
      containerTitle: 'J. Mach. Learn. Res.',
      volume: '22',
      pages: '75:1-75:35',
      issn: '1532-4435, 1533-7928',
    });
    // Physical Review Letters: volume "121 10" (volume and issue), pages padded with newlines.
    expect(byId.get('64f47687daaa84ac1fdb1bc2f85c065007163f06')).toMatchObject({
      containerTitle: 'Physical review letters',
      volume: '121',
      issue: '10',
      pages: '108301',
    });
    // publicationTypes ["JournalArticle", "Conference"]: a conference paper.
    expect(byId.get('339c6e6d46836c173fb6a23b493c724896d4cc70')).toMatchObject({
      type: 'paper-conference',
      containerTitle: 'Annual Meeting of the Association for Computational Linguistics',
      pages: '1116-1126',
    });
  });

  it('sends the fields it reads and the API key header when configured', async () => {
    await provider('s2-test-key').search('turing', { limit: 100 });
    const request = server
      .requestsTo('/paper/search')
      .filter((r) => r.query.get('query') === 'turing')
      .at(-1);
    expect(request?.headers['x-api-key']).toBe('s2-test-key');
    expect(request?.query.get('limit')).toBe('100');
    expect(request?.query.get('fields')?.split(',')).toEqual(
      expect.arrayContaining([
        'title',
        'abstract',
        'authors',
        'externalIds',
        'citationCount',
        'openAccessPdf',
        'journal',
        'publicationVenue',
      ]),
    );
  });

  it('reads a zero-hit reply that has no data key', async () => {
    expect(await provider().search('n0 r3sult s3arch t3rm', { limit: 10 })).toEqual({
      records: [],
      total: 0,
    });
  });

  it('replaces hyphens with spaces, as the Graph API asks', async () => {
    await provider().search('n0-r3sult s3arch-t3rm', { limit: 10 });
    expect(server.requestsTo('/paper/search').at(-1)?.query.get('query')).toBe(
      'n0 r3sult s3arch t3rm',
    );
  });

  it('reads a reply without total (the /match shape), with DOI, arXiv and PubMed ids', async () => {
    const answer = await provider().search('chemistry tools', { limit: 10 });
    expect(answer.total).toBeUndefined();
    expect(answer.records[0]).toMatchObject({
      id: 'semanticscholar:354dcdebf3f8b5feeed5c62090e0bc1f0c28db06',
      title: 'Augmenting large language models with chemistry tools',
      doi: '10.1038/s42256-024-00832-8',
      arxivId: '2304.05376',
      pmid: '38799228',
      citations: 488,
      publishedDate: '2023-04-11',
      venue: 'Nat. Mac. Intell.',
    });
    expect(answer.records[0]?.authors[0]).toBe('Andrés M Bran');
  });

  it('maps 429 to rate_limited, keeping the API message', async () => {
    const failure = await provider()
      .search('busy', { limit: 10 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ kind: 'rate_limited', status: 429 });
    expect((failure as Error).message).toContain('Too Many Requests. Please wait and try again');
  });

  it('maps 400 and 403 to upstream errors with their messages', async () => {
    const badFields = await provider()
      .search('bad fields', { limit: 10 })
      .catch((error: unknown) => error);
    expect(badFields).toMatchObject({ kind: 'upstream', status: 400 });
    expect((badFields as Error).message).toContain('Unrecognized or unsupported fields: [unknown]');
    const forbidden = await provider()
      .lookup('forbidden')
      .catch((error: unknown) => error);
    expect(forbidden).toMatchObject({ kind: 'upstream', status: 403 });
    expect((forbidden as Error).message).toContain('Forbidden');
  });

  it('answers null for an unknown paper (404)', async () => {
    expect(await provider().lookup('0')).toBeNull();
  });

  describe('related works', () => {
    const graph = () =>
      createSemanticScholarProvider(factoryOptions(`${server.url}/graph/v1`, outbound));

    it('reads references (`citedPaper`), leaving out those the graph could not match (`paperId: null`)', async () => {
      const answer = await graph().related!('references', '10.2139/ssrn.2250500', { limit: 50 });
      expect(answer.records).toHaveLength(40);
      expect(answer.records[0]).toMatchObject({
        id: 'semanticscholar:e945ca4fdcf45b1a118f1462db7afa12629a131f',
        title:
          'Group lending or individual lending? Evidence from a randomised field experiment in Mongolia',
        url: 'https://www.semanticscholar.org/paper/e945ca4fdcf45b1a118f1462db7afa12629a131f',
      });
      const asked = server.requestsTo('/graph/v1/paper/10.2139/ssrn.2250500/references')[0]!.query;
      expect([asked.get('limit'), asked.get('offset')]).toEqual(['50', '0']);
      expect(asked.get('fields')).toContain('externalIds');
    });

    it('reads citations (`citingPaper`), at most 100 asked', async () => {
      const answer = await graph().related!('citations', 'CorpusID:14514057', { limit: 500 });
      expect(answer.records).toHaveLength(100);
      expect(answer.records[0]?.title).toBe(
        'We’ve got you covered! The effect of public health insurance on rural entrepreneurship in China',
      );
      expect(
        server.requestsTo('/graph/v1/paper/CorpusID:14514057/citations')[0]!.query.get('limit'),
      ).toBe('100');
    });

    it('asks the Recommendations API beside the Graph API for similar papers', async () => {
      const answer = await graph().related!('similar', '10.2139/ssrn.2250500', { limit: 100 });
      expect(answer.records).toHaveLength(100);
      expect(answer.records[0]?.id).toBe(
        'semanticscholar:3e9bc879e8ba944d3e830e4b8565dfe6f2ec4bd8',
      );
    });

    it('fails a refused call as rate_limited', async () => {
      await expect(graph().related!('citations', 'busy', { limit: 10 })).rejects.toMatchObject({
        kind: 'rate_limited',
      });
    });
  });
});
