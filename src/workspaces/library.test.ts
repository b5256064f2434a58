/**
 * The library view's API: a workspace's resources sorted, filtered and paged
 * (GET /api/workspaces/{id}/resources), and the bulk routes under /resources/bulk (tag, move, remove).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { annotations, workspaceResources } from '../platform/db/schema.js';
import { LIMITS } from './schemas.js';
import {
  addResource,
  annotate,
  createWorkspace,
  fakeResolver,
  UNKNOWN_ID,
} from './test-support/helpers.js';

interface Listed {
  id: string;
  title: string;
  year: number | null;
  venue: string | null;
  tags: string[];
  annotations: unknown[];
}

/** Five resources whose keys disagree: each sort gives a different order. Nulls (no year, venue, author) in `Untitled notes`. */
const LIBRARY = [
  {
    title: 'Attention is all you need',
    authors: ['Ashish Vaswani', 'Noam Shazeer', 'Łukasz Kaiser'],
    type: 'preprint',
    tags: ['nlp', 'Transformers'],
    data: { publishedDate: '2017-06-12', venue: 'NeurIPS', doi: '10.1/attention' },
  },
  {
    title: 'deep learning',
    authors: ['LeCun, Yann', 'Yoshua Bengio'],
    type: 'article',
    tags: ['review'],
    data: { publishedDate: '2015-05-27', journal: 'Nature', doi: '10.1/deep' },
  },
  {
    title: 'Backpropagation 100% explained',
    authors: ['David Rumelhart', 'Ronald J. Williams', 'Müller, K.-R.'],
    type: 'article',
    tags: ['nlp'],
    data: { year: 1986, venue: 'nature', doi: '10.1/backprop' },
  },
  { title: 'Untitled notes', authors: [], type: 'note', tags: [], data: {} },
  {
    title: 'Convolutional networks',
    authors: ['Kunihiko Fukushima'],
    type: 'article',
    tags: ['vision'],
    data: { date: '1980', venue: 'Biological Cybernetics', doi: '10.1/neocognitron' },
  },
];

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`library view API (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    let library: { id: string };
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      t = await buildTestApp({ leg, build: { resolveResource: fakeResolver } });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
      library = await createWorkspace(t.app, owner, { name: 'Library' });
      // One at a time: `added` order is the order of LIBRARY.
      for (const resource of LIBRARY)
        ids[resource.title] = (await addResource(t.app, owner, library.id, resource)).id;
    });
    afterAll(async () => t?.close());

    const list = async (query: string, user = owner, workspaceId = library.id) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}/resources?${query}`,
        headers: user.cookieHeaders,
      });
      return {
        res,
        titles: res.statusCode === 200 ? res.json<Listed[]>().map((r) => r.title) : [],
        total: Number(res.headers['x-total-count']),
      };
    };
    const bulk = (
      action: 'tag' | 'move' | 'remove',
      workspaceId: string,
      payload: Record<string, unknown>,
      user = owner,
    ) =>
      t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/resources/bulk/${action}`,
        headers: user.cookieHeaders,
        payload,
      });

    describe('GET /api/workspaces/{id}/resources: sort', () => {
      it('is newest first by default, and each resource carries the year and venue it is sorted by', async () => {
        const { res, titles, total } = await list('');
        expect(res.statusCode).toBe(200);
        expect(titles).toEqual(LIBRARY.map((r) => r.title).reverse());
        expect(total).toBe(5);
        const byTitle = new Map(res.json<Listed[]>().map((r) => [r.title, r]));
        expect(byTitle.get('deep learning')).toMatchObject({ year: 2015, venue: 'Nature' });
        expect(byTitle.get('Backpropagation 100% explained')).toMatchObject({
          year: 1986,
          venue: 'nature',
        });
        expect(byTitle.get('Convolutional networks')).toMatchObject({
          year: 1980,
          venue: 'Biological Cybernetics',
        });
        expect(byTitle.get('Untitled notes')).toMatchObject({ year: null, venue: null });
      });

      it.each([
        [
          'sort=title',
          [
            'Attention is all you need',
            'Backpropagation 100% explained',
            'Convolutional networks',
            'deep learning',
            'Untitled notes',
          ],
        ],
        [
          'sort=title&order=desc',
          [
            'Untitled notes',
            'deep learning',
            'Convolutional networks',
            'Backpropagation 100% explained',
            'Attention is all you need',
          ],
        ],
        // Family names: Fukushima, LeCun ("LeCun, Yann"), Rumelhart, Vaswani; no author last.
        [
          'sort=author',
          [
            'Convolutional networks',
            'deep learning',
            'Backpropagation 100% explained',
            'Attention is all you need',
            'Untitled notes',
          ],
        ],
        [
          'sort=year',
          [
            'Attention is all you need',
            'deep learning',
            'Backpropagation 100% explained',
            'Convolutional networks',
            'Untitled notes',
          ],
        ],
        [
          'sort=year&order=asc',
          [
            'Convolutional networks',
            'Backpropagation 100% explained',
            'deep learning',
            'Attention is all you need',
            'Untitled notes',
          ],
        ],
        ['sort=added&order=asc', LIBRARY.map((r) => r.title)],
      ])('%s', async (query, expected) => {
        expect((await list(query)).titles).toEqual(expected);
      });

      it('sorts venues ignoring case, with ties in a stable order', async () => {
        const { titles } = await list('sort=venue');
        expect(titles[0]).toBe('Convolutional networks');
        expect(titles.slice(1, 3).sort()).toEqual([
          'Backpropagation 100% explained',
          'deep learning',
        ]);
        expect(titles.slice(3)).toEqual(['Attention is all you need', 'Untitled notes']);
        expect((await list('sort=venue')).titles).toEqual(titles);
      });
    });

    describe('GET /api/workspaces/{id}/resources: filters and pages', () => {
      it.each([
        ['q=LEARN', ['deep learning']],
        ['q=bengio', ['deep learning']],
        // Without accents, in any case: "Łukasz", "Müller"; and the other way round.
        ['q=lukasz', ['Attention is all you need']],
        ['q=MULLER', ['Backpropagation 100% explained']],
        ['q=m%C3%BCller', ['Backpropagation 100% explained']],
        ['q=rum%C3%A9lhart', ['Backpropagation 100% explained']],
        // `%` and `_` are literal, not wildcards.
        ['q=100%25', ['Backpropagation 100% explained']],
        ['q=_', []],
        ['tag=nlp', ['Backpropagation 100% explained', 'Attention is all you need']],
        ['tag=Transformers', ['Attention is all you need']],
        [
          'type=ARTICLE&sort=title',
          ['Backpropagation 100% explained', 'Convolutional networks', 'deep learning'],
        ],
        [
          'yearFrom=1986&yearTo=2015&sort=year',
          ['deep learning', 'Backpropagation 100% explained'],
        ],
        ['yearTo=1985', ['Convolutional networks']],
        ['q=&tag=&type=', [...LIBRARY.map((r) => r.title)].reverse()],
      ])('%s', async (query, expected) => {
        const { res, titles, total } = await list(query);
        expect(res.statusCode).toBe(200);
        expect(titles).toEqual(expected);
        expect(total).toBe(expected.length);
      });

      it('pages through the sorted, filtered list: no overlap, total counts the matches', async () => {
        const first = await list('sort=title&type=article&limit=2');
        const second = await list('sort=title&type=article&limit=2&offset=2');
        expect(first.titles).toEqual(['Backpropagation 100% explained', 'Convolutional networks']);
        expect(second.titles).toEqual(['deep learning']);
        expect([first.total, second.total]).toEqual([3, 3]);
      });

      it.each([
        ['sort=citations', 'sort'],
        ['order=up', 'order'],
        ['limit=101', 'limit'],
        ['yearFrom=2020&yearTo=2010', 'yearTo'],
        ['yearFrom=abc', 'yearFrom'],
        [`q=${'x'.repeat(LIMITS.filterText + 1)}`, 'q'],
        [`tag=${'x'.repeat(LIMITS.tag + 1)}`, 'tag'],
      ])('refuses %s with a 400 naming the field', async (query, field) => {
        const { res } = await list(query);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.field).toBe(field);
      });

      it('is 404 for another user, 401 without a session', async () => {
        expect((await list('', stranger)).res.statusCode).toBe(404);
        const anonymous = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${library.id}/resources`,
        });
        expect(anonymous.statusCode).toBe(401);
      });
    });

    describe('POST /api/workspaces/{id}/resources/bulk/tag', () => {
      it('adds and removes tags on each resource named, ignoring case, and marks the workspace changed', async () => {
        const ws = await createWorkspace(t.app, owner);
        const a = await addResource(t.app, owner, ws.id, { title: 'A', tags: ['Inbox', 'ml'] });
        const b = await addResource(t.app, owner, ws.id, { title: 'B', tags: ['ML'] });
        const before = (
          await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws.id}`,
            headers: owner.bearer,
          })
        ).json().workspace.updatedAt;
        const res = await bulk('tag', ws.id, {
          resourceIds: [b.id, a.id, a.id],
          add: ['ml', 'to-read'],
          remove: ['inbox'],
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          updated: [
            { id: b.id, tags: ['ML', 'to-read'] },
            { id: a.id, tags: ['ml', 'to-read'] },
          ],
        });
        const stored = await t.app.ctx.db
          .select({ id: workspaceResources.id, tags: workspaceResources.tags })
          .from(workspaceResources)
          .where(eq(workspaceResources.workspaceId, ws.id));
        expect(new Map(stored.map((r) => [r.id, r.tags]))).toEqual(
          new Map([
            [a.id, ['ml', 'to-read']],
            [b.id, ['ML', 'to-read']],
          ]),
        );
        const after = (
          await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws.id}`,
            headers: owner.bearer,
          })
        ).json().workspace.updatedAt;
        expect(new Date(after).getTime()).toBeGreaterThan(new Date(before).getTime());
      });

      it(`changes nothing when one resource would hold more than ${LIMITS.tags} tags (409 naming it)`, async () => {
        const ws = await createWorkspace(t.app, owner);
        const roomy = await addResource(t.app, owner, ws.id, { title: 'Roomy', tags: [] });
        const full = await addResource(t.app, owner, ws.id, {
          title: 'Full',
          tags: Array.from({ length: LIMITS.tags }, (_, i) => `t${i}`),
        });
        const res = await bulk('tag', ws.id, {
          resourceIds: [roomy.id, full.id],
          add: ['one-more'],
        });
        expect(res.statusCode).toBe(409);
        expect(res.json().error.details).toEqual({
          field: 'resourceIds.1',
          reason: 'too_many_tags',
        });
        const [stored] = await t.app.ctx.db
          .select({ tags: workspaceResources.tags })
          .from(workspaceResources)
          .where(eq(workspaceResources.id, roomy.id));
        expect(stored?.tags).toEqual([]);
      });

      it("is a 404 naming the resource when one is in another workspace (another user's), and changes nothing", async () => {
        const ws = await createWorkspace(t.app, owner);
        const mine = await addResource(t.app, owner, ws.id, { title: 'Mine' });
        const theirWs = await createWorkspace(t.app, stranger);
        const theirs = await addResource(t.app, stranger, theirWs.id, { title: 'Theirs' });
        const res = await bulk('tag', ws.id, { resourceIds: [mine.id, theirs.id], add: ['x'] });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.details).toEqual({ field: 'resourceIds.1', reason: 'not_found' });
        expect(
          (await bulk('tag', theirWs.id, { resourceIds: [theirs.id], add: ['x'] })).statusCode,
        ).toBe(404);
        const stored = await t.app.ctx.db
          .select({ tags: workspaceResources.tags })
          .from(workspaceResources)
          .where(eq(workspaceResources.id, mine.id));
        expect(stored[0]?.tags).toEqual([]);
      });

      it.each([
        [{ resourceIds: [], add: ['x'] }, 'resourceIds'],
        [{ resourceIds: ['not-a-uuid'], add: ['x'] }, 'resourceIds.0'],
        [
          {
            resourceIds: Array.from({ length: LIMITS.bulkResources + 1 }, () => UNKNOWN_ID),
            add: ['x'],
          },
          'resourceIds',
        ],
        [{ resourceIds: [UNKNOWN_ID] }, 'add'],
        [{ resourceIds: [UNKNOWN_ID], add: ['x'], colour: 'red' }, 'colour'],
      ])('refuses a bad body with a 400 naming the field (%#)', async (payload, field) => {
        const res = await bulk('tag', library.id, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.field).toBe(field);
      });
    });

    describe('POST /api/workspaces/{id}/resources/bulk/move', () => {
      it('moves resources with their annotations; one already in the target stays and is reported', async () => {
        const source = await createWorkspace(t.app, owner, { name: 'Source' });
        const target = await createWorkspace(t.app, owner, { name: 'Target' });
        const kept = await addResource(t.app, owner, target.id, {
          title: 'Deep learning (target copy)',
          data: { doi: '10.1234/same' },
        });
        const dup = await addResource(t.app, owner, source.id, {
          title: 'Deep learning',
          data: { doi: '10.1234/SAME' },
        });
        const free = await addResource(t.app, owner, source.id, {
          title: 'Free to go',
          url: 'https://example.org/free',
        });
        const note = await annotate(t.app, owner, free.id, { body: 'goes along' });
        const res = await bulk('move', source.id, {
          resourceIds: [dup.id, free.id],
          targetWorkspaceId: target.id,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          targetWorkspaceId: target.id,
          moved: [free.id],
          duplicates: [dup.id],
          keysChanged: [],
        });
        expect((await list('sort=title', owner, target.id)).titles).toEqual([
          'Deep learning (target copy)',
          'Free to go',
        ]);
        expect((await list('', owner, source.id)).titles).toEqual(['Deep learning']);
        const [moved] = await t.app.ctx.db
          .select()
          .from(annotations)
          .where(eq(annotations.id, note.id));
        expect(moved?.resourceId).toBe(free.id);
        expect(kept.id).not.toBe(dup.id);
      });

      it(`moves nothing when the target has no room (${LIMITS.resourcesPerWorkspace} resources)`, async () => {
        const source = await createWorkspace(t.app, owner);
        const target = await createWorkspace(t.app, owner);
        await t.app.ctx.db.insert(workspaceResources).values(
          Array.from({ length: LIMITS.resourcesPerWorkspace - 1 }, (_, i) => ({
            workspaceId: target.id,
            title: `r${i}`,
          })),
        );
        const a = await addResource(t.app, owner, source.id, { title: 'A' });
        const b = await addResource(t.app, owner, source.id, { title: 'B' });
        const res = await bulk('move', source.id, {
          resourceIds: [a.id, b.id],
          targetWorkspaceId: target.id,
        });
        expect(res.statusCode).toBe(409);
        expect(res.json().error.details).toEqual({
          field: 'targetWorkspaceId',
          reason: 'too_many_resources',
        });
        expect((await list('', owner, source.id)).total).toBe(2);
        // One fits.
        expect(
          (
            await bulk('move', source.id, { resourceIds: [a.id], targetWorkspaceId: target.id })
          ).json().moved,
        ).toEqual([a.id]);
      });

      it('moves across two workspaces both ways at once without a deadlock, and one resource only once', async () => {
        const p = await createWorkspace(t.app, owner);
        const q = await createWorkspace(t.app, owner);
        for (let round = 0; round < 5; round++) {
          const x = await addResource(t.app, owner, p.id, { title: `x${round}` });
          const y = await addResource(t.app, owner, q.id, { title: `y${round}` });
          // Opposite directions lock the same two workspaces: in id order, neither waits for the other forever.
          const [there, back] = await Promise.all([
            bulk('move', p.id, { resourceIds: [x.id], targetWorkspaceId: q.id }),
            bulk('move', q.id, { resourceIds: [y.id], targetWorkspaceId: p.id }),
          ]);
          expect([there.statusCode, back.statusCode]).toEqual([200, 200]);
        }
        // The same resource moved to two places at once: one move wins, the other finds it gone.
        const r = await createWorkspace(t.app, owner);
        const z = await addResource(t.app, owner, p.id, { title: 'z' });
        const both = await Promise.all([
          bulk('move', p.id, { resourceIds: [z.id], targetWorkspaceId: q.id }),
          bulk('move', p.id, { resourceIds: [z.id], targetWorkspaceId: r.id }),
        ]);
        expect(both.map((res) => res.statusCode).sort()).toEqual([200, 404]);
        const [qTitles, rTitles] = [
          (await list('', owner, q.id)).titles,
          (await list('', owner, r.id)).titles,
        ];
        expect([...qTitles, ...rTitles].filter((title) => title === 'z')).toEqual(['z']);
      });

      it("is a 404 for another user's target or source, and a 400 for the same workspace", async () => {
        const source = await createWorkspace(t.app, owner);
        const a = await addResource(t.app, owner, source.id, { title: 'A' });
        const theirs = await createWorkspace(t.app, stranger);
        const toTheirs = await bulk('move', source.id, {
          resourceIds: [a.id],
          targetWorkspaceId: theirs.id,
        });
        expect(toTheirs.statusCode).toBe(404);
        expect(toTheirs.json().error.details).toEqual({
          field: 'targetWorkspaceId',
          reason: 'not_found',
        });
        expect(
          (await bulk('move', source.id, { resourceIds: [a.id], targetWorkspaceId: UNKNOWN_ID }))
            .statusCode,
        ).toBe(404);
        expect(
          (
            await bulk(
              'move',
              source.id,
              { resourceIds: [a.id], targetWorkspaceId: theirs.id },
              stranger,
            )
          ).statusCode,
        ).toBe(404);
        const same = await bulk('move', source.id, {
          resourceIds: [a.id],
          targetWorkspaceId: source.id,
        });
        expect(same.statusCode).toBe(400);
        expect(same.json().error.details.field).toBe('targetWorkspaceId');
        expect((await list('', owner, source.id)).total).toBe(1);
      });
    });

    describe('POST /api/workspaces/{id}/resources/bulk/remove', () => {
      it('removes the resources named (annotations with them), all or nothing', async () => {
        const ws = await createWorkspace(t.app, owner);
        const [a, b, c] = [
          await addResource(t.app, owner, ws.id, { title: 'A' }),
          await addResource(t.app, owner, ws.id, { title: 'B' }),
          await addResource(t.app, owner, ws.id, { title: 'C' }),
        ];
        const note = await annotate(t.app, owner, a.id, { body: 'gone too' });
        const partly = await bulk('remove', ws.id, { resourceIds: [a.id, UNKNOWN_ID] });
        expect(partly.statusCode).toBe(404);
        expect((await list('', owner, ws.id)).total).toBe(3);
        const res = await bulk('remove', ws.id, { resourceIds: [a.id, c.id] });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ removed: [a.id, c.id] });
        expect((await list('', owner, ws.id)).titles).toEqual(['B']);
        expect(await t.app.ctx.db.$count(annotations, eq(annotations.id, note.id))).toBe(0);
        expect(b).toBeDefined();
      });

      it('is a 404 for another user, 401 without a session', async () => {
        const ws = await createWorkspace(t.app, owner);
        const a = await addResource(t.app, owner, ws.id, { title: 'A' });
        expect((await bulk('remove', ws.id, { resourceIds: [a.id] }, stranger)).statusCode).toBe(
          404,
        );
        const anonymous = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws.id}/resources/bulk/remove`,
          payload: { resourceIds: [a.id] },
        });
        expect(anonymous.statusCode).toBe(401);
        expect((await list('', owner, ws.id)).total).toBe(1);
      });
    });
  });
}
