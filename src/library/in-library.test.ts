/**
 * "In your library" on provider search results, through the whole service on both stores: providers
 * answer from recorded real arXiv bodies (a local fixture server); the marks come from the user's own
 * workspaces only, and the shared provider cache never carries one user's marks into another's reply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../../test/support/api-types.js';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import {
  providerEnvFor,
  startFixtureServer,
  type FixtureServer,
} from '../../test/support/fixture-server.js';
import { addResource, createWorkspace } from '../workspaces/test-support/helpers.js';
import { candidateKeys } from './in-library.js';

/** Saved by its arXiv address; the provider's record also carries a journal DOI, which adding would have keyed it by. */
const SAVED_BY_ARXIV = '2202.12139';
const SAVED_BY_DOI = '10.1145/3395363.3397376';

describe('candidateKeys', () => {
  it("is the work's key and each identifier's own key, without repeats", () => {
    expect(
      candidateKeys({
        doi: '10.1000/X',
        arxivId: '2101.00001v2',
        url: 'https://www.example.org/paper/?utm_source=feed',
        resourceId: 'arxiv:2101.00001v2',
      }),
    ).toEqual(['doi:10.1000/x', 'arxiv:2101.00001', 'url:example.org/paper']);
    // An arXiv address is its arXiv id, whichever field carries it.
    expect(
      candidateKeys({
        url: 'https://arxiv.org/abs/2101.00001v3',
        resourceId: 'arxiv:2101.00001v3',
      }),
    ).toEqual(['arxiv:2101.00001']);
    expect(candidateKeys({})).toEqual([]);
  });
});

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(
    `GET /api/search marks what is in your library (${leg.name})`,
    () => {
      let fixtures: FixtureServer;
      let t: TestApp;
      let owner: TestUser;
      let stranger: TestUser;
      let reading: ApiSchema<'Workspace'>;
      let thesis: ApiSchema<'Workspace'>;
      const saved: Record<string, string> = {};

      const searchAs = async (user?: TestUser) => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/search?q=testing&providers=arxiv&limit=10',
          headers: user?.bearer ?? {},
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<ApiSchema<'SearchReply'>>().results;
      };

      beforeAll(async () => {
        fixtures = await startFixtureServer([
          { path: '/arxiv/query', fixture: 'arxiv/query_all-testing_start0_max10.xml' },
        ]);
        t = await buildTestApp({ leg, env: providerEnvFor(fixtures.url) });
        [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
        [reading, thesis] = await Promise.all([
          createWorkspace(t.app, owner, { name: 'Reading list' }),
          createWorkspace(t.app, owner, { name: 'Thesis' }),
        ]);
        saved.byArxiv = (
          await addResource(t.app, owner, reading.id, {
            title: 'Saved preprint',
            url: `https://arxiv.org/abs/${SAVED_BY_ARXIV}v1`,
          })
        ).id;
        saved.byDoi = (
          await addResource(t.app, owner, thesis.id, {
            title: 'Saved article',
            data: { doi: SAVED_BY_DOI },
          })
        ).id;
        // The stranger holds the same work: the owner must not see where.
        const theirs = await createWorkspace(t.app, stranger, { name: 'Not yours' });
        await addResource(t.app, stranger, theirs.id, {
          title: 'Their copy',
          url: `https://arxiv.org/abs/${SAVED_BY_ARXIV}`,
        });
      });
      afterAll(async () => {
        await t?.close();
        await fixtures?.close();
      });

      it('says where each result already is in your workspaces, by the identifiers adding uses', async () => {
        const results = await searchAs(owner);
        const byArxiv = results.find((result) => result.arxivId === SAVED_BY_ARXIV);
        const byDoi = results.find((result) => result.doi === SAVED_BY_DOI);
        expect(byArxiv?.doi).toBeDefined();
        expect(byArxiv?.inLibrary).toEqual([
          { workspaceId: reading.id, workspaceName: 'Reading list', resourceId: saved.byArxiv },
        ]);
        expect(byDoi?.inLibrary).toEqual([
          { workspaceId: thesis.id, workspaceName: 'Thesis', resourceId: saved.byDoi },
        ]);
        const others = results.filter((result) => result !== byArxiv && result !== byDoi);
        expect(others.length).toBeGreaterThan(0);
        expect(
          others.every(
            (result) => Array.isArray(result.inLibrary) && result.inLibrary.length === 0,
          ),
        ).toBe(true);
      });

      it("never carries one user's library into another's reply, cached or not, and says nothing to a visitor", async () => {
        await searchAs(owner);
        const theirs = await searchAs(stranger);
        const marked = theirs.filter((result) => result.inLibrary?.length);
        expect(
          marked.map((result) => [
            result.arxivId,
            result.inLibrary?.map((place) => place.workspaceName),
          ]),
        ).toEqual([[SAVED_BY_ARXIV, ['Not yours']]]);
        const visitor = await searchAs();
        expect(visitor.length).toBeGreaterThan(0);
        expect(visitor.some((result) => 'inLibrary' in result)).toBe(false);
      });
    },
  );
}
