import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbound } from '../../platform/outbound.js';
import { PdfFetchError } from './errors.js';
import {
  openAlexPdfCandidates,
  parseArxivId,
  resolvePdfUrl,
  zenodoPdfUrl,
  type PdfSourceUrls,
} from './address.js';

const providerFixture = (path: string): string =>
  readFileSync(
    fileURLToPath(new URL(`../../../test/fixtures/providers/${path}`, import.meta.url)),
    'utf8',
  );

interface OpenAlexWorkJson {
  id: string;
  best_oa_location: { pdf_url: string | null; landing_page_url: string | null } | null;
  primary_location: { pdf_url: string | null; landing_page_url: string | null } | null;
  locations: Array<{ pdf_url: string | null; landing_page_url: string | null }>;
}

// Real OpenAlex bodies: a work whose locations have no pdf_url, and search results holding an
// arXiv-hosted work (PaperQA) and a Nature work with a .pdf address (LLM chemistry tools).
const xgenWork = JSON.parse(
  providerFixture('openalex/work_by_doi_10.1016_j.xgen.2025.100814.json'),
) as OpenAlexWorkJson;
const paperqaResults = [
  'openalex/works_filter-title.search_paperqa.json',
  'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
].flatMap((path) => (JSON.parse(providerFixture(path)) as { results: OpenAlexWorkJson[] }).results);
const legacyZenodo = JSON.parse(providerFixture('zenodo/record_7078725_legacy-format.json')) as {
  files: Array<Record<string, unknown>>;
};

describe('parseArxivId', () => {
  const cases: Array<[string, string | undefined]> = [
    ['2101.00001', '2101.00001'],
    ['2101.00001v2', '2101.00001v2'],
    ['arXiv:2004.04906v3', '2004.04906v3'],
    ['0704.0001', '0704.0001'],
    ['cond-mat/0603029v1', 'cond-mat/0603029v1'],
    ['astro-ph/0601001', 'astro-ph/0601001'],
    ['math.GT/0309136', 'math.GT/0309136'],
    ['https://arxiv.org/abs/2312.07559', '2312.07559'],
    ['http://arxiv.org/pdf/2304.05376', '2304.05376'],
    ['https://arxiv.org/pdf/2101.00001v1.pdf', '2101.00001v1'],
    ['https://export.arxiv.org/abs/hep-th/9901001v2', 'hep-th/9901001v2'],
    ['10.48550/arXiv.2312.07559', '2312.07559'],
    ['https://doi.org/10.48550/arxiv.2312.07559', '2312.07559'],
    ['10.1038/nature14539', undefined],
    ['https://example.org/paper.pdf', undefined],
    ['not an id', undefined],
  ];
  it.each(cases)('%s → %s', (input, expected) => {
    expect(parseArxivId(input)).toBe(expected);
  });
});

describe('openAlexPdfCandidates and zenodoPdfUrl', () => {
  it('orders OpenAlex candidates: pdf_url of best, primary and other locations, then oa_url, then landing pages', () => {
    const nature = paperqaResults.find((work) => work.best_oa_location?.pdf_url?.endsWith('.pdf'));
    expect(nature).toBeDefined();
    expect(openAlexPdfCandidates(nature as never)[0]).toBe(
      'https://www.nature.com/articles/s42256-024-00832-8.pdf',
    );
    expect(openAlexPdfCandidates(xgenWork as never)[0]).toBe(
      'https://doi.org/10.1016/j.xgen.2025.100814',
    );
  });

  it('finds no PDF among a legacy Zenodo record of spreadsheets', () => {
    expect(zenodoPdfUrl(legacyZenodo as never)).toBeUndefined();
  });
});

