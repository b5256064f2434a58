import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { contentDisposition, exportCitations, toCslItems } from './export.js';
import type { ResourceRow } from './store.js';
import { DIALECTS, addResource, as, createWorkspace, fakeResolver } from './test-support/helpers.js';

function row(overrides: Partial<ResourceRow>): ResourceRow {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    workspaceId: '00000000-0000-4000-8000-000000000002',
    resourceId: null,
    workKey: null,
    title: 'Untitled',
    url: null,
    type: null,
    authors: [],
    tags: [],
    notes: '',
    data: {},
    createdAt: new Date(),
    ...overrides,
  };
}

describe('toCslItems', () => {
  it('maps authors, dates, identifiers and tags, and makes citation keys unique', async () => {
    const items = await toCslItems([
      row({ title: 'Deep learning', authors: ['Yann LeCun', 'Bengio, Yoshua'], type: 'article', tags: ['ml', 'review'], data: { doi: '10.1038/nature14539', publishedDate: '2015-05-27', venue: 'Nature' } }),
      row({ title: 'Deep learning', authors: ['Yann LeCun'], data: { year: 2015 } }),
      row({ title: 'Lecture', type: 'video', url: 'https://www.youtube.com/watch?v=abc', authors: ['MIT OpenCourseWare'] }),
    ]);
    expect(items[0]).toMatchObject({
      type: 'article-journal',
      title: 'Deep learning',
      author: [{ given: 'Yann', family: 'LeCun' }, { given: 'Yoshua', family: 'Bengio' }],
      issued: { 'date-parts': [[2015, 5, 27]] },
      DOI: '10.1038/nature14539',
      'container-title': 'Nature',
      keyword: 'ml, review',
    });
    expect(items[0]!['citation-key']).toBe('LeCun2015Deepa');
    expect(items[1]!['citation-key']).toBe('LeCun2015Deepb');
    expect(items[2]).toMatchObject({ type: 'motion_picture', URL: 'https://www.youtube.com/watch?v=abc' });
  });
});

/** Every way the data of a resource could try to close a field or a record and start another. */
const FORGE = 'x}\n@misc{forged, title={Forged}}\r\nER  - \n\nTY  - JOUR\nTI  - Forged\u2028';

function hostile(id: string): ResourceRow {
  return row({
    id,
    title: `Real title${FORGE}`,
    url: 'https://example.org/a}b?q={c}#d}',
    type: 'article',
    authors: [`Ada${FORGE} Lovelace`],
    tags: [`tag${FORGE}`],
    data: {
      journal: `Journal\nER  - \n\nTY  - JOUR\nTI  - Forged record`,
      doi: '10.1234/x}, title = {Forged}}\n@misc{evil, title={Forged}',
      pmid: '123\nER  - ',
      volume: `1${FORGE}`,
      issue: '2}',
      pages: '3}{',
      publisher: `Publisher${FORGE}`,
      abstract: `Abstract${FORGE}`,
      publishedDate: '2020-01-02',
    },
  });
}

/** Reads an export back with the same library, as a reference manager would. */
function parseBack(body: string, format: 'bibtex' | 'ris'): Array<Record<string, unknown>> {
  return new Cite(body, { forceType: format === 'ris' ? '@ris/file' : '@biblatex/text' }).data as Array<Record<string, unknown>>;
}

