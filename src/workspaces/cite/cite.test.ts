/**
 * GET /api/workspaces/{id}/cite and GET /api/citation-styles. Expected references are written from
 * the style guides (APA 7, MLA 9, CMOS 18 author-date, IEEE, NLM/Vancouver), not from this code's output:
 * what each guide fixes for a three-author arXiv preprint and a journal article (name order and
 * initials, "&"/"and"/"et al.", where the year goes, quotes or italics, numbering, in-text form).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../../../test/support/api-types.js';
import { buildTestApp, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { addResource, createWorkspace, fakeResolver, UNKNOWN_ID } from '../test-support/helpers.js';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let workspaceId: string;
let ntm: string;
let lovelace: string;
/** Stored as it is (it is text, not markup): HTML must escape its `<`, `&` and `>`. */
const LOVELACE_TITLE = 'When p < 0.05 & n > 30';

beforeAll(async () => {
  t = await buildTestApp({ build: { resolveResource: fakeResolver } });
  [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
  workspaceId = (await createWorkspace(t.app, owner)).id;
  ntm = (
    await addResource(t.app, owner, workspaceId, {
      title: 'Neural Turing Machines',
      url: 'https://arxiv.org/abs/1410.5401',
      type: 'preprint',
      authors: ['Alex Graves', 'Greg Wayne', 'Ivo Danihelka'],
      notes: 'Private reading note',
      data: {
        arxivId: '1410.5401',
        venue: 'arXiv cs.NE',
        publishedDate: '2014-10-20',
        doi: '10.48550/arXiv.1410.5401',
      },
    })
  ).id;
  lovelace = (
    await addResource(t.app, owner, workspaceId, {
      title: LOVELACE_TITLE,
      type: 'article',
      authors: ['Ada Lovelace'],
      data: {
        venue: 'Journal of Tests',
        volume: '3',
        issue: '2',
        pages: '10-20',
        year: 2020,
        doi: '10.1234/abc',
      },
    })
  ).id;
}, 60_000);
afterAll(async () => t?.close());

interface Citations {
  style: { id: string; shortTitle: string };
  format: string;
  bibliography: string;
  citation: string;
}

async function cite(
  style: string,
  ids: string[],
  format = 'text',
  user = owner,
  workspace = workspaceId,
) {
  const query = new URLSearchParams([
    ...ids.map((id): [string, string] => ['resourceIds', id]),
    ['style', style],
    ['format', format],
  ]);
  return t.app.inject({
    method: 'GET',
    url: `/api/workspaces/${workspace}/cite?${query}`,
    headers: user.bearer,
  });
}

async function citeOk(style: string, ids: string[], format = 'text'): Promise<Citations> {
  const res = await cite(style, ids, format);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Citations>();
}

/** The reference lines of a text bibliography. */
const entries = (bibliography: string) =>
  bibliography
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

describe('GET /api/workspaces/:id/cite', () => {
  it('APA 7: surname and initials, "&" before the last author, (year), DOI as a URL; in text "(First et al., year)" for three or more authors', async () => {
    const body = await citeOk('apa', [ntm]);
    expect(body.style).toMatchObject({ id: 'apa', shortTitle: 'APA' });
    expect(body.bibliography).toMatch(
      /^Graves, A\., Wayne, G\., & Danihelka, I\. \(2014\)\. Neural Turing Machines\b.*\barXiv\b.*https:\/\/doi\.org\/10\.48550\/arXiv\.1410\.5401$/,
    );
    expect(body.citation).toBe('(Graves et al., 2014)');
    // The user's notes are theirs, not part of the reference.
    expect(body.bibliography).not.toContain('Private reading note');
  });

  it('APA 7 orders the reference list by author, whatever order the resources were named in, and cites both in text', async () => {
    const body = await citeOk('apa', [lovelace, ntm]);
    const lines = entries(body.bibliography);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Graves, A\./);
    // Journal article: Journal, volume(issue), pages with an en dash.
    expect(lines[1]).toMatch(
      /^Lovelace, A\. \(2020\)\. .+\. Journal of Tests, 3\(2\), 10–20\. https:\/\/doi\.org\/10\.1234\/abc$/,
    );
    expect(body.citation).toBe('(Graves et al., 2014; Lovelace, 2020)');
  });

  it('MLA 9: "Surname, Given, et al." for three or more authors, the title in quotation marks; in text without a year', async () => {
    const body = await citeOk('modern-language-association', [ntm]);
    expect(body.bibliography).toMatch(/^Graves, Alex, et al\. “Neural Turing Machines\.” /);
    expect(body.citation).toBe('(Graves et al.)');
  });

  it(
    'Chicago author-date (18th): all authors, the first inverted, "and" ' +
      'before the last, the year after the names; in text "(First et al. year)"',
    async () => {
      const body = await citeOk('chicago-author-date', [ntm]);
      expect(body.bibliography).toMatch(
        /^Graves, Alex, Greg Wayne, and Ivo Danihelka\. 2014\. “Neural Turing Machines\.” /,
      );
      expect(body.citation).toBe('(Graves et al. 2014)');
    },
  );

  it('IEEE: numbered in the order cited, initials before surname, title in quotation marks; in text "[1], [2]"', async () => {
    const body = await citeOk('ieee', [lovelace, ntm]);
    const lines = entries(body.bibliography);
    expect(lines[0]).toMatch(
      /^\[1\]\s*A\. Lovelace, “When p < 0\.05 & n > 30,” Journal of Tests, vol\. 3, no\. 2, pp\. 10–20, 2020/,
    );
    expect(lines[1]).toMatch(
      /^\[2\]\s*A\. Graves, G\. Wayne, and I\. Danihelka, “Neural Turing Machines,”/,
    );
    expect(body.citation).toBe('[1], [2]');
  });

  it('Vancouver: numbered, "Surname Initials" separated by commas, no full stops in initials', async () => {
    const body = await citeOk('vancouver', [ntm]);
    expect(body.bibliography).toMatch(
      /^1\.\s*Graves A, Wayne G, Danihelka I\. Neural Turing Machines\b/,
    );
    expect(body.citation).toBe('(1)');
  });

  it('HTML: every value escaped, the journal and volume in italics as APA asks', async () => {
    const body = await citeOk('apa', [lovelace], 'html');
    expect(body.format).toBe('html');
    expect(body.bibliography).not.toContain('p < 0.05');
    const entry = /<div[^>]*class="csl-entry"[^>]*>(.*)<\/div>/s.exec(body.bibliography)?.[1] ?? '';
    // Read back as a browser would, the escaped title is the stored one.
    const decoded = entry
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
    expect(decoded).toContain(`(2020). ${LOVELACE_TITLE}. `);
    expect(entry).toMatch(/<i>Journal of Tests<\/i>, <i>3<\/i>\(2\)/);
  });

  it('refuses an unknown style, no resource, too many resources and a malformed id, naming the field', async () => {
    for (const [query, field] of [
      [`resourceIds=${ntm}&style=not-a-style`, 'style'],
      ['style=apa', 'resourceIds'],
      [
        `${Array.from({ length: 101 }, () => `resourceIds=${crypto.randomUUID()}`).join('&')}`,
        'resourceIds',
      ],
      ['resourceIds=nope', 'resourceIds'],
      [`resourceIds=${ntm}&format=pdf`, 'format'],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}/cite?${query}`,
        headers: owner.bearer,
      });
      expect(res.statusCode, query.slice(0, 80)).toBe(400);
      expect(String(res.json().error.details.field)).toContain(field);
    }
  });

  it("needs a session (401); another user's workspace, and a resource of another workspace, are not found (404)", async () => {
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${workspaceId}/cite?resourceIds=${ntm}`,
        })
      ).statusCode,
    ).toBe(401);
    expect((await cite('apa', [ntm], 'text', stranger)).statusCode).toBe(404);
    const theirs = (await createWorkspace(t.app, stranger)).id;
    const theirResource = (await addResource(t.app, stranger, theirs, { title: 'Theirs' })).id;
    expect((await cite('apa', [ntm, theirResource])).statusCode).toBe(404);
    expect((await cite('apa', [UNKNOWN_ID])).statusCode).toBe(404);
  });
});