describe('resolvePdfUrl against a local provider server', () => {
  let server: Server;
  let base: string;
  const outbound = createOutbound({ allowPrivate: true, userAgent: 'research-workspace-test' });
  const heads: string[] = [];

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {};
  const json = (body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] as string;
      if (req.method === 'HEAD') heads.push(path);
      const route = routes[path];
      if (route) return route(req, res);
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(providerFixture('openalex/error_404_work_not_found.html'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // OpenAlex: the real xgen work, its landing page moved onto this server; one confirms as a PDF.
    const landing = `${base}/landing/xgen`;
    const xgenHere = {
      ...xgenWork,
      best_oa_location: { ...xgenWork.best_oa_location, landing_page_url: landing },
      primary_location: {
        ...xgenWork.primary_location,
        landing_page_url: `${base}/landing/html-only`,
      },
      locations: xgenWork.locations.map((location) => ({
        ...location,
        landing_page_url: `${base}/landing/html-only`,
      })),
    };
    routes['/openalex/works/W4408732759'] = json(xgenHere);
    // The same work asked by its DOI, as OpenAlex answers `works/doi:<doi>`.
    routes['/openalex/works/doi:10.1016/j.xgen.2025.100814'] = json(xgenHere);
    routes['/landing/xgen'] = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '123456' });
      res.end(req.method === 'HEAD' ? undefined : '%PDF-1.7');
    };
    routes['/landing/html-only'] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end();
    };
    // OpenAlex: real works from a search result, served one by one.
    for (const work of paperqaResults)
      routes[`/openalex/works/${work.id.replace('https://openalex.org/', '')}`] = json(work);
    // OpenAlex: a work with nothing usable.
    routes['/openalex/works/W1'] = json({
      ...xgenWork,
      best_oa_location: null,
      primary_location: null,
      locations: [],
      open_access: { oa_url: null },
    });

    // Zenodo: the legacy record as recorded (no PDF), the same record with a PDF added in each format.
    routes['/zenodo/records/7078725'] = json(legacyZenodo);
    routes['/zenodo/records/100'] = json({
      ...legacyZenodo,
      files: [
        ...legacyZenodo.files,
        {
          key: 'paper.PDF',
          type: 'pdf',
          links: { self: 'https://zenodo.org/api/files/bucket/paper.PDF' },
        },
      ],
    });
    routes['/zenodo/records/200'] = json({
      id: 200,
      files: [
        {
          key: 'data.csv',
          mimetype: 'text/csv',
          links: {
            self: `${base}/zenodo/records/200/files/data.csv`,
            content: `${base}/zenodo/records/200/files/data.csv/content`,
          },
        },
        {
          key: 'article',
          mimetype: 'application/pdf',
          links: {
            self: `${base}/zenodo/records/200/files/article`,
            content: `${base}/zenodo/records/200/files/article/content`,
          },
        },
      ],
    });
    routes['/zenodo/records/300'] = json({
      id: 300,
      files: {
        enabled: true,
        entries: {
          'thesis.pdf': {
            key: 'thesis.pdf',
            links: { content: `${base}/files/thesis.pdf/content` },
          },
        },
      },
    });

    // Other providers: a page that is a PDF without saying so in its address, and one that is not.
    routes['/download'] = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(req.method === 'HEAD' ? undefined : '%PDF-1.7');
    };
    routes['/redirect-to-download'] = (_req, res) => {
      res.writeHead(302, { location: '/download' });
      res.end();
    };
  });

  afterAll(async () => {
    await outbound.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const urls = (): PdfSourceUrls => ({
    arxivPdfBase: `${base}/arxiv-pdf`,
    openalex: `${base}/openalex`,
    zenodo: `${base}/zenodo`,
  });
  type RecordRef = Parameters<typeof resolvePdfUrl>[0];
  const resolve = (record: RecordRef) => resolvePdfUrl(record, { outbound, urls: urls() });
  const failure = async (record: RecordRef): Promise<PdfFetchError> => {
    const error = await resolve(record).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PdfFetchError);
    return error as PdfFetchError;
  };

  it('builds arXiv addresses from ids and URLs without any request', async () => {
    heads.length = 0;
    expect(await resolve({ id: 'arxiv:2101.00001v2' })).toBe(`${base}/arxiv-pdf/2101.00001v2`);
    expect(await resolve({ id: 'cond-mat/0603029v1', source: 'arxiv' })).toBe(
      `${base}/arxiv-pdf/cond-mat/0603029v1`,
    );
    expect(await resolve({ source: 'arxiv', url: 'https://arxiv.org/abs/2312.07559' })).toBe(
      `${base}/arxiv-pdf/2312.07559`,
    );
    expect(
      await resolve({ id: 'semanticscholar:abc', url: 'http://arxiv.org/pdf/2304.05376' }),
    ).toBe(`${base}/arxiv-pdf/2304.05376`);
    expect(heads).toEqual([]);
    expect((await failure({ id: 'arxiv:not-an-id' })).code).toBe('no_pdf');
  });

  it('takes an OpenAlex pdf_url ending in .pdf without confirming it', async () => {
    const nature = paperqaResults.find((work) =>
      work.best_oa_location?.pdf_url?.endsWith('.pdf'),
    ) as OpenAlexWorkJson;
    heads.length = 0;
    expect(
      await resolve({ id: `openalex:${nature.id.replace('https://openalex.org/', '')}` }),
    ).toBe('https://www.nature.com/articles/s42256-024-00832-8.pdf');
    expect(heads).toEqual([]);
  });

  it('turns an OpenAlex arXiv location into the arXiv PDF address', async () => {
    const arxivHosted = paperqaResults.find((work) =>
      work.locations.some((location) =>
        location.landing_page_url?.includes('arxiv.org/abs/2312.07559'),
      ),
    ) as OpenAlexWorkJson;
    expect(await resolve({ id: arxivHosted.id, source: 'openalex' })).toBe(
      `${base}/arxiv-pdf/2312.07559`,
    );
  });

  it('confirms an OpenAlex landing page with HEAD when its address does not end in .pdf', async () => {
    heads.length = 0;
    expect(await resolve({ id: 'openalex:W4408732759' })).toBe(`${base}/landing/xgen`);
    expect(heads).toContain('/landing/xgen');
  });

  it('fails with no_pdf for an OpenAlex work without a PDF and for an unknown work', async () => {
    expect((await failure({ id: 'openalex:W1' })).code).toBe('no_pdf');
    expect((await failure({ id: 'openalex:W999' })).code).toBe('no_pdf');
  });

  it('chooses the PDF among Zenodo files by type, name or mimetype, in both API formats', async () => {
    expect(await resolve({ id: 'zenodo:100' })).toBe(
      'https://zenodo.org/api/files/bucket/paper.PDF',
    );
    expect(await resolve({ id: '200', source: 'zenodo' })).toBe(
      `${base}/zenodo/records/200/files/article/content`,
    );
    expect(await resolve({ id: 'zenodo:300' })).toBe(`${base}/files/thesis.pdf/content`);
  });

  it('fails with no_pdf for a Zenodo record without a PDF and for an unknown record', async () => {
    expect((await failure({ id: 'zenodo:7078725' })).code).toBe('no_pdf');
    expect((await failure({ id: 'zenodo:68358988' })).code).toBe('no_pdf');
  });

  it('takes a direct .pdf address of another provider and confirms any other address with HEAD', async () => {
    expect(
      await resolve({ id: 'crossref:10.1/x', url: 'https://journal.example/article/123.pdf' }),
    ).toBe('https://journal.example/article/123.pdf');
    expect(await resolve({ id: 'pubmed:1', url: `${base}/redirect-to-download` })).toBe(
      `${base}/download`,
    );
    expect((await failure({ id: 'pubmed:2', url: `${base}/landing/html-only` })).code).toBe(
      'no_pdf',
    );
    expect((await failure({ id: 'pubmed:3' })).code).toBe('no_pdf');
  });

  it('uses what a Semantic Scholar result knows beyond its page: an arXiv id, then a pdfUrl, without asking the page', async () => {
    const page = 'https://www.semanticscholar.org/paper/abc123';
    heads.length = 0;
    // "Neural Turing Machines": an arXiv id and the semanticscholar.org page.
    expect(await resolve({ id: 'semanticscholar:abc123', url: page, arxivId: '1410.5401' })).toBe(
      `${base}/arxiv-pdf/1410.5401`,
    );
    // A pdfUrl on arXiv is rewritten to the arXiv PDF base; one elsewhere is confirmed with HEAD.
    expect(
      await resolve({
        id: 'semanticscholar:def456',
        url: page,
        pdfUrl: 'https://arxiv.org/pdf/1807.08518',
      }),
    ).toBe(`${base}/arxiv-pdf/1807.08518`);
    expect(
      await resolve({
        id: 'semanticscholar:ghi789',
        url: page,
        pdfUrl: `${base}/redirect-to-download`,
      }),
    ).toBe(`${base}/download`);
    expect(heads).toEqual(['/redirect-to-download', '/download']);
    // An arXiv DOI names the arXiv PDF too.
    expect(await resolve({ id: 'crossref:x', doi: '10.48550/arXiv.2101.00001' })).toBe(
      `${base}/arxiv-pdf/2101.00001`,
    );
  });

  it("finds a DOI's open-access PDF through OpenAlex when the pdfUrl and page are not PDFs, and falls back to the page", async () => {
    heads.length = 0;
    expect(
      await resolve({
        id: 'semanticscholar:x',
        url: `${base}/landing/html-only`,
        pdfUrl: `${base}/landing/html-only`,
        doi: 'https://doi.org/10.1016/j.xgen.2025.100814',
      }),
    ).toBe(`${base}/landing/xgen`);
    // A DOI OpenAlex does not know: the page is still tried, and is a PDF.
    expect(
      await resolve({ id: 'crossref:y', doi: '10.9999/unknown', url: `${base}/download` }),
    ).toBe(`${base}/download`);
    // Nothing is a PDF: the first failure is the one told (OpenAlex's 404 is no_pdf).
    expect(
      (
        await failure({
          id: 'crossref:z',
          doi: '10.9999/unknown',
          url: `${base}/landing/html-only`,
        })
      ).code,
    ).toBe('no_pdf');
  });

  it('refuses private addresses when they are not allowed', async () => {
    const guarded = createOutbound({ allowPrivate: false, userAgent: 'research-workspace-test' });
    try {
      const error = await resolvePdfUrl(
        { id: 'pubmed:4', url: `${base}/download` },
        { outbound: guarded, urls: urls() },
      ).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect((error as PdfFetchError).code).toBe('blocked_address');
    } finally {
      await guarded.close();
    }
  });
});
