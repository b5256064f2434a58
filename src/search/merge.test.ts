import { describe, expect, it } from 'vitest';
import { createRecordMerger, mergeRecords } from './merge.js';
import { crossrefWorkToRecord } from './providers/crossref.js';
import { openalexWorkToRecord } from './providers/openalex.js';
import { semanticScholarPaperToRecord } from './providers/semanticscholar.js';
import { readFixture } from './test-support/harness.js';
import type { ProviderId, SearchRecord } from './types.js';

function record(
  provider: ProviderId,
  nativeId: string,
  fields: Partial<SearchRecord> = {},
): SearchRecord {
  return {
    id: `${provider}:${nativeId}`,
    provider,
    nativeId,
    title: 'A title long enough to identify a work',
    authors: [],
    abstract: '',
    url: `https://example.org/${provider}/${nativeId}`,
    publishedDate: '2020-01-01',
    year: 2020,
    citations: 0,
    citationsKnown: false,
    score: 0,
    sources: [provider],
    ...fields,
  };
}

describe('mergeRecords', () => {
  it('merges on DOI regardless of case', () => {
    const merged = mergeRecords([
      record('crossref', '10.1000/ABC', { doi: '10.1000/abc', title: 'One' }),
      record('openalex', 'W1', { doi: '10.1000/ABC', title: 'Two' }),
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.sources).toEqual(['crossref', 'openalex']);
  });

  it('merges arXiv ids across versions (ids are compared without version)', () => {
    const merged = mergeRecords([
      record('arxiv', '2101.00001v2', { arxivId: '2101.00001', title: 'Preprint' }),
      record('semanticscholar', 'abc', {
        arxivId: '2101.00001',
        title: 'Different wording of the title',
      }),
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({
      id: 'arxiv:2101.00001v2',
      sources: ['arxiv', 'semanticscholar'],
    });
  });

  it('merges on PMID', () => {
    const merged = mergeRecords([
      record('pubmed', '31452104', { pmid: '31452104', title: 'X' }),
      record('openalex', 'W9', { pmid: '31452104', title: 'Y' }),
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.id).toBe('pubmed:31452104');
  });

  it('merges the same normalised title in the same year, not in different years', () => {
    const sameYear = mergeRecords([
      record('zenodo', '1', {
        title: 'Deep Learning for Coral Reef Monitoring',
        year: 2021,
        publishedDate: '2021',
      }),
      record('arxiv', '2105.00001v1', {
        title: 'Deep learning for coral-reef monitoring.',
        year: 2021,
        publishedDate: '2021-05-01',
      }),
    ]);
    expect(sameYear).toHaveLength(1);
    expect(sameYear[0]?.id).toBe('arxiv:2105.00001v1');

    const otherYear = mergeRecords([
      record('zenodo', '1', { title: 'Deep Learning for Coral Reef Monitoring', year: 2021 }),
      record('arxiv', '2205.00001v1', {
        title: 'Deep Learning for Coral Reef Monitoring',
        year: 2022,
      }),
    ]);
    expect(otherYear).toHaveLength(2);
  });

  it('does not merge on short generic titles', () => {
    const merged = mergeRecords([
      record('crossref', '10.1/a', { doi: '10.1/a', title: 'Editorial' }),
      record('openalex', 'W2', { title: 'Editorial' }),
    ]);
    expect(merged).toHaveLength(2);
  });

  it('keeps apart recorded Crossref works that only resemble each other (a preprint a year before its article)', () => {
    const body = JSON.parse(
      readFixture('crossref/works_query-ecology_query.author-carl-boettiger.json'),
    ) as {
      message: { items: Array<Record<string, unknown>> };
    };
    const records = body.message.items
      .map(crossrefWorkToRecord)
      .filter((item): item is SearchRecord => !!item);
    expect(records).toHaveLength(20);
    const gamesTitles = records.filter((item) => item.title.startsWith('After the games are over'));
    expect(gamesTitles.map((item) => [item.doi, item.year])).toEqual([
      ['10.1002/ece3.2314', 2016],
      ['10.1101/014852', 2015],
    ]);
    expect(mergeRecords(records)).toHaveLength(20);
  });

  it('merges the same when each answer was prepared as it arrived', () => {
    const body = JSON.parse(
      readFixture('crossref/works_query-ecology_query.author-carl-boettiger.json'),
    ) as {
      message: { items: Array<Record<string, unknown>> };
    };
    const crossref = body.message.items
      .map(crossrefWorkToRecord)
      .filter((item): item is SearchRecord => !!item);
    const others = crossref.map((item, index) =>
      record('openalex', `W${index}`, { title: item.title, year: item.year, doi: undefined }),
    );
    const merger = createRecordMerger();
    merger.prepare(crossref);
    expect(merger.merge([...crossref, ...others])).toEqual(mergeRecords([...crossref, ...others]));
  });

  it('joins records transitively (an id linking two others joins all three)', () => {
    const merged = mergeRecords([
      record('crossref', '10.1/j', { doi: '10.1/j', title: 'Journal version of the paper' }),
      record('openalex', 'W5', {
        doi: '10.48550/arxiv.2304.05376',
        arxivId: '2304.05376',
        title: 'Preprint version',
      }),
      record('semanticscholar', 's2', {
        doi: '10.1/j',
        arxivId: '2304.05376',
        title: 'Journal version of the paper',
      }),
    ]);
    expect(merged).toHaveLength(1);
    // The journal DOI wins over the arXiv DataCite DOI.
    expect(merged[0]).toMatchObject({
      doi: '10.1/j',
      arxivId: '2304.05376',
      sources: ['crossref', 'openalex', 'semanticscholar'],
    });
  });

  it('keeps the richest fields: longest abstract, most authors, highest known citations, a refined date', () => {
    const [merged] = mergeRecords([
      record('openalex', 'W1', {
        doi: '10.1/x',
        abstract: 'Short.',
        authors: ['A', 'B', 'C'],
        citations: 40,
        citationsKnown: true,
        publishedDate: '2019-03-02',
        pdfUrl: 'https://oa.example/x.pdf',
        ranks: { openalex: 3 },
      }),
      record('pubmed', '123', {
        doi: '10.1/X',
        pmid: '123',
        title: 'The PubMed title',
        abstract: 'A much longer abstract with more words in it.',
        authors: ['A'],
        publishedDate: '2019',
        url: 'https://pubmed.ncbi.nlm.nih.gov/123/',
        ranks: { pubmed: 1 },
      }),
      record('semanticscholar', 's', {
        doi: '10.1/x',
        citations: 55,
        citationsKnown: true,
        ranks: { semanticscholar: 7 },
      }),
    ]);
    expect(merged).toMatchObject({
      // PubMed ranks before OpenAlex and Semantic Scholar for the shown id, title and link.
      id: 'pubmed:123',
      provider: 'pubmed',
      title: 'The PubMed title',
      url: 'https://pubmed.ncbi.nlm.nih.gov/123/',
      abstract: 'A much longer abstract with more words in it.',
      authors: ['A', 'B', 'C'],
      citations: 55,
      citationsKnown: true,
      // PubMed's "2019" refined by the agreeing full date.
      publishedDate: '2019-03-02',
      year: 2019,
      pmid: '123',
      pdfUrl: 'https://oa.example/x.pdf',
      sources: ['pubmed', 'openalex', 'semanticscholar'],
      ranks: { pubmed: 1, openalex: 3, semanticscholar: 7 },
    });
  });

  it('leaves unknown citations unknown when no source has a count', () => {
    const [merged] = mergeRecords([
      record('arxiv', '1v1', { arxivId: '1' }),
      record('pubmed', '2', { arxivId: '1' }),
    ]);
    expect(merged).toMatchObject({ citations: 0, citationsKnown: false });
  });

  it('keeps the order of first appearance', () => {
    const merged = mergeRecords([
      record('zenodo', '1', { title: 'First distinct record title' }),
      record('crossref', '10.1/b', { doi: '10.1/b', title: 'Second distinct record title' }),
      record('openalex', 'W3', { doi: '10.1/b', title: 'Second distinct record title' }),
      record('arxiv', '3v1', { title: 'Third distinct record title' }),
    ]);
    expect(merged.map((item) => item.id)).toEqual(['zenodo:1', 'crossref:10.1/b', 'arxiv:3v1']);
  });

  describe('bibliographic details', () => {
    /** The recorded answers of three providers for "Augmenting large language models with chemistry tools". */
    function chemistryRecords(): SearchRecord[] {
      const crossref = JSON.parse(
        readFixture('crossref/works_query.title-augmenting-llm-chemistry-tools_rows1.json'),
      ) as { message: { items: Array<Record<string, unknown>> } };
      const openalex = JSON.parse(
        readFixture('openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json'),
      ) as { results: Array<Record<string, unknown>> };
      const semanticScholar = JSON.parse(
        readFixture('semanticscholar/paper_search_match_augmenting-llm-chemistry-tools.json'),
      ) as { data: Array<Record<string, unknown>> };
      return [
        ...semanticScholar.data.map(semanticScholarPaperToRecord),
        ...openalex.results.map(openalexWorkToRecord),
        ...crossref.message.items.map(crossrefWorkToRecord),
      ].filter((found): found is SearchRecord => !!found);
    }

    it("takes Crossref's names and the journal's venue, not the preprint's repository", () => {
      const merged = mergeRecords(chemistryRecords());
      expect(merged).toHaveLength(1);
      expect(merged[0]?.sources).toEqual(['crossref', 'openalex', 'semanticscholar']);
      expect(merged[0]?.details).toEqual({
        // Crossref's given/family as it has them (its first is given "Andres", family "M. Bran");
        // Semantic Scholar has strings ("Andrés M Bran", "P. Schwaller").
        creators: [
          { role: 'author', family: 'M. Bran', given: 'Andres' },
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
        publisher: 'Springer Science and Business Media LLC',
        issn: '2522-5839',
        language: 'en',
      });
    });

    it('lets a published version found by an aggregator speak over a preprint shown first', () => {
      const [semanticScholar, , preprint] = chemistryRecords();
      // OpenAlex's preprint record (arXiv, priority over Semantic Scholar) and Semantic Scholar's journal record.
      const merged = mergeRecords([preprint!, semanticScholar!]);
      expect(merged).toHaveLength(1);
      expect(merged[0]?.provider).toBe('openalex');
      expect(merged[0]?.details).toMatchObject({
        type: 'article-journal',
        containerTitle: 'Nature Machine Intelligence',
        volume: '6',
        pages: '525-535',
        language: 'en',
      });
      // arXiv published the preprint, not the article.
      expect(merged[0]?.details?.publisher).toBeUndefined();
      // No provider with names in parts: the longest list read from strings (OpenAlex's has 4 of 6).
      expect(merged[0]?.details?.creators).toHaveLength(6);
    });
  });
});
