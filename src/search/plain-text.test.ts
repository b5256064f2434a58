import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupResource } from './lookup.js';
import type { SearchProviders } from './registry.js';
import { searchProviders } from './search.js';
import {
  createTestOutbound,
  providersAt,
  readFixture,
  startFixtureServer,
} from './test-support/harness.js';
import type { FixtureServer } from './test-support/harness.js';

/** Provider answers whose text spells markup once its entities are decoded, each in its own dialect. */
function semanticScholarBody(): string {
  const body = JSON.parse(
    readFixture('semanticscholar/paper_search_match_augmenting-llm-chemistry-tools.json'),
  ) as { data: Array<Record<string, unknown>> };
  const paper = body.data[0]!;
  paper.title = 'Tools <script>alert(1)</script>for chemistry';
  paper.abstract = 'We show &lt;img src=x onerror=alert(1)&gt;that p < 0.05 & q > 1.';
  paper.authors = [{ authorId: '1', name: 'Ada <b>Lovelace</b>' }];
  paper.journal = { name: 'Journal &lt;i&gt;of&lt;/i&gt; <script>x()</script>Tools', pages: '1-9' };
  return JSON.stringify({ ...body, data: [paper] });
}

function crossrefBody(): string {
  const body = JSON.parse(
    readFixture('crossref/works_query.title-augmenting-llm-chemistry-tools_rows1.json'),
  ) as { message: { items: Array<Record<string, unknown>> } };
  const item = body.message.items[0]!;
  // Crossref double-escapes inline markup in titles; JATS text carries escaped tags too.
  item.title = [
    'Models &amp;lt;i&amp;gt;in vitro&amp;lt;/i&amp;gt; and &lt;script&gt;x()&lt;/script&gt;beyond',
  ];
  item.abstract = '<jats:p>Results &lt;iframe src="//evil"&gt;&lt;/iframe&gt;hold.</jats:p>';
  item.DOI = '10.9999/plain-text-test';
  return JSON.stringify({ ...body, message: { ...body.message, items: [item] } });
}

const TAG = /<[a-z!?/]/i;

describe('provider text is plain text', () => {
  let server: FixtureServer;
  let providers: SearchProviders;
  const outbound = createTestOutbound();
  beforeAll(async () => {
    server = await startFixtureServer([
      {
        path: '/semanticscholar/paper/search',
        body: semanticScholarBody(),
        headers: { 'content-type': 'application/json' },
      },
      {
        path: '/crossref/works',
        body: crossrefBody(),
        headers: { 'content-type': 'application/json' },
      },
      {
        path: /^\/semanticscholar\/paper\/DOI:/,
        body: JSON.stringify(JSON.parse(semanticScholarBody()).data[0]),
        headers: { 'content-type': 'application/json' },
      },
    ]);
    providers = providersAt(server.url, outbound);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  it('in search results: titles, abstracts and authors carry no markup, even decoded', async () => {
    const reply = await searchProviders({
      query: 'chemistry tools',
      providers: [providers.semanticscholar, providers.crossref],
      sort: 'relevance',
      offset: 0,
      limit: 20,
    });
    const byProvider = new Map(reply.results.map((record) => [record.provider, record]));
    expect(byProvider.get('semanticscholar')).toMatchObject({
      title: 'Tools for chemistry',
      abstract: 'We show that p < 0.05 & q > 1.',
      authors: ['Ada Lovelace'],
      details: {
        creators: [{ role: 'author', family: 'Lovelace', given: 'Ada' }],
        containerTitle: 'Journal of Tools',
      },
    });
    expect(byProvider.get('crossref')).toMatchObject({
      title: 'Models in vitro and beyond',
      abstract: 'Results hold.',
    });
    for (const record of reply.results) {
      for (const text of [record.title, record.abstract, ...record.authors])
        expect(text).not.toMatch(TAG);
    }
  });

  it('in a lookup', async () => {
    const record = await lookupResource('10.9999/plain-text-test', {
      semanticscholar: providers.semanticscholar,
    });
    expect(record).toMatchObject({
      title: 'Tools for chemistry',
      authors: ['Ada Lovelace'],
      details: { containerTitle: 'Journal of Tools' },
    });
    expect(record?.abstract).toBe('We show that p < 0.05 & q > 1.');
  });
});