describe('exportCitations with hostile data', () => {
  const resources = [hostile('00000000-0000-4000-8000-00000000000a'), hostile('00000000-0000-4000-8000-00000000000b')];

  it.each(['bibtex', 'ris'] as const)('%s: two resources read back as exactly two records, none forged', async (format) => {
    const { body } = await exportCitations(resources, format);
    const records = parseBack(body, format);
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(String(record.title)).toMatch(/^Real title/);
      expect(record['citation-key'] ?? record.id).not.toBe('forged');
      expect(record.DOI).toBeUndefined();
      expect(record.PMID).toBeUndefined();
    }
    if (format === 'ris') {
      expect(body.match(/^TY {2}-/gm)).toHaveLength(2);
      expect(body.match(/^ER {2}-/gm)).toHaveLength(2);
      expect(body.match(/^TI {2}-/gm)).toHaveLength(2);
    } else {
      expect(body.match(/^@\w+\{/gm)).toHaveLength(2);
    }
  });

  it('keeps a valid DOI and PMID, and an http(s) URL with its braces percent-encoded', async () => {
    const [item] = await toCslItems([row({ url: 'https://example.org/a}b', data: { doi: 'https://doi.org/10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0', pmid: '38799228' } })]);
    expect(item).toMatchObject({ DOI: '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0', PMID: '38799228', URL: 'https://example.org/a%7Db' });
    expect((await toCslItems([row({ url: 'javascript:alert(1)' })]))[0]!.URL).toBeUndefined();
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII file name and the exact one encoded', () => {
    expect(contentDisposition('Thèse: "chapitre" 1', 'bib')).toBe(
      `attachment; filename="These-chapitre-1.bib"; filename*=UTF-8''Th%C3%A8se-%20-chapitre-%201.bib`,
    );
    expect(contentDisposition('***', 'ris')).toBe(`attachment; filename="workspace.ris"; filename*=UTF-8''-.ris`);
  });
});

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`citation export (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    let workspaceId: string;
    beforeAll(async () => {
      t = await buildTestApp({ leg, build: { resolveResource: fakeResolver } });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
      workspaceId = (await createWorkspace(t.app, owner, { name: 'Deep Learning Reading' })).id;
      await addResource(t.app, owner, workspaceId, { resourceId: '10.1038/nature14539', tags: ['ml'] });
      await addResource(t.app, owner, workspaceId, { resourceId: 'arxiv:1706.03762v5' });
    });
    afterAll(async () => t?.close());

    const get = (query: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/workspaces/${workspaceId}/export${query}`, headers });

    describe('GET /api/workspaces/{id}/export', () => {
      it.each(DIALECTS)('exports BibTeX by default as a download (dialect %s)', async (dialect) => {
        const res = await get('', as(owner, dialect));
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
        expect(res.headers['content-disposition']).toBe(`attachment; filename="Deep-Learning-Reading.bib"; filename*=UTF-8''Deep%20Learning%20Reading.bib`);
        expect(res.body).toMatch(/^@article\{LeCun2015Deep,/m);
        expect(res.body).toContain('doi = {10.1038/nature14539}');
        expect(res.body).toContain('author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey}');
        expect(res.body).toMatch(/@\w+\{Vaswani2017Attention,/);
      });

      it('exports RIS', async () => {
        const res = await get('?format=ris', owner.bearer);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/x-research-info-systems; charset=utf-8');
        expect(res.headers['content-disposition']).toContain('filename="Deep-Learning-Reading.ris"');
        expect(res.body).toContain('TY  - JOUR');
        expect(res.body).toContain('DO  - 10.1038/nature14539');
        expect(res.body).toContain('AU  - LeCun, Yann');
        expect(res.body).toContain('KW  - ml');
        expect(res.body.match(/^ER {2}-/gm)).toHaveLength(2);
      });

      it('exports CSL-JSON as written by the library, not re-encoded', async () => {
        const res = await get('?format=csljson', owner.bearer);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/vnd.citationstyles.csl+json; charset=utf-8');
        expect(res.headers['content-disposition']).toContain('filename="Deep-Learning-Reading.json"');
        const items = JSON.parse(res.body);
        expect(items).toHaveLength(2);
        expect(items.map((item: { title: string }) => item.title).sort()).toEqual(['Attention Is All You Need', 'Deep learning']);
        expect(items.find((item: { DOI?: string }) => item.DOI)).toMatchObject({ type: 'article-journal', issued: { 'date-parts': [[2015, 5, 27]] } });
      });

      it('exports an empty workspace as an empty file', async () => {
        const empty = await createWorkspace(t.app, owner, { name: 'Empty' });
        const res = await t.app.inject({ method: 'GET', url: `/api/workspaces/${empty.id}/export?format=csljson`, headers: owner.bearer });
        expect(res.statusCode).toBe(200);
        expect(JSON.parse(res.body)).toEqual([]);
      });

      it('rejects an unknown format naming the field', async () => {
        const res = await get('?format=endnote', owner.bearer);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'format' } });
      });

      it('answers 404 for another user\'s workspace, 401 without a session', async () => {
        expect((await get('', stranger.bearer)).statusCode).toBe(404);
        expect((await get('', {})).statusCode).toBe(401);
      });
    });
  });
}
