import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../provider-error.js';
import {
  createTestOutbound,
  factoryOptions,
  readFixture,
  startFixtureServer,
} from '../test-support/harness.js';
import type { FixtureServer } from '../test-support/harness.js';
import { createPubmedProvider, parseEfetch, parseEsearch } from './pubmed.js';

/** The 20 ids of esearch_term-biopython.xml, in its order. */
const BIOPYTHON_IDS =
  '41282813,41148224,41011574,40959146,40937394,40657423,40651330,40572159,40160861,39883659,' +
  '39882099,39717221,39546778,39507944,39445816,38808697,38650605,38365590,38235175,37810457';

describe('pubmed provider', () => {
  let server: FixtureServer;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      {
        path: '/esearch.fcgi',
        query: { term: 'biopython' },
        fixture: 'pubmed/esearch_term-biopython.xml',
      },
      {
        path: '/efetch.fcgi',
        query: { id: BIOPYTHON_IDS },
        fixture: 'pubmed/efetch_pubmed_two_articles_abstracts.xml',
      },
      {
        path: '/esearch.fcgi',
        query: { term: 'abcXYZ' },
        fixture: 'pubmed/esearch_no_results_PhraseNotFound.xml',
      },
      {
        path: '/efetch.fcgi',
        query: { id: '27797938' },
        fixture: 'pubmed/efetch_pubmed_structured_abstract_labels.xml',
      },
      {
        path: '/efetch.fcgi',
        query: { id: '28775130' },
        fixture: 'pubmed/efetch_pubmed_structured_abstract_nlmcategory.xml',
      },
      {
        path: '/efetch.fcgi',
        query: { id: '29735362' },
        fixture: 'pubmed/efetch_pubmed_two_articles_structured_publisher-status.xml',
      },
      {
        path: '/efetch.fcgi',
        query: { id: '11850928' },
        fixture: 'pubmed/esummary_error_no_id.xml',
      },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  const provider = () =>
    createPubmedProvider(factoryOptions(server.url, outbound, { contactEmail: 'ops@example.org' }));

  it('searches with esearch, then fetches every returned id with efetch', async () => {
    const answer = await provider().search('biopython', { limit: 20 });
    expect(answer.total).toBe(63);
    const esearch = server
      .requestsTo('/esearch.fcgi')
      .find((r) => r.query.get('term') === 'biopython');
    expect(esearch?.query.get('db')).toBe('pubmed');
    expect(esearch?.query.get('retmax')).toBe('20');
    expect(esearch?.query.get('sort')).toBe('relevance');
    expect(esearch?.query.get('email')).toBe('ops@example.org');
    expect(esearch?.query.get('tool')).toBe('research-workspace');
    const efetch = server
      .requestsTo('/efetch.fcgi')
      .find((r) => r.query.get('id') === BIOPYTHON_IDS);
    expect(efetch?.query.get('retmode')).toBe('xml');

    expect(answer.records.map((record) => record.id)).toEqual([
      'pubmed:11748933',
      'pubmed:11700088',
    ]);
    const [first, second] = answer.records;
    expect(first).toMatchObject({
      title:
        'Is cryopreservation a homogeneous process? Ultrastructure and motility ' +
        'of untreated, prefreezing, and postthawed spermatozoa of Diplodus ' +
        'puntazzo (Cetti).',
      publishedDate: '2001-06',
      year: 2001,
      doi: '10.1006/cryo.2001.2328',
      pmid: '11748933',
      url: 'https://pubmed.ncbi.nlm.nih.gov/11748933/',
      venue: 'Cryobiology',
      citationsKnown: false,
    });
    expect(first?.authors).toEqual([
      'A R Taddei',
      'F Barbato',
      'L Abelli',
      'S Canese',
      'F Moretti',
      'K J Rana',
      'A M Fausto',
      'M Mazzini',
    ]);
    expect(first?.abstract).toContain('compared with 24% in the fresh sample (P < 0.001).');
    expect(second).toMatchObject({
      title: 'Proton MRI of (13)C distribution by J and chemical shift editing.',
      publishedDate: '2001-11',
    });
    expect(second?.authors.at(-1)).toBe('F De Luca');
  });

  it('treats PhraseNotFound (HTTP 200, count 0) as no results and skips efetch', async () => {
    const before = server.requestsTo('/efetch.fcgi').length;
    const answer = await provider().search('abcXYZ', { limit: 20 });
    expect(answer).toEqual({ records: [], total: 0 });
    expect(server.requestsTo('/efetch.fcgi').length).toBe(before);
  });

  it('keeps structured abstract labels, drops inline markup, and takes the earlier electronic date', async () => {
    const record = await provider().lookup('27797938');
    expect(record).toMatchObject({
      id: 'pubmed:27797938',
      title:
        'Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer.',
      doi: '10.1136/gutjnl-2016-312510',
      // PubDate is 2017 Jun (the issue); ArticleDate 2016-10-21 (online first).
      publishedDate: '2016-10-21',
      venue: 'Gut',
    });
    expect(record?.authors.slice(0, 2)).toEqual(['Ying Bao', 'Jennifer Prescott']);
    const lines = record?.abstract.split('\n') ?? [];
    expect(lines.map((line) => line.split(':')[0])).toEqual([
      'OBJECTIVE',
      'DESIGN',
      'RESULTS',
      'CONCLUSIONS',
    ]);
    expect(lines[0]).toBe(
      'OBJECTIVE: Telomere shortening occurs as an early event in pancreatic ' +
        'tumorigenesis, and genetic variants at the telomerase reverse ' +
        'transcriptase (TERT) gene region have been associated with pancreatic ' +
        'cancer risk. However, it is unknown whether prediagnostic leucocyte ' +
        'telomere length is associated with subsequent risk of pancreatic cancer.',
    );
    expect(lines[2]).toContain('95% CI 1.07 to 2.78; ptrend=0.048)');
    expect(lines[2]).toContain('(linkage disequilibrium r2<0.25)');
    expect(record?.abstract).not.toMatch(/<\/?(i|sub|sup)>/);
  });

  it('reads Label + NlmCategory sections with escaped entities inside inline markup', async () => {
    const record = await provider().lookup('28775130');
    expect(record?.title).toBe(
      'Occupational pesticide exposure and subclinical hypothyroidism among male pesticide applicators.',
    );
    expect(record?.publishedDate).toBe('2017-08-03');
    expect(record?.authors[0]).toBe('Catherine C Lerro');
    expect(record?.abstract.split('\n').map((line) => line.split(':')[0])).toEqual([
      'OBJECTIVES',
      'METHODS',
      'RESULTS',
      'CONCLUSIONS',
    ]);
    expect(record?.abstract).toContain(
      '(TSH >4.5 mIU/L) compared with normal TSH (0.4-<4.5 mIU/L)',
    );
    expect(record?.abstract).toContain('(ORQ3=4.15, 95% CI 1.56 to 11.01');
  });

  it('reads a two-article set (Publisher status, non-ASCII names, multi-word labels)', async () => {
    const record = await provider().lookup('29735362');
    expect(record).toMatchObject({
      title: 'MRI with gadofosveset: A potential marker for permeability in myocardial infarction.',
      publishedDate: '2018-04-25',
      doi: '10.1016/j.atherosclerosis.2018.04.024',
    });
    expect(record?.authors[0]).toBe('Begoña Lavin');
    expect(record?.authors.at(-1)).toBe('Ajay Shah');
    expect(
      record?.abstract.startsWith(
        'BACKGROUND AND AIMS: Acute ischemia is associated with myocardial endothelial damage',
      ),
    ).toBe(true);
    expect(record?.abstract).toContain('(R1 [s -1] = 6.29 ± 0.29)');
  });

  it('reads the bibliographic details: structured names, journal, volume, issue, pages, ISSN', async () => {
    const answer = await provider().search('biopython', { limit: 20 });
    const [cryobiology, magnetic] = answer.records;
    expect(cryobiology?.details).toEqual({
      creators: [
        { role: 'author', family: 'Taddei', given: 'A R' },
        { role: 'author', family: 'Barbato', given: 'F' },
        { role: 'author', family: 'Abelli', given: 'L' },
        { role: 'author', family: 'Canese', given: 'S' },
        { role: 'author', family: 'Moretti', given: 'F' },
        { role: 'author', family: 'Rana', given: 'K J' },
        { role: 'author', family: 'Fausto', given: 'A M' },
        { role: 'author', family: 'Mazzini', given: 'M' },
      ],
      type: 'article-journal',
      containerTitle: 'Cryobiology',
      volume: '42',
      issue: '4',
      // StartPage 244, EndPage 255 (MedlinePgn "244-55").
      pages: '244-255',
      issn: '0011-2240',
      language: 'en',
    });
    expect(magnetic?.details).toMatchObject({
      containerTitle: 'Journal of magnetic resonance (San Diego, Calif. : 1997)',
      pages: '117-123',
    });
    expect(magnetic?.details?.creators?.at(-1)).toEqual({
      role: 'author',
      family: 'De Luca',
      given: 'F',
    });

    // Online 2016-10-21, in the June 2017 issue: the issue's date is kept beside publishedDate.
    const gut = await provider().lookup('27797938');
    expect(gut?.details).toMatchObject({
      containerTitle: 'Gut',
      volume: '66',
      issue: '6',
      pages: '1116-1122',
      issn: '1468-3288',
      issued: { year: 2017, month: 6 },
    });
    // An online-only journal: MedlinePgn "31" is the article number.
    const cardiology = parseEfetch(
      readFixture('pubmed/efetch_pubmed_two_articles_structured_publisher-status.xml'),
    ).find((record) => record.pmid === '29730991');
    expect(cardiology?.details).toMatchObject({ volume: '20', issue: '1', pages: '31' });
    expect(cardiology?.details?.creators).toContainEqual({
      role: 'author',
      family: 'von Tengg-Kobligk',
      given: 'Hendrik',
    });
    expect(cardiology?.details?.issued).toBeUndefined();
  });

  it('writes out a MEDLINE page range and reads suffixes and group authors', () => {
    // The recorded Cryobiology article as an older record has it: MedlinePgn "244-55" alone.
    const xml = readFixture('pubmed/efetch_pubmed_two_articles_abstracts.xml')
      .replace('<StartPage>244</StartPage><EndPage>255</EndPage>', '')
      .replace(
        '<LastName>Barbato</LastName><ForeName>F</ForeName>',
        '<LastName>Barbato</LastName><ForeName>F</ForeName><Suffix>Jr</Suffix>',
      )
      .replace(
        '<LastName>Abelli</LastName><ForeName>L</ForeName><Initials>L</Initials>',
        '<CollectiveName>Cryobiology Study Group</CollectiveName>',
      );
    const [record] = parseEfetch(xml);
    expect(record?.details?.pages).toBe('244-255');
    expect(record?.details?.creators?.slice(1, 3)).toEqual([
      { role: 'author', family: 'Barbato', given: 'F', suffix: 'Jr' },
      { role: 'author', literal: 'Cryobiology Study Group' },
    ]);
    expect(record?.authors.slice(1, 3)).toEqual(['F Barbato', 'Cryobiology Study Group']);
  });

  it('reads a book chapter: the book as container, its editors, its publisher', () => {
    // Written after NCBI's PubmedBookArticle DTD (the recorded fixtures hold no book).
    const xml =
      '<PubmedArticleSet><PubmedBookArticle><BookDocument><PMID Version="1">20301685</PMID>' +
      '<Book><Publisher><PublisherName>University of Washington, Seattle</PublisherName>' +
      '</Publisher><BookTitle book="gene">GeneReviews<sup>®</sup></BookTitle>' +
      '<PubDate><Year>1993</Year></PubDate><AuthorList Type="editors"><Author ValidYN="Y">' +
      '<LastName>Adam</LastName><ForeName>Margaret P</ForeName></Author></AuthorList></Book>' +
      '<ArticleTitle book="gene" part="wilson">Wilson Disease</ArticleTitle>' +
      '<Language>eng</Language><AuthorList Type="authors"><Author ValidYN="Y">' +
      '<LastName>Weiss</LastName><ForeName>Karl Heinz</ForeName></Author></AuthorList>' +
      '</BookDocument></PubmedBookArticle></PubmedArticleSet>';
    const [record] = parseEfetch(xml);
    expect(record).toMatchObject({
      title: 'Wilson Disease',
      authors: ['Karl Heinz Weiss'],
      venue: 'University of Washington, Seattle',
    });
    expect(record?.details).toEqual({
      creators: [
        { role: 'author', family: 'Weiss', given: 'Karl Heinz' },
        { role: 'editor', family: 'Adam', given: 'Margaret P' },
      ],
      type: 'chapter',
      containerTitle: 'GeneReviews®',
      publisher: 'University of Washington, Seattle',
      language: 'en',
    });
  });

  it('maps an HTTP 200 <ERROR> body to an upstream ProviderError', async () => {
    const failure = await provider()
      .lookup('11850928')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ kind: 'upstream', status: 200 });
    expect((failure as Error).message).toContain('Neither query_key nor id specified');
  });

  it('answers null for a PMID that is not digits without asking', async () => {
    const before = server.requests.length;
    expect(await provider().lookup('not-a-pmid')).toBeNull();
    expect(server.requests.length).toBe(before);
  });

  it('reads esearch JSON, where every number is a string', () => {
    const list = parseEsearch(readFixture('pubmed/esearch_json_retstart2000_retmax1000.json'));
    expect(list.total).toBe(2070);
    expect(list.ids).toHaveLength(70);
    expect(list.ids[0]).toBe('28300081');
    expect(list.ids.at(-1)).toBe('28339581');
    expect(parseEsearch(readFixture('pubmed/esearch_json_rettype-count.json'))).toEqual({
      ids: [],
      total: 2070,
    });
  });

  it('reads the esearch history reply (usehistory=y)', () => {
    const list = parseEsearch(readFixture('pubmed/esearch_usehistory_webenv_retmax100.xml'));
    expect(list.total).toBe(42249);
    expect(list.ids).toHaveLength(100);
    expect(list.ids[0]).toBe('41297076');
  });
});
