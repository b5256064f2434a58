/**
 * GET /api/works/{id}/references | citations | similar and GET /api/workspaces/{id}/suggestions through
 * the whole service, OpenAlex and Semantic Scholar pointed at a local server answering with recorded
 * real bodies (test/fixtures/providers/SOURCES.md). The OpenAlex list answers are recordings of other
 * `/works?filter=` requests of the same endpoint: the shape is real, the works are not that paper's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../../test/support/api-types.js';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import {
  providerEnvFor,
  readFixture,
  startFixtureServer,
  type FixtureServer,
} from '../../test/support/fixture-server.js';
import { parseScrape, seriesValue } from '../../test/support/prometheus-text.js';
import { addResource, createWorkspace } from '../workspaces/test-support/helpers.js';

const PAPER_DOI = '10.2139/ssrn.2250500';
const OTHER_DOI = '10.1000/other-paper';
const REFERENCES =
  'semanticscholar/paper_references_doi-10.2139_ssrn.2250500_fields-title_offset0_limit50.json';
const CITATIONS =
  'semanticscholar/paper_citations_corpusid-14514057_fields-title_offset0_limit100.json';
const RECOMMENDATIONS =
  'semanticscholar/recommendations_forpaper_doi-10.2139_ssrn.2250500_fields-title_limit100.json';
const OPENALEX_WORK = 'openalex/work_by_doi_10.1016_j.xgen.2025.100814.json';
const OPENALEX_LIST =
  'openalex/works_filter-fulltext.search_toast-AND-biodiversity_cursor_per-page200_TRIMMED-first10.json';

type RelatedBody = ApiSchema<'RelatedWorksReply'>;

/** The recorded bodies' works, read independently of the code under test. */
const recordedReferences = JSON.parse(readFixture(REFERENCES)) as {
  data: Array<{ citedPaper: { paperId: string | null; title: string } }>;
};
const referencedPapers = recordedReferences.data
  .map((edge) => edge.citedPaper)
  .filter((paper) => paper.paperId !== null);
const openalexWork = JSON.parse(readFixture(OPENALEX_WORK)) as {
  referenced_works: string[];
  related_works: string[];
};
const openalexList = JSON.parse(readFixture(OPENALEX_LIST)) as {
  results: Array<{ id: string; title: string }>;
};

