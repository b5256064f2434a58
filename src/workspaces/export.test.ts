import { Cite } from '@citation-js/core';
import '@citation-js/plugin-ris';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { contentDisposition, exportCitations, toCslItems } from './export.js';
import type { ResourceRow } from './resources/store.js';
import {
  DIALECTS,
  addResource,
  as,
  createWorkspace,
  fakeResolver,
} from './test-support/helpers.js';

function row(overrides: Partial<ResourceRow>): ResourceRow {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    workspaceId: '00000000-0000-4000-8000-000000000002',
    resourceId: null,
    addedBy: null,
    workKey: null,
    citationKey: null,
    title: 'Untitled',
    url: null,
    type: null,
    authors: [],
    tags: [],
    notes: '',
    notesUpdatedBy: null,
    notesUpdatedAt: null,
    data: {},
    record: null,
    version: 1,
    createdAt: new Date(),
    year: null,
    venue: null,
    authorSort: null,
    ...overrides,
  };
}

describe('toCslItems', () => {
  it('maps authors, dates, identifiers and tags; rows without keys yet get the keys they will be given', async () => {
    const items = toCslItems([
      row({
        title: 'Deep learning',
        authors: ['Yann LeCun', 'Bengio, Yoshua'],
        type: 'article',
        tags: ['ml', 'review'],
        data: { doi: '10.1038/nature14539', publishedDate: '2015-05-27', venue: 'Nature' },
      }),
      row({ title: 'Deep learning', authors: ['Yann LeCun'], data: { year: 2015 } }),
      row({
        title: 'Lecture',
        type: 'video',
        url: 'https://www.youtube.com/watch?v=abc',
        authors: ['MIT OpenCourseWare'],
      }),
    ]);
    expect(items[0]).toMatchObject({
      type: 'article-journal',
      title: 'Deep learning',
      author: [
        { given: 'Yann', family: 'LeCun' },
        { given: 'Yoshua', family: 'Bengio' },
      ],
      issued: { 'date-parts': [[2015, 5, 27]] },
      DOI: '10.1038/nature14539',
      'container-title': 'Nature',
      keyword: 'ml, review',
    });
    expect(items[0]!['citation-key']).toBe('lecun2015deep');
    expect(items[1]!['citation-key']).toBe('lecun2015deepa');
    expect(items[2]).toMatchObject({
      type: 'motion_picture',
      URL: 'https://www.youtube.com/watch?v=abc',
    });
  });

  it('exports each resource under the key it holds, whatever the others hold', () => {
    const keyed = (title: string, citationKey: string | null) =>
      row({
        title,
        citationKey,
        record: {
          creators: [{ role: 'author', family: 'Doe', given: 'Jane' }],
          issued: { year: 2020 },
        },
      });
    const items = toCslItems([
      keyed('Study one', '10.1145/3290605.3300233'),
      keyed('Study two', 'Doe:2020/two'),
      keyed('Study three', 'doe2020studya'),
      // Not reached by the start-up upgrade yet: the key it will get, around the keys held.
      keyed('Study four', null),
    ]);
    expect(items.map((item) => item['citation-key'])).toEqual([
      '10.1145/3290605.3300233',
      'Doe:2020/two',
      'doe2020studya',
      'doe2020study',
    ]);
    expect(items.map((item) => item.id)).toEqual(items.map((item) => item['citation-key']));
  });
});

/**
 * What a hostile provider or user could put in a resource to close a field, a name, an entry or a
 * record and start a forged one: BibTeX braces, `@`, TeX specials and ligatures, RIS record lines,
 * line breaks of every kind.
 */
const HOSTILE =
  'x}} @misc{forged, title={FORGED}, url={https://evil.example/}}\n@article{evil,\r\nER  - \n\nTY  - JOUR\u2028TI  - Forged \\textbf{b} \\} % # & $ _ ^ ~ < > ` -- --- \'\' "q" ,, é 𝕏';

