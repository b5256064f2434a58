import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { eq } from 'drizzle-orm';
import { annotations, workspaceResources, workspaces } from '../../platform/db/schema.js';
import { LIMITS } from '../schemas.js';
import { SHARE_PAGE_LIMITS } from './share-page.js';
import { createWorkspace, shareWorkspace } from '../test-support/helpers.js';

const RESOURCES = 500;
const ANNOTATIONS_EACH = 20;
/** Resources a page shows: the first page holds the newest, the last the oldest. */
const PER_PAGE = 25;
/** The measured bound: a page of this workspace, whatever it holds, stays under it. */
const MAX_PAGE_BYTES = 512 * 1024;

const words = (n: number, word: string) =>
  Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`public share page limits (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let token: string;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
      owner = await buildUser(t.app);
      const workspace = await createWorkspace(t.app, owner, { name: 'Big reading list' });
      token = (await shareWorkspace(t.app, owner, workspace.id)).token;
      // 500 resources, each text over what the page shows, written straight to the store. The 50 the
      // first and last pages show have 20 long annotations each; the 450 between them one short one
      // each, which no page read here may show. A page renders its own 25 resources' annotations only,
      // so the others' are there to be left out, not to weigh (10,000 long ones took most of the file's time).
      const db = t.app.ctx.db;
      const base = Date.now() - RESOURCES * 1000;
      const resourceRows = await db
        .insert(workspaceResources)
        .values(
          Array.from({ length: RESOURCES }, (_, i) => ({
            workspaceId: workspace.id,
            title: `Resource ${String(i).padStart(3, '0')}`,
            notes: words(400, 'note'),
            tags: ['bulk'],
            authors: ['Ada Lovelace'],
            createdAt: new Date(base + i * 1000),
          })),
        )
        .returning({ id: workspaceResources.id });
      const shown = (i: number) => i < PER_PAGE || i >= RESOURCES - PER_PAGE;
      const annotationRows = resourceRows.flatMap(({ id }, i) =>
        shown(i)
          ? Array.from({ length: ANNOTATIONS_EACH }, (_, j) => ({
              resourceId: id,
              userId: owner.id,
              body: words(200, `body${j}-`),
              highlights: {
                ranges: [0, 1, 2, 3].map((k) => ({
                  start: k,
                  end: k + 1,
                  text: words(60, 'quote'),
                })),
              },
            }))
          : [{ resourceId: id, userId: owner.id, body: `offpage${i}` }],
      );
      for (let i = 0; i < annotationRows.length; i += 1000)
        await db.insert(annotations).values(annotationRows.slice(i, i + 1000));
    }, 120_000);
    afterAll(async () => t?.close());

    const view = (query = '') => t.app.inject({ method: 'GET', url: `/share/${token}${query}` });
    const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

    it(`shows 25 resources a page, at most 5 annotations each, under ${MAX_PAGE_BYTES} bytes`, async () => {
      const res = await view();
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.byteLength).toBeLessThan(MAX_PAGE_BYTES);
      const html = res.body;
      expect(count(html, /<li class="resource">/g)).toBe(25);
      expect(count(html, /class="annotation-body[ "]/g)).toBe(25 * 5);
      expect(count(html, /and 15 more annotations/g)).toBe(25);
      expect(html).toContain(`${RESOURCES} resources`);
      expect(html).toContain('Page 1 of 20');
      expect(html).toContain('href="?page=2" rel="next"');
      // Newest first: the last resource inserted opens the first page.
      expect(html.indexOf('Resource 499')).toBeGreaterThan(-1);
      expect(html).not.toContain('Resource 474');
      expect(html).not.toContain('offpage');
    });

    it('pages through every resource exactly once', async () => {
      const last = await view('?page=20');
      expect(last.statusCode).toBe(200);
      expect(count(last.body, /<li class="resource">/g)).toBe(25);
      expect(last.body).toContain('Resource 000');
      expect(last.body).toContain('href="?page=19" rel="prev"');
      expect(last.body).not.toContain('rel="next"');
      expect(count(last.body, /and 15 more annotations/g)).toBe(25);
      expect(last.body).not.toContain('offpage');
      const beyond = await view('?page=21');
      expect(count(beyond.body, /<li class="resource">/g)).toBe(0);
    });

    it('refuses a page number that is not a positive integer', async () => {
      expect((await view('?page=0')).statusCode).toBe(400);
      expect((await view('?page=abc')).statusCode).toBe(400);
    });
  });
}

/** Text that grows most when escaped: `"` is 6 bytes as `&quot;`, `&` 5 as `&amp;`. */
const escapesMost = (length: number) => '"&'.repeat(Math.ceil(length / 2)).slice(0, length);

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(
    `public share page of quotes and ampersands (${leg.name})`,
    () => {
      let t: TestApp;
      let token: string;
      beforeAll(async () => {
        t = await buildTestApp({ leg });
        const owner = await buildUser(t.app);
        const workspace = await createWorkspace(t.app, owner, { name: 'Escapes' });
        token = (await shareWorkspace(t.app, owner, workspace.id)).token;
        const db = t.app.ctx.db;
        // Every text at the most the API accepts (LIMITS), made of the characters that grow most when escaped.
        await db
          .update(workspaces)
          .set({
            name: escapesMost(LIMITS.workspaceName),
            description: escapesMost(LIMITS.description),
          })
          .where(eq(workspaces.id, workspace.id));
        const resourceRows = await db
          .insert(workspaceResources)
          .values(
            Array.from({ length: SHARE_PAGE_LIMITS.resourcesPerPage }, () => ({
              workspaceId: workspace.id,
              title: escapesMost(LIMITS.title),
              url: `https://example.org/?${'"&'.repeat(LIMITS.url / 2 - 20)}`,
              type: escapesMost(LIMITS.type),
              notes: escapesMost(LIMITS.notes),
              tags: Array.from(
                { length: LIMITS.tags },
                (_, i) => `${i}${escapesMost(LIMITS.tag - 2)}`,
              ),
              authors: Array.from({ length: LIMITS.authors }, () => escapesMost(LIMITS.author)),
            })),
          )
          .returning({ id: workspaceResources.id });
        await db.insert(annotations).values(
          resourceRows.flatMap(({ id }) =>
            Array.from({ length: SHARE_PAGE_LIMITS.annotationsPerResource + 1 }, () => ({
              resourceId: id,
              userId: owner.id,
              body: escapesMost(LIMITS.annotationBody),
              highlights: {
                ranges: Array.from({ length: 4 }, (_, k) => ({
                  start: k,
                  end: k + 1,
                  text: escapesMost(LIMITS.highlightText),
                })),
              },
            })),
          ),
        );
      }, 120_000);
      afterAll(async () => t?.close());

      it(`stays under ${MAX_PAGE_BYTES} bytes once escaped, with every text shortened and still escaped`, async () => {
        const res = await t.app.inject({ method: 'GET', url: `/share/${token}` });
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.byteLength).toBeLessThan(MAX_PAGE_BYTES);
        const html = res.body;
        expect(html.match(/<li class="resource">/g)).toHaveLength(
          SHARE_PAGE_LIMITS.resourcesPerPage,
        );
        expect(html.match(/class="annotation-body[ "]/g)).toHaveLength(
          SHARE_PAGE_LIMITS.resourcesPerPage * SHARE_PAGE_LIMITS.annotationsPerResource,
        );
        // Shortened texts end with an ellipsis, and no raw quote or ampersand of the texts reaches the page.
        expect(html).toContain('&quot;&amp;…</p>');
        const body = html.slice(html.indexOf('<body>'));
        expect(body.replace(/&(?:quot|amp|lt|gt|#39);/g, '').match(/[&]/g)).toBeNull();
      });
    },
  );
}

describe('public share page rate limit', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_SHARE_PAGE_PER_MINUTE_PER_IP: '3' } });
    const owner = await buildUser(t.app);
    const workspace = await createWorkspace(t.app, owner, { name: 'Popular' });
    token = (await shareWorkspace(t.app, owner, workspace.id)).token;
  });
  afterAll(async () => t?.close());

  it('answers 429 with Retry-After past the per-address limit, for unknown tokens too', async () => {
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url: `/share/${token}` })).statusCode).toBe(200);
    const limited = await t.app.inject({ method: 'GET', url: `/share/${token}` });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(limited.body).toContain('Too many requests');
    expect(
      (await t.app.inject({ method: 'GET', url: '/share/unknown-token-guess' })).statusCode,
    ).toBe(429);
    // Another address has its own count.
    expect(
      (await t.app.inject({ method: 'GET', url: `/share/${token}`, remoteAddress: '192.0.2.7' }))
        .statusCode,
    ).toBe(200);
  });
});