describe('GET /api/citation-styles', () => {
  it('lists the five common styles first, and finds a style by any word of its name', async () => {
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/citation-styles',
      headers: owner.bearer,
    });
    expect(all.statusCode).toBe(200);
    const styles = all.json<ApiSchema<'CitationStyles'>>().styles;
    expect(styles.slice(0, 5).map((style) => style.shortTitle)).toEqual([
      'APA',
      'MLA',
      'Chicago',
      'IEEE',
      'Vancouver',
    ]);
    const found = async (q: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/citation-styles?q=${encodeURIComponent(q)}`,
          headers: owner.bearer,
        })
      )
        .json<ApiSchema<'CitationStyles'>>()
        .styles.map((style) => style.id);
    expect((await found('modern language'))[0]).toBe('modern-language-association');
    expect((await found('AMA manual'))[0]).toBe('american-medical-association');
    expect(await found('no such style')).toEqual([]);
    // At most 50 of every style that matches: `total` counts them all.
    const many = (
      await t.app.inject({
        method: 'GET',
        url: '/api/citation-styles?q=journal',
        headers: owner.bearer,
      })
    ).json<ApiSchema<'CitationStyles'>>();
    expect(many.styles).toHaveLength(50);
    expect(many.total).toBeGreaterThan(50);
    expect(many.hasMore).toBe(true);
    expect(all.json<ApiSchema<'CitationStyles'>>()).toMatchObject({
      total: styles.length,
      hasMore: false,
    });
    // Beyond the common ones: any style of the CSL repository, by its name.
    expect(await found('elsevier harvard')).toContain('elsevier-harvard');
    expect(await found('physical review letters')).toContain('physical-review-letters');
    // Every listed style formats.
    for (const { id } of styles) expect((await cite(id, [ntm])).statusCode, id).toBe(200);
  }, 30_000);

  it("formats with any style of the repository: an independent one by name, a journal's dependent one as its parent does", async () => {
    // Elsevier Harvard (with titles): "Surname, Initials., Surname, Initials., year. Title."; in text "(Surname et al., year)".
    const harvard = await citeOk('elsevier-harvard', [ntm]);
    expect(harvard.bibliography).toMatch(
      /^Graves, A\., Wayne, G\., Danihelka, I\., 2014\. Neural Turing Machines/,
    );
    expect(harvard.citation).toBe('(Graves et al., 2014)');
    // Nature Communications cites as Nature does: numbered, "Surname, I., Surname, I. & Surname, I."
    const journal = await t.app.inject({
      method: 'GET',
      url: '/api/citation-styles?q=nature%20communications',
      headers: owner.bearer,
    });
    expect(journal.json<ApiSchema<'CitationStyles'>>().styles).toContainEqual(
      expect.objectContaining({ id: 'nature-communications', basedOn: 'nature' }),
    );
    const dependent = await citeOk('nature-communications', [ntm, lovelace]);
    const parent = await citeOk('nature', [ntm, lovelace]);
    expect(dependent.bibliography).toBe(parent.bibliography);
    expect(entries(dependent.bibliography)[0]).toMatch(
      /^1\.\s*Graves, A\., Wayne, G\. & Danihelka, I\./,
    );
  });

  it('needs a session and bounds the query', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/citation-styles' })).statusCode).toBe(
      401,
    );
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/citation-styles?q=${'x'.repeat(101)}`,
          headers: owner.bearer,
        })
      ).statusCode,
    ).toBe(400);
  });
});
