import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../provider-error.js';
import { createTestOutbound, factoryOptions, startFixtureServer } from '../test-support/harness.js';
import type { FixtureServer } from '../test-support/harness.js';
import { createArxivProvider, toArxivSearchQuery } from './arxiv.js';

describe('arxiv provider', () => {
  let server: FixtureServer;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      {
        path: '/query',
        query: { search_query: 'all:testing' },
        fixture: 'arxiv/query_all-testing_start0_max10.xml',
      },
      {
        path: '/query',
        query: { search_query: 'all:del AND all:maestro' },
        fixture: 'arxiv/legacy2016_query_au-del_maestro.xml',
      },
      {
        path: '/query',
        query: { search_query: 'all:abc' },
        status: 400,
        fixture: 'arxiv/error_400_incorrect_id_format_abc.xml',
      },
      {
        path: '/query',
        query: { id_list: 'astro-ph/0601001' },
        fixture: 'arxiv/idlist_astro-ph_0601001_old-style-id_affiliations.xml',
      },
      {
        path: '/query',
        query: { id_list: '1707.08567' },
        fixture: 'arxiv/idlist_two-ids_one-invalid.xml',
      },
      {
        path: '/query',
        query: { id_list: 'abc' },
        status: 400,
        fixture: 'arxiv/error_400_incorrect_id_format_abc.xml',
      },
      {
        path: '/query',
        query: { id_list: '0000.0000' },
        fixture: 'arxiv/empty_idlist_0000.0000_totalResults0.xml',
      },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  const provider = () => createArxivProvider(factoryOptions(server.url, outbound));

  it('reads the current feed: ids keep their versions, DOIs, PDF links, UTF-8 names and decoded entities', async () => {
    const answer = await provider().search('testing', { limit: 10 });
    expect(answer.total).toBe(214881);
    expect(answer.records).toHaveLength(10);
    const [first, second, third] = answer.records;
    expect(first).toMatchObject({
      id: 'arxiv:2202.12139v1',
      provider: 'arxiv',
      title:
        'Testing Deep Learning Models: A First Comparative Study of Multiple Testing Techniques',
      authors: ['Mohit Kumar Ahuja', 'Arnaud Gotlieb', 'Helge Spieker'],
      publishedDate: '2022-02-24',
      year: 2022,
      doi: '10.1109/icstw55395.2022.00035',
      arxivId: '2202.12139',
      url: 'https://arxiv.org/abs/2202.12139v1',
      pdfUrl: 'https://arxiv.org/pdf/2202.12139v1',
      citations: 0,
      citationsKnown: false,
      sources: ['arxiv'],
    });
    expect(
      first?.abstract.startsWith(
        'Deep Learning (DL) has revolutionized the capabilities of vision-based systems',
      ),
    ).toBe(true);
    expect(second?.authors[0]).toBe('Aurora Ramírez');
    expect(third).toMatchObject({ id: 'arxiv:2005.14124v2', arxivId: '2005.14124' });
    expect(answer.records.map((record) => record.title)).toContain(
      'ChatGPT and Software Testing Education: Promises & Perils',
    );
  });

  it('asks /query with an all: query, relevance order and the limit', async () => {
    await provider().search('testing', { limit: 10 });
    const request = server
      .requestsTo('/query')
      .find((r) => r.query.get('search_query') === 'all:testing');
    expect(request?.query.get('max_results')).toBe('10');
    expect(request?.query.get('sortBy')).toBe('relevance');
    expect(request?.query.get('start')).toBe('0');
  });

  it('reads the 2016 feed generation: hard-wrapped summaries and titles joined, old-style ids', async () => {
    const answer = await provider().search('del maestro', { limit: 10 });
    expect(answer.total).toBe(31);
    expect(answer.records).toHaveLength(10);
    const [first, second, third] = answer.records;
    expect(first).toMatchObject({
      id: 'arxiv:1201.4869v1',
      title: 'A Luttinger Liquid Core Inside Helium-4 Filled Nanopores',
      authors: ['Adrian Del Maestro'],
      publishedDate: '2012-01-23',
      doi: '10.1142/s021797921244002x',
    });
    expect(first?.abstract).toMatch(
      /^As helium-4 is cooled below 2\.17 K it undergoes a phase transition to a fundamentally new state of matter/,
    );
    expect(first?.abstract.endsWith('intriguing low dimensional state of matter.')).toBe(true);
    expect(first?.abstract).not.toContain('\n');
    expect(second?.abstract).toContain(
      '"p x p" density wave ordering on the square lattice (p >= 3, integer)',
    );
    expect(third).toMatchObject({
      id: 'arxiv:cond-mat/0603029v1',
      arxivId: 'cond-mat/0603029',
      title:
        'From stripe to checkerboard order on the square lattice in the presence of quenched disorder',
      authors: ['Adrian Del Maestro', 'Bernd Rosenow', 'Subir Sachdev'],
    });
  });

  it('looks up an old-style id with its affiliations feed', async () => {
    const record = await provider().lookup('astro-ph/0601001');
    expect(record).toMatchObject({
      id: 'arxiv:astro-ph/0601001v1',
      arxivId: 'astro-ph/0601001',
      title:
        'Frequency of Hot Jupiters and Very Hot Jupiters from the OGLE-III Transit Surveys Toward the Galactic Bulge and Carina',
      authors: ['Andrew Gould', 'Susan Dorsher', 'B. Scott Gaudi', 'Andrzej Udalski'],
      publishedDate: '2006-01-02',
      pdfUrl: 'https://arxiv.org/pdf/astro-ph/0601001v1',
    });
    expect(record?.abstract).toContain('following Gould & Morgan (2003)');
    expect(record?.abstract).toContain('spectroscopic-followup limit of V_max<17.5');
    // A preprint, arXiv its publisher; the journal_ref "ActaAstron.56:1-50,2006" is no container of it.
    expect(record?.details).toEqual({
      creators: [
        { role: 'author', family: 'Gould', given: 'Andrew' },
        { role: 'author', family: 'Dorsher', given: 'Susan' },
        { role: 'author', family: 'Gaudi', given: 'B. Scott' },
        { role: 'author', family: 'Udalski', given: 'Andrzej' },
      ],
      type: 'preprint',
      publisher: 'arXiv',
    });
  });

  it('looks up a new-style id (UTF-8 author names intact)', async () => {
    const record = await provider().lookup('1707.08567');
    expect(record?.title).toBe(
      'Proceedings of Workshop AEW10: Concepts in Information Theory and Communications',
    );
    expect(record?.authors).toHaveLength(34);
    expect(record?.authors).toContain('Dirk Wübben');
    // Particles read from the name strings: "Peter H. N. de With", "Joost van der Putten".
    expect(record?.details?.creators).toEqual(
      expect.arrayContaining([
        { role: 'author', family: 'With', nonDroppingParticle: 'de', given: 'Peter H. N.' },
        { role: 'author', family: 'Putten', nonDroppingParticle: 'van der', given: 'Joost' },
        { role: 'author', family: 'Wübben', given: 'Dirk' },
      ]),
    );
    expect(record?.details?.creators).toHaveLength(34);
  });

  it('answers null for an id arXiv rejects (400 error feed) or does not have (totalResults 0)', async () => {
    expect(await provider().lookup('abc')).toBeNull();
    expect(await provider().lookup('0000.0000')).toBeNull();
  });

  it('turns an error feed on search into an upstream ProviderError with the feed message', async () => {
    const failure = await provider()
      .search('abc', { limit: 5 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ kind: 'upstream', status: 400 });
    expect((failure as Error).message).toContain('incorrect id format for abc');
  });

  it('builds search_query from free text without arXiv operators', () => {
    expect(toArxivSearchQuery('graph neural networks')).toBe(
      'all:graph AND all:neural AND all:networks',
    );
    expect(toArxivSearchQuery('  "quantum" (error) correction: ')).toBe(
      'all:quantum AND all:error AND all:correction',
    );
    expect(toArxivSearchQuery('!!!')).toBe('');
  });
});