/** Names that tried to escape citation-js's BibTeX (one-word names, names starting with `,`), and a plain one. */
const HOSTILE_AUTHORS = [
  ',X\\}\\}@misc{forged,title={FORGED},url={https://evil.example/}}',
  ',X}}@misc{forged,title={FORGED},url={https://evil.example/}}',
  'Solo}',
  '{Brace} Smith',
  'Smith and Jones',
  `Line\nBreak @Name % # \\ ~`,
  'Ada Lovelace',
];

function hostile(id: string): ResourceRow {
  return row({
    id,
    title: `Real title ${HOSTILE}`,
    url: 'https://example.org/a}b?q={c}#d}',
    type: 'article',
    authors: HOSTILE_AUTHORS,
    tags: [`tag ${HOSTILE}`, 'ml'],
    notes: `Notes ${HOSTILE}`,
    data: {
      journal: `Journal ${HOSTILE}`,
      doi: '10.1234/x}, title = {Forged}}\n@misc{evil, title={Forged}',
      pmid: '123\nER  - ',
      volume: `1${HOSTILE}`,
      issue: '2}',
      pages: '3--4}{',
      publisher: `Publisher ${HOSTILE}`,
      abstract: `Abstract ${HOSTILE}`,
      publishedDate: '2020-01-02',
    },
  });
}

