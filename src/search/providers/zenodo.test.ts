import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOutbound, factoryOptions, startFixtureServer } from '../test-support/harness.js';
import type { FixtureServer } from '../test-support/harness.js';
import { createZenodoProvider, toZenodoQuery, zenodoRecordToRecord } from './zenodo.js';

const TITLE_QUERY = 'Frictionless Data Test';

describe('zenodo provider', () => {
  let server: FixtureServer;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      {
        path: '/records',
        query: { q: TITLE_QUERY },
        fixture: 'zenodo/records_search_q-title_size2_page1.json',
      },
      // The legacy API redirects /records?q= to /records/?q= (recorded 308 body).
      {
        path: '/records',
        query: { q: 'urban trees' },
        status: 308,
        headers: { location: '/records/?q=urban+trees&size=4' },
        fixture: 'zenodo/redirect_308_records_without_trailing_slash.html',
      },
      {
        path: '/records/',
        query: { q: 'urban trees' },
        fixture: 'zenodo/records_search_type-dataset_bounds_size4.json',
      },
      { path: '/records/7078768', fixture: 'zenodo/record_7078768_legacy-format.json' },
      { path: '/records/7078725', fixture: 'zenodo/record_7078725_legacy-format.json' },
      {
        path: '/records/68358988',
        status: 404,
        fixture: 'zenodo/error_404_PID_does_not_exist.json',
      },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  const provider = () => createZenodoProvider(factoryOptions(server.url, outbound));

  it('reads a records search (pre-2023 format)', async () => {
    const answer = await provider().search(TITLE_QUERY, { limit: 2 });
    expect(answer.total).toBe(10);
    expect(answer.records.map((record) => record.id)).toEqual(['zenodo:7089850', 'zenodo:7078760']);
    expect(answer.records[0]).toMatchObject({
      provider: 'zenodo',
      title: 'Frictionless Data Test Publication',
      authors: ['FD Tester'],
      abstract: 'This is a test publication',
      publishedDate: '2022-09-18',
      doi: '10.5281/zenodo.7089850',
      url: 'https://zenodo.org/record/7089850',
      type: 'thesis',
      citationsKnown: false,
    });
    const request = server.requestsTo('/records').find((r) => r.query.get('q') === TITLE_QUERY);
    expect(request?.query.get('size')).toBe('2');
    expect(request?.query.get('page')).toBe('1');
  });

  it('follows the legacy 308 to /records/ and turns "Family, Given" into "Given Family"', async () => {
    const answer = await provider().search('urban trees', { limit: 100 });
    const [redirected, served] = server.requests.filter((r) => r.query.get('q') === 'urban trees');
    expect(redirected?.path).toBe('/records');
    // Anonymous Zenodo searches are capped at 25 per page.
    expect(redirected?.query.get('size')).toBe('25');
    expect(served?.path).toBe('/records/');
    expect(answer.total).toBe(79);
    expect(answer.records.map((record) => record.nativeId)).toEqual([
      '5025230',
      '5022021',
      '5015459',
      '5014954',
    ]);
    expect(answer.records[0]?.authors).toEqual(['USGS EROS']);
    expect(answer.records[1]?.authors).toEqual(['Diane Pataki']);
    expect(answer.records[3]?.authors).toEqual([
      'Sarah Kimball',
      'Megan Lulow',
      'Kathleen Balazs',
      'Travis Huxman',
    ]);
    expect(answer.records[1]?.abstract).toBe(
      'Measurements of water use by trees planted in urban environments. For ' +
        'more detailed metadata, including data access and usage instructions, ' +
        'please download and consult README.txt file.',
    );
    // Each HTML paragraph becomes a line.
    expect(answer.records[3]?.abstract.split('\n').slice(0, 2)).toEqual([
      'Plants employ strategies of tolerance, endurance, and avoidance to cope with',
      'aridity in space and time, yet understanding the differential importance of such',
    ]);
    expect(answer.records[1]?.pdfUrl).toBeUndefined();
    // Zenodo's "Family, Given" names are split there; a name without a comma is kept whole.
    expect(answer.records[0]?.details).toEqual({
      creators: [{ role: 'author', literal: 'USGS EROS' }],
      type: 'dataset',
    });
    expect(answer.records[3]?.details?.creators?.[0]).toEqual({
      role: 'author',
      family: 'Kimball',
      given: 'Sarah',
    });
    // DOI 10.7280/D12019 is Dryad's: Zenodo is not said to be the publisher.
    expect(answer.records[0]?.details?.publisher).toBeUndefined();
  });

  it('looks up records by id', async () => {
    const record = await provider().lookup('7078768');
    expect(record).toMatchObject({
      id: 'zenodo:7078768',
      title: 'Frictionless Data Test Dataset Without Descriptor',
      authors: ['FD Testing'],
      abstract: 'This is a test dataset',
      publishedDate: '2022-09-14',
      doi: '10.5281/zenodo.7078768',
      type: 'dataset',
    });
    expect(record?.details).toEqual({
      creators: [{ role: 'author', literal: 'FD Testing' }],
      type: 'dataset',
      publisher: 'Zenodo',
    });
    const thesis = (await provider().search(TITLE_QUERY, { limit: 2 })).records[0];
    expect(thesis?.nativeId).toBe('7089850');
    expect(thesis?.details).toMatchObject({ type: 'thesis', publisher: 'Zenodo' });
    const other = await provider().lookup('7078725');
    expect(other?.title).toBe(
      'Frictionless Data Test Dataset Multiple File Types Without Descriptor',
    );
  });

  it('answers null for "PID does not exist" and for ids that are not record numbers', async () => {
    expect(await provider().lookup('68358988')).toBeNull();
    const before = server.requests.length;
    expect(await provider().lookup('../etc')).toBeNull();
    expect(server.requests.length).toBe(before);
  });

  it('escapes query-string syntax so free text cannot be a syntax error', () => {
    expect(toZenodoQuery('title:"Frictionless Data" (test)')).toBe(
      'title\\:\\"Frictionless Data\\" \\(test\\)',
    );
    expect(toZenodoQuery('plain words')).toBe('plain words');
  });

  // No recording of the current (InvenioRDM) format exists in the fixtures; this record follows the
  // shape QUIRKS.md describes (files with `mimetype` and `links.content`), built by hand.
  it('reads the journal, imprint, editors and current-format names of a record', () => {
    const record = zenodoRecordToRecord({
      id: 10_000_002,
      doi: '10.5281/zenodo.10000002',
      metadata: {
        title: 'A chapter',
        creators: [
          { person_or_org: { type: 'personal', family_name: 'Doe', given_name: 'Jane' } },
          { person_or_org: { type: 'organizational', name: 'CERN' } },
        ],
        contributors: [
          { name: 'Roe, Richard', type: 'Editor' },
          { name: 'Poe, Edgar', type: 'DataCurator' },
        ],
        publication_date: '2024',
        resource_type: { type: 'publication', subtype: 'section' },
        part_of: { title: 'A Book', pages: '11-19' },
        imprint: { publisher: 'Open Press', isbn: '978-3-16-148410-0' },
        language: 'eng',
      },
    });
    expect(record?.details).toEqual({
      creators: [
        { role: 'author', family: 'Doe', given: 'Jane' },
        { role: 'author', literal: 'CERN' },
        { role: 'editor', family: 'Roe', given: 'Richard' },
      ],
      type: 'chapter',
      containerTitle: 'A Book',
      pages: '11-19',
      publisher: 'Open Press',
      isbn: '978-3-16-148410-0',
      language: 'en',
    });
  });

  it('picks the PDF of a current-format record by mimetype', () => {
    const record = zenodoRecordToRecord({
      id: 10_000_001,
      doi: '10.5281/zenodo.10000001',
      metadata: {
        title: 'A <i>current</i> record',
        creators: [{ name: 'Doe, Jane' }],
        description: '<p>First.</p><p>Second &amp; last.</p>',
        publication_date: '2024-02',
        resource_type: { type: 'publication', subtype: 'article' },
      },
      links: { self_html: 'https://zenodo.org/records/10000001' },
      files: [
        {
          key: 'data.csv',
          mimetype: 'text/csv',
          links: { content: 'https://zenodo.org/api/records/10000001/files/data.csv/content' },
        },
        {
          key: 'paper',
          mimetype: 'application/pdf',
          links: { content: 'https://zenodo.org/api/records/10000001/files/paper/content' },
        },
      ],
    });
    expect(record).toMatchObject({
      id: 'zenodo:10000001',
      title: 'A current record',
      authors: ['Jane Doe'],
      abstract: 'First.\nSecond & last.',
      publishedDate: '2024-02',
      url: 'https://zenodo.org/records/10000001',
      pdfUrl: 'https://zenodo.org/api/records/10000001/files/paper/content',
      type: 'article',
    });
  });
});
