/**
 * Only http(s) addresses enter the service from a provider. Recorded answers of each provider, with
 * every http(s) address in them turned into a `javascript:` or `data:` one, are read: the records are
 * all still there, and each `url` and `pdfUrl` is http(s) (the provider's own page for the work where
 * the answer gave no usable address; no PDF where it gave none).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOutbound,
  factoryOptions,
  readFixture,
  startFixtureServer,
} from '../test-support/harness.js';
import type { FixtureServer } from '../test-support/harness.js';
import type { ProviderFactory } from './define-provider.js';
import type { SearchRecord } from '../types.js';
import { createArxivProvider } from './arxiv.js';
import { createCrossrefProvider } from './crossref.js';
import { createOpenalexProvider } from './openalex.js';
import { createSemanticScholarProvider } from './semanticscholar.js';
import { createZenodoProvider } from './zenodo.js';

const HOSTILE = [
  'javascript:alert(document.cookie)//',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==//',
  'JavaScript:alert(1)//',
];

/** The recorded answer with each `http://` or `https://` (also JSON-escaped, `http:\/\/`) replaced by one of the hostile schemes in turn. */
function hostile(fixture: string): string {
  let index = 0;
  return readFixture(fixture).replace(
    /https?:(?:\/\/|\\\/\\\/)/g,
    () => HOSTILE[index++ % HOSTILE.length]!,
  );
}

const CASES: Array<{
  name: string;
  create: ProviderFactory;
  path: string;
  fixture: string;
  lookup?: { path: string; fixture: string; id: string };
}> = [
  {
    name: 'arxiv',
    create: createArxivProvider,
    path: '/query',
    fixture: 'arxiv/query_all-testing_start0_max10.xml',
  },
  {
    name: 'crossref',
    create: createCrossrefProvider,
    path: '/works',
    fixture: 'crossref/works_query-ecology_rows2.json',
    lookup: {
      path: '/works/10.1371/journal.pone.0033693',
      fixture: 'crossref/work_doi_10.1371_journal.pone.0033693.json',
      id: '10.1371/journal.pone.0033693',
    },
  },
  {
    name: 'openalex',
    create: createOpenalexProvider,
    path: '/works',
    fixture:
      'openalex/works_filter-fulltext.search_toast-AND-biodiversity_cursor_per-page200_TRIMMED-first10.json',
  },
  {
    name: 'semanticscholar',
    create: createSemanticScholarProvider,
    path: '/paper/search',
    fixture: 'semanticscholar/paper_search_turing_all-fields_limit100.json',
  },
  {
    name: 'zenodo',
    create: createZenodoProvider,
    path: '/records',
    fixture: 'zenodo/records_search_q-title_size2_page1.json',
    lookup: {
      path: '/records/7078725',
      fixture: 'zenodo/record_7078725_legacy-format.json',
      id: '7078725',
    },
  },
];

function expectHttpOnly(records: SearchRecord[]): void {
  for (const record of records) {
    expect(new URL(record.url).protocol, `${record.id} url ${record.url}`).toMatch(/^https?:$/);
    if (record.pdfUrl !== undefined)
      expect(new URL(record.pdfUrl).protocol, `${record.id} pdfUrl ${record.pdfUrl}`).toMatch(
        /^https?:$/,
      );
  }
}

describe.each(CASES)(
  '$name: addresses other than http(s) are dropped at ingestion',
  ({ create, path, fixture, lookup }) => {
    let recorded: FixtureServer;
    let forged: FixtureServer;
    const outbound = createTestOutbound();
    beforeAll(async () => {
      recorded = await startFixtureServer([{ path, fixture }]);
      const body = hostile(fixture);
      const type = fixture.endsWith('.xml') ? 'application/atom+xml' : 'application/json';
      forged = await startFixtureServer([
        { path, body, headers: { 'content-type': type } },
        ...(lookup
          ? [
              {
                path: lookup.path,
                body: hostile(lookup.fixture),
                headers: { 'content-type': 'application/json' },
              },
            ]
          : []),
      ]);
    });
    afterAll(async () => {
      await recorded?.close();
      await forged?.close();
      await outbound.close();
    });

    it('a search keeps every record, each with an http(s) url and pdfUrl or none', async () => {
      expect(hostile(fixture)).toMatch(/javascript:|data:text/i);
      const expected = await create(factoryOptions(recorded.url, outbound)).search('query', {
        limit: 100,
      });
      const answer = await create(factoryOptions(forged.url, outbound)).search('query', {
        limit: 100,
      });
      expect(answer.records.length).toBeGreaterThan(0);
      expect(answer.records.map((record) => record.id)).toEqual(
        expected.records.map((record) => record.id),
      );
      expectHttpOnly(answer.records);
    });

    // Only providers with a recorded lookup have this test (registered, not skipped, for the others).
    if (lookup) {
      it('a lookup (what saving by resourceId uses) gives an http(s) url and pdfUrl or none', async () => {
        const record = await create(factoryOptions(forged.url, outbound)).lookup(lookup.id);
        expect(record).not.toBeNull();
        expectHttpOnly([record!]);
      });
    }
  },
);