/** A stored value as exported: one line (every run of white space one space), as docs/api.md says. */
const oneLine = (value: string) => value.replace(/[\s\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();
/** The same address: percent-encoding of braces (so BibTeX's verbatim `url` can hold them) aside. */
const address = (value: unknown) => decodeURI(String(value));

describe('exportCitations with hostile values in every field', () => {
  const resources = [
    hostile('00000000-0000-4000-8000-00000000000a'),
    {
      ...hostile('00000000-0000-4000-8000-00000000000b'),
      title: `Second ${HOSTILE}`,
      data: {
        ...hostile('b').data,
        doi: '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0',
      },
    },
  ];
  const stored = (index: number) => resources[index]!;
  const text = (index: number, field: string) => oneLine(String(stored(index).data[field]));

  it('bibtex: a real BibTeX parser reads exactly one entry per resource, every value the stored one', async () => {
    const { body } = await exportCitations(resources, 'bibtex');
    // English titles are not sentence-cased by the parser: the comparison is of values, not of a casing convention.
    // BibTeX writes `é` as `{\'e}`, which the parser reads as `e` and a combining accent: compared as NFC.
    const library = JSON.parse(
      JSON.stringify(parseBibtex(body, { english: false })).normalize('NFC'),
    ) as ReturnType<typeof parseBibtex>;
    expect(library.errors).toEqual([]);
    expect(library.entries).toHaveLength(2);
    library.entries.forEach((entry, index) => {
      const { fields } = entry;
      expect(entry.type).toBe('article');
      expect(fields.title).toBe(oneLine(stored(index).title));
      expect(
        fields.author?.map(
          (name) =>
            name.name ??
            [name.firstName, name.prefix, name.lastName, name.suffix].filter(Boolean).join(' '),
        ),
      ).toEqual(HOSTILE_AUTHORS.map(oneLine));
      expect(fields.author?.at(-1)).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
      expect(fields.journal).toBe(text(index, 'journal'));
      expect(fields.publisher).toEqual([text(index, 'publisher')]);
      expect(fields.volume).toBe(text(index, 'volume'));
      expect(fields.number).toBe(text(index, 'issue'));
      expect(fields.pages).toBe(text(index, 'pages'));
      expect(fields.abstract).toBe(text(index, 'abstract'));
      expect(fields.annote).toBe(oneLine(stored(index).notes));
      expect(address(fields.url)).toBe(address(stored(index).url));
      expect(fields.year).toBe('2020');
      // BibTeX's keyword list is split on `,` and `;` and cannot hold a brace, a backslash or a `$`
      // (docs/api.md); TeX's other specials are escaped, which the parser leaves (a verbatim list).
      const keywordText = (keyword: string) =>
        keyword
          .replace(/\\([%#&_])/g, '$1')
          .replace(/\\textasciicircum\{\}/g, '^')
          .replace(/\\textasciitilde\{\}/g, '~');
      expect(fields.keywords?.map(keywordText).sort()).toEqual(
        stored(index)
          .tags.map((tag) => oneLine(tag.replace(/[,;{}\\$]+/g, ' ')))
          .sort(),
      );
    });
    expect(library.entries[0]!.fields.doi).toBeUndefined();
    expect(library.entries[1]!.fields.doi).toBe(stored(1).data.doi);
  });

  it('ris: a real RIS parser reads exactly one record per resource, every value the stored one', async () => {
    const { body } = await exportCitations(resources, 'ris');
    expect(body.match(/^TY {2}-/gm)).toHaveLength(2);
    expect(body.match(/^ER {2}-/gm)).toHaveLength(2);
    const records = new Cite(body, { forceType: '@ris/file' }).data as Array<
      Record<string, unknown>
    >;
    expect(records).toHaveLength(2);
    records.forEach((record, index) => expectCslValues(record, index, 'ris'));
    // citation-js reads no PB of a journal article (Zotero does): the line is checked as written.
    for (const index of [0, 1])
      expect(body.split('\n')).toContain(`PB  - ${text(index, 'publisher')}`);
  });

  it('csljson: JSON.parse reads exactly one item per resource, every value the stored one', async () => {
    const { body } = await exportCitations(resources, 'csljson');
    const items = JSON.parse(body) as Array<Record<string, unknown>>;
    expect(items).toHaveLength(2);
    items.forEach((item, index) => expectCslValues(item, index, 'csljson'));
  });

  /**
   * A name read back, as text: a literal name as it is, else given and family name. In RIS a name is
   * `Family, Given[, Suffix]` by the format's own rule (it has no escapes), so the commas of a stored
   * name come back as that separator: those names are compared as their parts between commas. A
   * family name alone is written with its comma (`Solo},`), read back with an empty given name.
   */
  const nameText = (name: Record<string, string | undefined>, stored: string) => {
    if (name.literal !== undefined) return name.literal;
    if (stored.includes(','))
      return [name.family, name.given, name.suffix].filter((part) => part !== undefined).join(',');
    return [
      name.given,
      name['dropping-particle'],
      name['non-dropping-particle'],
      name.family,
      name.suffix,
    ]
      .filter((part) => part !== undefined && part !== '')
      .join(' ');
  };
  const storedName = (name: string) =>
    name.includes(',') ? oneLine(name).replace(/\s*,\s*/g, ',') : oneLine(name);

  function expectCslValues(
    record: Record<string, unknown>,
    index: number,
    format: 'ris' | 'csljson',
  ): void {
    expect(record.title).toBe(oneLine(stored(index).title));
    const authors = record.author as Array<Record<string, string>>;
    expect(
      authors.map((name, at) => nameText(name, HOSTILE_AUTHORS[at] ?? '').replace(/\s*,\s*/g, ',')),
    ).toEqual(HOSTILE_AUTHORS.map(storedName));
    expect(record['container-title']).toBe(text(index, 'journal'));
    if (format === 'csljson') expect(record.publisher).toBe(text(index, 'publisher'));
    expect(record.volume).toBe(text(index, 'volume'));
    expect(record.issue).toBe(text(index, 'issue'));
    expect(record.page).toBe(text(index, 'pages'));
    expect(record.abstract).toBe(text(index, 'abstract'));
    expect(record.note).toBe(oneLine(stored(index).notes));
    // One KW line per tag; the RIS reader joins them with `,`.
    expect(record.keyword).toBe(
      stored(index)
        .tags.map(oneLine)
        .join(format === 'ris' ? ',' : ', '),
    );
    expect(address(record.URL)).toBe(address(stored(index).url));
    expect(record.DOI).toBe(index === 0 ? undefined : stored(index).data.doi);
    expect(record.PMID).toBeUndefined();
  }

  it('keeps a valid DOI and PMID, and an http(s) URL with its braces percent-encoded', async () => {
    const [item] = toCslItems([
      row({
        url: 'https://example.org/a}b',
        data: {
          doi: 'https://doi.org/10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0',
          pmid: '38799228',
        },
      }),
    ]);
    expect(item).toMatchObject({
      DOI: '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0',
      PMID: '38799228',
      URL: 'https://example.org/a%7Db',
    });
    expect(toCslItems([row({ url: 'javascript:alert(1)' })])[0]!.URL).toBeUndefined();
  });
});

describe('exportCitations as Zotero and Better BibTeX export the same records', () => {
  const ABSTRACT =
    'We extend the capabilities of neural networks by coupling them to ' +
    'external memory resources, which they can interact with by attentional ' +
    'processes. The combined system is analogous to a Turing Machine that is ' +
    'differentiable end-to-end.';
  const preprint = row({
    title: 'Neural Turing Machines',
    url: 'https://arxiv.org/abs/1410.5401v2',
    type: 'preprint',
    authors: ['Alex Graves', 'Greg Wayne'],
    tags: ['dl-testing', 'memory'],
    notes: 'Read the addressing section first.',
    data: {
      arxivId: '1410.5401',
      venue: 'arXiv cs.NE',
      publishedDate: '2014-10-20',
      abstract: ABSTRACT,
    },
  });
  const published = row({
    id: '00000000-0000-4000-8000-000000000003',
    title: 'Attention is all you need',
    url: 'https://arxiv.org/abs/1706.03762',
    type: 'article',
    authors: ['Ashish Vaswani'],
    data: {
      arxivId: '1706.03762v7',
      journal: 'Advances in Neural Information Processing Systems',
      publishedDate: '2017-12',
    },
  });
  const trial = row({
    id: '00000000-0000-4000-8000-000000000004',
    title: 'A randomised trial',
    type: 'article',
    authors: ['Jane Roe'],
    data: {
      pmid: '38799228',
      doi: '10.1016/S0140-6736(24)00001-1',
      journal: 'The Lancet',
      publishedDate: '2024-05-28',
    },
  });

  it('bibtex: an arXiv preprint is @misc with its e-print, a published one @article; months are macros; notes are annote', async () => {
    const { body } = await exportCitations([preprint, published, trial], 'bibtex');
    expect(body).not.toMatch(/journal = \{arXiv/);
    expect(body).toContain('  month = may,');
    const library = parseBibtex(body, { english: false });
    expect(library.errors).toEqual([]);
    const [first, second, third] = library.entries;
    expect(first).toMatchObject({
      type: 'misc',
      fields: {
        eprint: '1410.5401',
        archiveprefix: 'arXiv',
        primaryclass: 'cs.NE',
        month: '10',
        year: '2014',
      },
    });
    expect(first!.fields.journal).toBeUndefined();
    expect(first!.fields.annote).toBe(preprint.notes);
    expect(first!.fields.abstract).toBe(ABSTRACT);
    expect(first!.fields.keywords).toEqual(preprint.tags);
    expect(second).toMatchObject({
      type: 'article',
      fields: {
        journal: published.data.journal,
        eprint: '1706.03762',
        archiveprefix: 'arXiv',
        month: '12',
      },
    });
    expect(second!.fields.primaryclass).toBeUndefined();
    expect(third).toMatchObject({
      type: 'article',
      fields: { pmid: trial.data.pmid, doi: trial.data.doi, month: '5' },
    });
  });

  it('ris: one line per value, never wrapped, no leading space; notes N1, PMID AN, DOI DO; a preprint GEN', async () => {
    const { body } = await exportCitations([preprint, trial], 'ris');
    const lines = body.split('\n').filter(Boolean);
    for (const line of lines) expect(line).toMatch(/^[A-Z][A-Z0-9] {2}- (\S.*)?$/);
    expect(lines).toContain(`AB  - ${ABSTRACT}`);
    expect(lines).toContain('KW  - dl-testing');
    expect(lines).toContain(`AN  - ${String(trial.data.pmid)}`);
    expect(lines).not.toContain('T2  - arXiv cs.NE');
    const [first, second] = new Cite(body, { forceType: '@ris/file' }).data as Array<
      Record<string, unknown>
    >;
    expect(first).toMatchObject({
      title: preprint.title,
      abstract: ABSTRACT,
      note: preprint.notes,
      keyword: 'dl-testing,memory',
      publisher: 'arXiv',
      number: 'arXiv:1410.5401',
    });
    expect(first!['container-title']).toBeUndefined();
    expect(second).toMatchObject({
      type: 'article-journal',
      DOI: trial.data.doi,
      'container-title': trial.data.journal,
    });
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII file name and the exact one encoded', () => {
    expect(contentDisposition('Thèse: "chapitre" 1', 'bib')).toBe(
      `attachment; filename="These-chapitre-1.bib"; filename*=UTF-8''Th%C3%A8se-%20-chapitre-%201.bib`,
    );
    expect(contentDisposition('***', 'ris')).toBe(
      `attachment; filename="workspace.ris"; filename*=UTF-8''-.ris`,
    );
  });
});

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`citation export (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    let workspaceId: string;
    beforeAll(async () => {
      t = await buildTestApp({ leg, build: { resolveResource: fakeResolver } });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
      workspaceId = (await createWorkspace(t.app, owner, { name: 'Deep Learning Reading' })).id;
      await addResource(t.app, owner, workspaceId, {
        resourceId: '10.1038/nature14539',
        tags: ['ml'],
      });
      await addResource(t.app, owner, workspaceId, { resourceId: 'arxiv:1706.03762v5' });
    });
    afterAll(async () => t?.close());

    const get = (query: string, headers: Record<string, string>) =>
      t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}/export${query}`,
        headers,
      });

    describe('GET /api/workspaces/{id}/export', () => {
      it.each(DIALECTS)('exports BibTeX by default as a download (dialect %s)', async (dialect) => {
        const res = await get('', as(owner, dialect));
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
        expect(res.headers['content-disposition']).toBe(
          `attachment; filename="Deep-Learning-Reading.bib"; filename*=UTF-8''Deep%20Learning%20Reading.bib`,
        );
        // Each resource under the key it holds (made when it was added: citation-keys/).
        expect(res.body).toMatch(/^@article\{lecun2015deep,/m);
        expect(res.body).toContain('doi = {10.1038/nature14539}');
        expect(res.body).toContain(
          'author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey}',
        );
        expect(res.body).toMatch(/@\w+\{vaswani2017attention,/);
      });

      it('exports RIS', async () => {
        const res = await get('?format=ris', owner.bearer);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe(
          'application/x-research-info-systems; charset=utf-8',
        );
        expect(res.headers['content-disposition']).toContain(
          'filename="Deep-Learning-Reading.ris"',
        );
        expect(res.body).toContain('TY  - JOUR');
        expect(res.body).toContain('DO  - 10.1038/nature14539');
        expect(res.body).toContain('AU  - LeCun, Yann');
        expect(res.body).toContain('KW  - ml');
        expect(res.body.match(/^ER {2}-/gm)).toHaveLength(2);
      });

      it('exports CSL-JSON as written by the library, not re-encoded', async () => {
        const res = await get('?format=csljson', owner.bearer);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe(
          'application/vnd.citationstyles.csl+json; charset=utf-8',
        );
        expect(res.headers['content-disposition']).toContain(
          'filename="Deep-Learning-Reading.json"',
        );
        const items = JSON.parse(res.body);
        expect(items).toHaveLength(2);
        expect(items.map((item: { title: string }) => item.title).sort()).toEqual([
          'Attention Is All You Need',
          'Deep learning',
        ]);
        expect(items.find((item: { DOI?: string }) => item.DOI)).toMatchObject({
          type: 'article-journal',
          issued: { 'date-parts': [[2015, 5, 27]] },
        });
      });

      it('exports an empty workspace as an empty file', async () => {
        const empty = await createWorkspace(t.app, owner, { name: 'Empty' });
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${empty.id}/export?format=csljson`,
          headers: owner.bearer,
        });
        expect(res.statusCode).toBe(200);
        expect(JSON.parse(res.body)).toEqual([]);
      });

      it('rejects an unknown format naming the field', async () => {
        const res = await get('?format=endnote', owner.bearer);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: { field: 'format' },
        });
      });

      it("answers 404 for another user's workspace, 401 without a session", async () => {
        expect((await get('', stranger.bearer)).statusCode).toBe(404);
        expect((await get('', {})).statusCode).toBe(401);
      });
    });
  });
}

describe('BibTeX and BibLaTeX for the toolchains', () => {
  const titleOf = (bib: string) => /^ {2}title = \{(.*)\},?$/m.exec(bib)?.[1];

  it("protects a provider's title by Better BibTeX's rule, an imported one exactly as it came, an edited one by the rule again", async () => {
    const provider = row({ title: 'Using t-SNE on CRISPR/Cas9 data with BERT, the iPhone and Go' });
    expect(titleOf((await exportCitations([provider], 'bibtex')).body)).toBe(
      'Using t-{SNE} on {CRISPR/Cas9} data with {BERT}, the {iPhone} and Go',
    );
    const title = 'GPT and BERT: Monte Carlo in Python';
    const markup = {
      title:
        'GPT and <span class="nocase">BERT</span>: <span class="nocase">Monte Carlo</span> in <i>Python</i>',
    };
    const imported = row({ title, record: { markup } });
    // Only its braces: GPT was not protected in the file, and is not here.
    expect(titleOf((await exportCitations([imported], 'bibtex')).body)).toBe(
      'GPT and {BERT}: {Monte Carlo} in \\textit{Python}',
    );
    // The title edited since: its old braces no longer apply.
    const edited = row({ title: `${title}, revised`, record: { markup } });
    expect(titleOf((await exportCitations([edited], 'bibtex')).body)).toBe(
      '{GPT} and {BERT}: Monte Carlo in Python, revised',
    );
  });

  it('reads back as the plain title, and a protected group starting with a command is braced twice', async () => {
    const resource = row({
      title: '&Co and Über',
      record: {
        markup: { title: '<span class="nocase">&Co</span> and <span class="nocase">Über</span>' },
      },
    });
    const { body } = await exportCitations([resource], 'bibtex');
    expect(titleOf(body)).toBe('{{\\&Co}} and {{\\"U}ber}');
    const [entry] = parseBibtex(body, { english: false }).entries;
    expect(entry?.fields.title?.normalize('NFC')).toBe('&Co and Über');
  });

  it('writes BibLaTeX: UTF-8, date, journaltitle, location, eprint and eprinttype, pages with --', async () => {
    const preprint = row({
      title: 'Attention Is All You Need',
      type: 'preprint',
      authors: ['Łukasz Kaiser'],
      url: 'https://arxiv.org/abs/1706.03762v5',
      data: { publishedDate: '2017-06-12', primaryCategory: 'cs.CL' },
    });
    const article = row({
      id: '00000000-0000-4000-8000-00000000000c',
      title: 'Über alles',
      type: 'article-journal',
      record: {
        creators: [{ role: 'author', family: 'Müller', given: 'Jürgen' }],
        containerTitle: 'Nature',
        publisherPlace: 'London',
        pages: '484–489',
        issued: { year: 2016, month: 1, end: { year: 2016, month: 2 } },
      },
    });
    const { body, contentType, extension } = await exportCitations([preprint, article], 'biblatex');
    expect({ contentType, extension }).toEqual({
      contentType: 'application/x-bibtex; charset=utf-8',
      extension: 'bib',
    });
    const [online, journal] = parseBibtex(body, { english: false }).entries;
    expect(online).toMatchObject({
      type: 'online',
      fields: {
        date: '2017-06-12',
        eprint: '1706.03762',
        eprinttype: 'arxiv',
        eprintclass: 'cs.CL',
      },
    });
    expect(journal).toMatchObject({
      type: 'article',
      fields: { journaltitle: 'Nature', location: ['London'], date: '2016-01/2016-02' },
    });
    expect(body).toContain('author = {Kaiser, Łukasz}');
    expect(body).toContain('title = {Über alles}');
    expect(body).toContain('pages = {484--489}');
    expect(body).not.toMatch(/^\s*(journal|year|month|address|archivePrefix) =/m);
    // BibTeX: the same letters as LaTeX accents, for classic BibTeX.
    const bibtex = (await exportCitations([preprint, article], 'bibtex')).body;
    expect(bibtex).toContain('author = {Kaiser, {\\L}ukasz}');
    expect(bibtex).toContain('title = {{\\"U}ber alles}');
    expect(bibtex).toContain('author = {M{\\"u}ller, J{\\"u}rgen}');
  });
});
