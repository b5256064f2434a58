import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LookupUnavailableError, lookupPlan, lookupResource } from './lookup.js';
import { presentSearchResult } from './presenters.js';
import { toResolvedResource } from './service.js';
import type { SearchProviders } from './registry.js';
import { createTestOutbound, providersAt, startFixtureServer } from './test-support/harness.js';
import type { FixtureServer } from './test-support/harness.js';

describe('lookupResource', () => {
  let server: FixtureServer;
  let providers: SearchProviders;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      {
        path: '/crossref/works/10.1371/journal.pone.0033693',
        fixture: 'crossref/work_doi_10.1371_journal.pone.0033693.json',
      },
      {
        path: /^\/crossref\/works\/10\.1016\//,
        status: 404,
        fixture: 'crossref/error_404_works_notarealdoi.txt',
      },
      {
        path: '/openalex/works/doi:10.1016/j.xgen.2025.100814',
        fixture: 'openalex/work_by_doi_10.1016_j.xgen.2025.100814.json',
      },
      {
        path: /^\/openalex\/works\/doi:10\.1016\//,
        status: 404,
        fixture: 'openalex/error_404_work_not_found.html',
      },
      {
        path: /^\/semanticscholar\/paper\//,
        query: { fields: /title/ },
        status: 404,
        fixture: 'semanticscholar/error_404_paper_not_found.json',
      },
      {
        path: '/arxiv/query',
        query: { id_list: 'astro-ph/0601001' },
        fixture: 'arxiv/idlist_astro-ph_0601001_old-style-id_affiliations.xml',
      },
      {
        path: '/arxiv/query',
        query: { id_list: '1707.08567' },
        fixture: 'arxiv/idlist_two-ids_one-invalid.xml',
      },
      {
        path: '/pubmed/efetch.fcgi',
        query: { id: '27797938' },
        fixture: 'pubmed/efetch_pubmed_structured_abstract_labels.xml',
      },
      { path: '/zenodo/records/7078768', fixture: 'zenodo/record_7078768_legacy-format.json' },
      { path: /^\/crossref\/works\/10\.9999\//, status: 500, body: 'down' },
      { path: /^\/openalex\/works\/doi:10\.9999\//, status: 500, body: 'down' },
    ]);
    providers = providersAt(server.url, outbound);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  it('resolves a DOI URL through Crossref', async () => {
    const record = await lookupResource('https://doi.org/10.1371/journal.pone.0033693', providers);
    expect(record).toMatchObject({
      id: 'crossref:10.1371/journal.pone.0033693',
      title:
        'Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia in the Basal Ganglia of Mice',
    });
  });

  it('gives the resolved resource the venue, volume, issue, pages and names the provider gave', async () => {
    const plos = await lookupResource('10.1371/journal.pone.0033693', providers);
    const resolved = toResolvedResource(plos!);
    expect(resolved).toMatchObject({
      venue: 'PLoS ONE',
      type: 'journal-article',
      details: {
        type: 'article-journal',
        containerTitle: 'PLoS ONE',
        volume: '7',
        issue: '3',
        pages: 'e33693',
        publisher: 'Public Library of Science (PLoS)',
        issn: '1932-6203',
      },
    });
    expect(resolved.details?.creators?.[0]).toEqual({
      role: 'author',
      family: 'Sadasivan',
      given: 'Shankar',
    });
    // The search reply's shape is unchanged: its presenter leaves the details out.
    expect(presentSearchResult(plos!)).not.toHaveProperty('details');

    const gut = toResolvedResource((await lookupResource('PMID:27797938', providers))!);
    expect(gut.details).toMatchObject({ containerTitle: 'Gut', volume: '66', pages: '1116-1122' });
    expect(gut.details?.creators?.[0]).toEqual({ role: 'author', family: 'Bao', given: 'Ying' });

    const arxiv = toResolvedResource((await lookupResource('arXiv:1707.08567', providers))!);
    expect(arxiv).toMatchObject({ venue: 'arXiv cs.IT' });
    expect(arxiv.details).toMatchObject({ type: 'preprint', publisher: 'arXiv' });
    expect(arxiv.details?.containerTitle).toBeUndefined();
  });

  it('falls back to OpenAlex when Crossref does not know a DOI', async () => {
    const record = await lookupResource('10.1016/j.xgen.2025.100814', providers);
    expect(record).toMatchObject({
      id: 'openalex:W4408732759',
      title: 'High-throughput screening of human genetic variants by pooled prime editing',
    });
    expect(server.requestsTo('/crossref/works/10.1016/j.xgen.2025.100814')).toHaveLength(1);
  });

  it('answers null after every provider said it does not know the DOI, in order', async () => {
    const before = server.requests.length;
    expect(await lookupResource('10.1016/unknown.1', providers)).toBeNull();
    expect(server.requests.slice(before).map((request) => request.path)).toEqual([
      '/crossref/works/10.1016/unknown.1',
      '/openalex/works/doi:10.1016/unknown.1',
      '/semanticscholar/paper/DOI:10.1016/unknown.1',
    ]);
  });

  it('resolves arXiv ids and URLs, old style included, and an arXiv DataCite DOI', async () => {
    expect((await lookupResource('https://arxiv.org/abs/astro-ph/0601001', providers))?.id).toBe(
      'arxiv:astro-ph/0601001v1',
    );
    expect((await lookupResource('astro-ph/0601001', providers))?.authors[0]).toBe('Andrew Gould');
    expect((await lookupResource('10.48550/arXiv.1707.08567', providers))?.id).toBe(
      'arxiv:1707.08567v1',
    );
  });

  it('resolves result ids of each kind, the semantic alias included', async () => {
    expect((await lookupResource('pubmed:27797938', providers))?.title).toBe(
      'Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer.',
    );
    expect((await lookupResource('27797938', providers))?.id).toBe('pubmed:27797938');
    expect((await lookupResource('zenodo:7078768', providers))?.title).toBe(
      'Frictionless Data Test Dataset Without Descriptor',
    );
    expect(
      await lookupResource('semantic:354dcdebf3f8b5feeed5c62090e0bc1f0c28db06', providers),
    ).toBeNull();
    expect(
      server.requestsTo('/semanticscholar/paper/354dcdebf3f8b5feeed5c62090e0bc1f0c28db06'),
    ).toHaveLength(1);
  });

  it('skips a disabled provider (YouTube without a key) and answers null', async () => {
    const before = server.requests.length;
    expect(await lookupResource('youtube:D-lhorsDlUQ', providers)).toBeNull();
    expect(server.requests.length).toBe(before);
  });

  it('answers null for text that is no identifier, without asking anyone', async () => {
    const before = server.requests.length;
    expect(await lookupResource('machine learning', providers)).toBeNull();
    expect(server.requests.length).toBe(before);
  });

  it('throws LookupUnavailableError when nothing was found and a provider failed', async () => {
    const failure = await lookupResource('10.9999/anything', providers).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(LookupUnavailableError);
    expect((failure as LookupUnavailableError).causes).toHaveLength(2);
  });

  it('logs each provider that failed at warn, naming the provider and the cause', async () => {
    const warnings: Array<{ details: Record<string, unknown>; message: string }> = [];
    const log = {
      warn: (details: Record<string, unknown>, message: string) =>
        warnings.push({ details, message }),
    };
    await lookupResource('10.9999/anything', providers, { log }).catch(() => undefined);
    expect(warnings).toHaveLength(2);
    for (const warning of warnings) {
      expect(warning.message).toBe('identifier lookup failed at a provider');
      expect(warning.details).toMatchObject({ identifier: '10.9999/anything' });
      expect(warning.details.cause).toMatch(/^\w+: /);
    }
    expect(warnings.map((warning) => warning.details.provider)).not.toContain(undefined);
  });

  it('plans DOIs Crossref-first, with arXiv and Zenodo DOIs going to their home first', () => {
    expect(lookupPlan({ kind: 'doi', doi: '10.1038/nature14539' }).map(([id]) => id)).toEqual([
      'crossref',
      'openalex',
      'semanticscholar',
    ]);
    expect(lookupPlan({ kind: 'doi', doi: '10.48550/arxiv.2304.05376' })[0]).toEqual([
      'arxiv',
      '2304.05376',
    ]);
    expect(lookupPlan({ kind: 'doi', doi: '10.5281/zenodo.7078768' })[0]).toEqual([
      'zenodo',
      '7078768',
    ]);
    expect(lookupPlan({ kind: 'pmid', pmid: '1' }).map(([id]) => id)).toEqual([
      'pubmed',
      'openalex',
      'semanticscholar',
    ]);
  });
});
