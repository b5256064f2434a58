import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../provider-error.js';
import {
  createTestOutbound,
  factoryOptions,
  readFixture,
  startFixtureServer,
} from '../test-support/harness.js';
import type { FixtureServer } from '../test-support/harness.js';
import { createCrossrefProvider, crossrefWorkToRecord } from './crossref.js';

const CHEMISTRY_QUERY = 'Augmenting large language models with chemistry tools';

describe('crossref provider', () => {
  let server: FixtureServer;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      {
        path: '/works',
        query: { query: CHEMISTRY_QUERY },
        fixture: 'crossref/works_query.title-augmenting-llm-chemistry-tools_rows1.json',
      },
      {
        path: '/works',
        query: { query: 'ecology boettiger' },
        fixture: 'crossref/works_query-ecology_query.author-carl-boettiger.json',
      },
      {
        path: '/works',
        query: { query: 'ecology' },
        fixture: 'crossref/works_query-ecology_select-DOI-title.json',
      },
      {
        path: '/works',
        query: { query: 'abs12032jsdafn' },
        fixture: 'crossref/works_query.title_no_results.json',
      },
      {
        path: '/works',
        query: { query: 'widget' },
        status: 400,
        fixture: 'crossref/error_400_validation-failure_field-query-on-doi-route.json',
      },
      {
        path: '/works/10.1371/journal.pone.0033693',
        fixture: 'crossref/work_doi_10.1371_journal.pone.0033693.json',
      },
      {
        path: '/works/10.1371/notarealdoi',
        status: 404,
        fixture: 'crossref/error_404_works_notarealdoi.txt',
      },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  const provider = (contactEmail?: string) =>
    createCrossrefProvider(
      factoryOptions(server.url, outbound, contactEmail ? { contactEmail } : {}),
    );

  it('reads a work: list title, given+family authors, JATS abstract as text, date-parts, citations, PDF link', async () => {
    const answer = await provider('ops@example.org').search(CHEMISTRY_QUERY, { limit: 1 });
    expect(answer.total).toBe(2531297);
    expect(answer.records).toHaveLength(1);
    const [record] = answer.records;
    expect(record).toMatchObject({
      id: 'crossref:10.1038/s42256-024-00832-8',
      provider: 'crossref',
      title: 'Augmenting large language models with chemistry tools',
      authors: [
        'Andres M. Bran',
        'Sam Cox',
        'Oliver Schilter',
        'Carlo Baldassari',
        'Andrew D. White',
        'Philippe Schwaller',
      ],
      publishedDate: '2024-05-08',
      citations: 232,
      citationsKnown: true,
      doi: '10.1038/s42256-024-00832-8',
      url: 'https://doi.org/10.1038/s42256-024-00832-8',
      pdfUrl: 'https://www.nature.com/articles/s42256-024-00832-8.pdf',
      venue: 'Nature Machine Intelligence',
    });
    // The JATS "Abstract" heading is dropped; the paragraph is plain text.
    expect(
      record?.abstract.startsWith(
        'Large language models (LLMs) have shown strong performance in tasks across domains',
      ),
    ).toBe(true);
    expect(record?.abstract).toContain('demonstrates ChemCrow’s effectiveness');
    expect(record?.abstract).not.toContain('jats');
  });

  it('sends the polite-pool mailto, rows and a field selection', async () => {
    await provider('ops@example.org').search(CHEMISTRY_QUERY, { limit: 1 });
    const request = server
      .requestsTo('/works')
      .find((r) => r.query.get('query') === CHEMISTRY_QUERY);
    expect(request?.query.get('mailto')).toBe('ops@example.org');
    expect(request?.query.get('rows')).toBe('1');
    expect(request?.query.get('select')).toContain('abstract');
    expect(request?.headers['user-agent']).toContain('mailto:ops@example.org');
  });

  it('turns sectioned and listed JATS into labelled lines, and strips markup from titles', async () => {
    const answer = await provider().search('ecology boettiger', { limit: 20 });
    expect(answer.total).toBe(1253);
    expect(answer.records).toHaveLength(20);
    const byDoi = new Map(answer.records.map((record) => [record.doi, record]));

    const sections = byDoi.get('10.1111/geb.13950')?.abstract.split('\n') ?? [];
    expect(sections.map((line) => line.split(':')[0])).toEqual([
      'Aim',
      'Location',
      'Time Period',
      'Major Taxa Studied',
      'Methods',
      'Results',
      'Main Conclusions',
    ]);
    expect(sections[1]).toBe('Location: Global, with a North American focus.');
    expect(sections[4]).toContain('maximum spatial extent of 95 km2.');

    const listed = byDoi.get('10.1111/2041-210x.14013')?.abstract.split('\n') ?? [];
    expect(listed).toHaveLength(4);
    expect(listed[0]?.startsWith('In the current age of a rapidly changing environment')).toBe(
      true,
    );
    expect(listed[3]).toBe(
      'Our results establish that deep learning methods warrant further exploration on the challenging class of critical transition forecasting problems.',
    );

    expect(byDoi.get('10.1111/j.2041-210x.2012.00247.x')?.title).toBe(
      'Treebase: anRpackage for discovery, access and manipulation of online phylogenies',
    );
    expect(byDoi.get('10.1002/fee.70021')?.title).toBe(
      'The role of AI in ecology’s computational carbon footprint',
    );
    expect(byDoi.get('10.1111/2041-210x.14070')).toMatchObject({
      publishedDate: '2023-03',
      citations: 3,
      pdfUrl: 'https://onlinelibrary.wiley.com/doi/pdf/10.1111/2041-210X.14070',
    });
    // A work Crossref holds no abstract for gets an empty one.
    expect(byDoi.get('10.1007/s12080-020-00477-4')?.abstract).toBe('');
  });

  it('reads a reply with escaped slashes and only DOI and title selected', async () => {
    const answer = await provider().search('ecology', { limit: 20 });
    expect(answer.records).toHaveLength(20);
    expect(answer.records[0]).toMatchObject({
      id: 'crossref:10.1093/obo/9780199830060-0238',
      title: 'Communicating Ecology',
      authors: [],
      abstract: '',
      publishedDate: null,
      year: null,
      citations: 0,
      citationsKnown: false,
    });
  });

  it('answers an empty list for no results', async () => {
    expect(await provider().search('abs12032jsdafn', { limit: 1 })).toEqual({
      records: [],
      total: 0,
    });
  });

  it('reports a JSON validation failure with its message', async () => {
    const failure = await provider()
      .search('widget', { limit: 5 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ kind: 'upstream', status: 400 });
    expect((failure as Error).message).toContain(
      'This route does not support field query parameters',
    );
  });

  it('looks up /works/{doi}', async () => {
    const record = await provider().lookup('10.1371/journal.pone.0033693');
    expect(server.requestsTo('/works/10.1371/journal.pone.0033693')).toHaveLength(1);
    expect(record).toMatchObject({
      id: 'crossref:10.1371/journal.pone.0033693',
      title:
        'Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia in the Basal Ganglia of Mice',
      publishedDate: '2012-03-21',
      citations: 72,
      venue: 'PLoS ONE',
    });
    expect(record?.authors.slice(0, 3)).toEqual([
      'Shankar Sadasivan',
      'Brooks B. Pond',
      'Amar K. Pani',
    ]);
    // Its only link has content-type "unspecified": not a PDF.
    expect(record?.pdfUrl).toBeUndefined();
  });

  it('looks up the whole record: names by role, CSL type, journal, volume, issue, pages, ISSN', async () => {
    const record = await provider().lookup('10.1371/journal.pone.0033693');
    expect(record?.details).toEqual({
      creators: [
        { role: 'author', family: 'Sadasivan', given: 'Shankar' },
        { role: 'author', family: 'Pond', given: 'Brooks B.' },
        { role: 'author', family: 'Pani', given: 'Amar K.' },
        { role: 'author', family: 'Qu', given: 'Chunxu' },
        { role: 'author', family: 'Jiao', given: 'Yun' },
        { role: 'author', family: 'Smeyne', given: 'Richard J.' },
        { role: 'editor', family: 'Borlongan', given: 'Cesario V.' },
      ],
      type: 'article-journal',
      containerTitle: 'PLoS ONE',
      volume: '7',
      issue: '3',
      pages: 'e33693',
      publisher: 'Public Library of Science (PLoS)',
      issn: '1932-6203',
      language: 'en',
    });
  });

  it('asks for the record fields and reads them from search results', async () => {
    const answer = await provider().search('ecology boettiger', { limit: 20 });
    const request = server
      .requestsTo('/works')
      .find((r) => r.query.get('query') === 'ecology boettiger');
    expect(request?.query.get('select')?.split(',')).toEqual(
      expect.arrayContaining(['editor', 'volume', 'issue', 'page', 'publisher', 'ISSN', 'ISBN']),
    );
    const byDoi = new Map(answer.records.map((record) => [record.doi, record.details]));
    expect(byDoi.get('10.1111/ele.14024')).toEqual({
      creators: [
        { role: 'author', family: 'Boettiger', given: 'Carl' },
        { role: 'editor', family: 'Munch', given: 'Stephan' },
      ],
      type: 'article-journal',
      containerTitle: 'Ecology Letters',
      volume: '25',
      issue: '7',
      pages: '1655-1664',
      publisher: 'Wiley',
      issn: '1461-023X, 1461-0248',
      language: 'en',
    });
    // posted-content (bioRxiv): a preprint, its server the publisher, no container.
    expect(byDoi.get('10.1101/055319')).toEqual({
      creators: [
        { role: 'author', family: 'Memarzadeh', given: 'Milad' },
        { role: 'author', family: 'Boettiger', given: 'Carl' },
      ],
      type: 'preprint',
      publisher: 'openRxiv',
    });
    // "Big Data &amp; Society": the container's entity decoded; the same ISSN twice kept once.
    expect(byDoi.get('10.1177/2053951719836258')).toMatchObject({
      containerTitle: 'Big Data & Society',
      issn: '2053-9517',
    });
    expect(byDoi.get('10.32614/cran.package.rfishbase')).toMatchObject({
      type: 'dataset',
      containerTitle: 'CRAN: Contributed Packages',
      publisher: 'The R Foundation',
    });
  });

  it('reads a reference entry with its book ISBN', async () => {
    const answer = await provider().search('ecology', { limit: 20 });
    // This recorded reply selected DOI and title only: nothing else to read.
    expect(answer.records[0]?.details).toBeUndefined();
    const body = JSON.parse(readFixture('crossref/works_query-ecology_rows2.json')) as {
      message: { items: Array<Record<string, unknown>> };
    };
    expect(crossrefWorkToRecord(body.message.items[1]!)?.details).toEqual({
      creators: [{ role: 'author', family: 'Kessler', given: 'André' }],
      type: 'entry',
      containerTitle: 'Ecology',
      publisher: 'Oxford University Press',
      isbn: '9780199830060',
      language: 'en',
    });
  });

  it('keeps an organisation whole and a suffix apart, and writes out abbreviated ranges', () => {
    const body = JSON.parse(readFixture('crossref/work_doi_10.1371_journal.pone.0033693.json')) as {
      message: Record<string, unknown>;
    };
    const work = {
      ...body.message,
      author: [
        { given: 'Martin Luther', family: 'King', suffix: 'Jr.', sequence: 'first' },
        { name: 'Beijing Zoo', sequence: 'additional' },
      ],
      editor: [],
      page: '1116-22',
    };
    expect(crossrefWorkToRecord(work)?.details).toMatchObject({
      creators: [
        { role: 'author', family: 'King', given: 'Martin Luther', suffix: 'Jr.' },
        { role: 'author', literal: 'Beijing Zoo' },
      ],
      pages: '1116-1122',
    });
  });

  it('answers null for an unknown DOI (plain-text 404 "Resource not found.")', async () => {
    expect(await provider().lookup('10.1371/notarealdoi')).toBeNull();
  });
});