for (const leg of embeddedLeg())
  describe.skipIf(leg.skipReason)(`discover routes (${leg.name})`, () => {
    let fixtures: FixtureServer;
    let t: TestApp;
    let alice: TestUser;
    let bob: TestUser;

    beforeAll(async () => {
      fixtures = await startFixtureServer([
        { path: `/openalex/works/doi:${PAPER_DOI}`, fixture: OPENALEX_WORK },
        { path: '/openalex/works', query: { filter: /^openalex:/ }, fixture: OPENALEX_LIST },
        {
          path: /^\/openalex\/works\//,
          status: 404,
          fixture: 'openalex/error_404_work_not_found.html',
        },
        { path: `/semanticscholar/paper/DOI:${PAPER_DOI}/references`, fixture: REFERENCES },
        // Another paper's references: the same recorded body, so that every work in it is cited by both.
        { path: `/semanticscholar/paper/DOI:${OTHER_DOI}/references`, fixture: REFERENCES },
        { path: '/semanticscholar/paper/CorpusID:14514057/citations', fixture: CITATIONS },
        {
          path: `/semanticscholar/recommendations/v1/papers/forpaper/DOI:${PAPER_DOI}`,
          fixture: RECOMMENDATIONS,
        },
        {
          path: '/semanticscholar/paper/DOI:10.1000/limited/references',
          status: 429,
          fixture: 'semanticscholar/error_429_too_many_requests.json',
        },
        {
          path: /^\/semanticscholar\//,
          status: 404,
          fixture: 'semanticscholar/error_404_paper_not_found.json',
        },
      ]);
      t = await buildTestApp({
        leg,
        env: { ...providerEnvFor(fixtures.url), SEARCH_PROVIDER_TIMEOUT_MS: '3000' },
      });
      alice = await buildUser(t.app);
      bob = await buildUser(t.app);
    });
    afterAll(async () => {
      await t?.close();
      await fixtures?.close();
    });

    const get = (url: string, user?: TestUser) =>
      t.app.inject({ method: 'GET', url, ...(user ? { headers: user.bearer } : {}) });
    const encoded = encodeURIComponent(PAPER_DOI);

    describe('GET /api/works/{id}/references', () => {
      it('merges both providers’ references of a DOI, skips unmatched ones, pages them, and caches the answers', async () => {
        const res = await get(`/api/works/${encoded}/references?limit=25`);
        expect(res.statusCode).toBe(200);
        const body = res.json<RelatedBody>();
        expect(body.relation).toBe('references');
        expect(body.providers).toEqual([
          expect.objectContaining({
            id: 'openalex',
            status: 'ok',
            count: openalexList.results.length,
          }),
          expect.objectContaining({
            id: 'semanticscholar',
            status: 'ok',
            count: referencedPapers.length,
          }),
        ]);
        expect(body.total).toBe(openalexList.results.length + referencedPapers.length);
        expect(body.results).toHaveLength(25);
        expect(body.hasMore).toBe(true);
        // OpenAlex was asked for the first 50 of the work's references, in the work's order.
        const asked = fixtures.requestsTo('/openalex/works').at(-1)?.query.get('filter');
        expect(asked).toBe(
          `openalex:${openalexWork.referenced_works
            .slice(0, 50)
            .map((id) => id.replace('https://openalex.org/', ''))
            .join('|')}`,
        );
        // Known citation counts (OpenAlex's) first, most cited first.
        const counts = body.results
          .slice(0, openalexList.results.length)
          .map((result) => result.citations);
        // A count the document allows to be unknown (null) sorts as 0, as it did before it was typed.
        expect(counts).toEqual([...counts].sort((a, b) => (b ?? 0) - (a ?? 0)));
        expect(counts[0]).toBeGreaterThan(0);
        const titles = body.results.map((result) => result.title);

        // The next page lies within the same 50 per provider: served from the cached answers.
        const second = await get(`/api/works/${encoded}/references?limit=25&offset=25`);
        const next = second.json<RelatedBody>();
        expect(next.results).toHaveLength(body.total - 25);
        expect(next.hasMore).toBe(false);
        const allTitles = new Set([...titles, ...next.results.map((result) => result.title)]);
        expect(allTitles.size).toBe(body.total);
        for (const paper of referencedPapers) expect(allTitles).toContain(paper.title);
        for (const work of openalexList.results) expect(allTitles).toContain(work.title);
        // The second page came from the cached answers: nothing more was asked upstream.
        expect(
          fixtures.requestsTo(`/semanticscholar/paper/DOI:${PAPER_DOI}/references`),
        ).toHaveLength(1);
        expect(fixtures.requestsTo('/openalex/works')).toHaveLength(1);

        // Each provider call shows in /metrics as a `related` operation.
        const scrape = parseScrape((await get('/metrics')).body);
        expect(
          seriesValue(scrape, 'search_provider_calls_total', {
            provider: 'semanticscholar',
            operation: 'related',
            outcome: 'ok',
          }),
        ).toBeGreaterThanOrEqual(1);
        expect(
          seriesValue(scrape, 'search_provider_calls_total', {
            provider: 'openalex',
            operation: 'related',
            outcome: 'ok',
          }),
        ).toBeGreaterThanOrEqual(1);
      });

      it('says which of the results are already in the signed-in user’s workspaces', async () => {
        const workspace = await createWorkspace(t.app, alice, { name: 'Microfinance' });
        const paper = referencedPapers[0]!;
        const saved = await addResource(t.app, alice, workspace.id, {
          title: paper.title,
          url: `https://www.semanticscholar.org/paper/${paper.paperId}`,
        });
        const all = (
          await get(`/api/works/${encoded}/references?limit=50`, alice)
        ).json<RelatedBody>().results;
        const marked = all.filter((result) => (result.inLibrary ?? []).length > 0);
        expect(marked.map((result) => result.title)).toEqual([paper.title]);
        expect(marked[0]!.inLibrary).toEqual([
          expect.objectContaining({ workspaceId: workspace.id, resourceId: saved.id }),
        ]);
        // Bob's view marks nothing of Alice's.
        const bobs = (
          await get(`/api/works/${encoded}/references?limit=50`, bob)
        ).json<RelatedBody>();
        expect(bobs.results.every((result) => result.inLibrary?.length === 0)).toBe(true);
      });

      it('follows a saved resource by its DOI, and answers 404 for another user’s', async () => {
        const workspace = await createWorkspace(t.app, alice, { name: 'Saved' });
        const saved = await addResource(t.app, alice, workspace.id, {
          title: 'Microcredit paper',
          data: { doi: PAPER_DOI },
        });
        const own = await get(`/api/works/${saved.id}/references`, alice);
        expect(own.statusCode).toBe(200);
        expect(own.json<RelatedBody>().total).toBe(
          openalexList.results.length + referencedPapers.length,
        );
        expect((await get(`/api/works/${saved.id}/references`, bob)).statusCode).toBe(404);
        expect((await get(`/api/works/${saved.id}/references`)).statusCode).toBe(404);
      });

      it('reports a rate-limited provider and still answers with the others', async () => {
        const res = await get(`/api/works/${encodeURIComponent('doi:10.1000/limited')}/references`);
        expect(res.statusCode).toBe(200);
        expect(res.json<RelatedBody>().providers).toEqual([
          expect.objectContaining({ id: 'openalex', status: 'ok', count: 0 }),
          expect.objectContaining({ id: 'semanticscholar', status: 'rate_limited', count: 0 }),
        ]);
      });

      it('refuses what no graph provider can identify (404) and bad paging (400, the field named)', async () => {
        expect((await get('/api/works/youtube%3AdQw4w9WgXcQ/references')).statusCode).toBe(404);
        expect((await get('/api/works/not-an-identifier/references')).statusCode).toBe(404);
        const bad = await get(`/api/works/${encoded}/references?limit=51`);
        expect(bad.statusCode).toBe(400);
        expect(bad.body).toContain('limit');
        expect((await get(`/api/works/${encoded}/references?offset=200`)).statusCode).toBe(400);
      });
    });

    describe('GET /api/works/{id}/citations and /similar', () => {
      it('reads Semantic Scholar citations by its own id; OpenAlex, which cannot identify it, is `disabled`', async () => {
        const res = await get(
          `/api/works/${encodeURIComponent('semantic:CorpusID:14514057')}/citations?limit=10`,
        );
        expect(res.statusCode).toBe(200);
        const body = res.json<RelatedBody>();
        const recorded = (
          JSON.parse(readFixture(CITATIONS)) as {
            data: Array<{ citingPaper: { paperId: string | null } }>;
          }
        ).data.filter((edge) => edge.citingPaper.paperId);
        expect(body.total).toBe(recorded.length);
        expect(body.providers).toEqual([
          expect.objectContaining({ id: 'openalex', status: 'disabled' }),
          expect.objectContaining({ id: 'semanticscholar', status: 'ok' }),
        ]);
        expect(body.results).toHaveLength(10);
      });

      it('merges OpenAlex related works and Semantic Scholar recommendations', async () => {
        const body = (await get(`/api/works/${encoded}/similar?limit=50`)).json<RelatedBody>();
        expect(body.providers.map((provider) => provider.status)).toEqual(['ok', 'ok']);
        const recommended = (
          JSON.parse(readFixture(RECOMMENDATIONS)) as { recommendedPapers: unknown[] }
        ).recommendedPapers;
        expect(body.total).toBe(openalexList.results.length + recommended.length);
        expect(fixtures.requestsTo('/openalex/works').at(-1)?.query.get('filter')).toBe(
          `openalex:${openalexWork.related_works.map((id) => id.replace('https://openalex.org/', '')).join('|')}`,
        );
      });
    });

    describe('GET /api/workspaces/{id}/suggestions', () => {
      it('ranks works cited by several resources, leaves out the workspace’s own, and is 404 for others and 401 without a session', async () => {
        const carol = await buildUser(t.app);
        const workspace = await createWorkspace(t.app, carol, { name: 'Co-citation' });
        const first = await addResource(t.app, carol, workspace.id, {
          title: 'First paper',
          data: { doi: PAPER_DOI },
        });
        const second = await addResource(t.app, carol, workspace.id, {
          title: 'Second paper',
          data: { doi: OTHER_DOI },
        });
        const own = referencedPapers[1]!;
        await addResource(t.app, carol, workspace.id, {
          title: own.title,
          url: `https://www.semanticscholar.org/paper/${own.paperId}`,
        });

        const res = await get(`/api/workspaces/${workspace.id}/suggestions?limit=50`, carol);
        expect(res.statusCode).toBe(200);
        const body = res.json<ApiSchema<'WorkspaceSuggestionsReply'>>();
        expect(body.looked).toBe(2);
        // Every Semantic Scholar reference is cited by both papers (the same recorded list); OpenAlex's
        // list is only the first paper's (the second one is unknown there).
        const titles = body.suggestions.map((suggestion) => suggestion.result.title);
        expect(titles).not.toContain(own.title);
        expect(new Set(titles)).toEqual(
          new Set(
            referencedPapers
              .filter((paper) => paper.paperId !== own.paperId)
              .map((paper) => paper.title),
          ),
        );
        for (const suggestion of body.suggestions) {
          expect(suggestion.connections).toBe(2);
          expect(new Set(suggestion.resourceIds)).toEqual(new Set([first.id, second.id]));
        }
        expect(body).toMatchObject({ total: body.suggestions.length, hasMore: false });
        // One list shape: `limit` of `total`, and whether more were found.
        const one = (await get(`/api/workspaces/${workspace.id}/suggestions?limit=1`, carol)).json<
          ApiSchema<'WorkspaceSuggestionsReply'>
        >();
        expect(one.suggestions).toHaveLength(1);
        expect(one).toMatchObject({ total: body.total, hasMore: true });

        expect((await get(`/api/workspaces/${workspace.id}/suggestions`, bob)).statusCode).toBe(
          404,
        );
        expect((await get(`/api/workspaces/${workspace.id}/suggestions`)).statusCode).toBe(401);
      });
    });
  });
