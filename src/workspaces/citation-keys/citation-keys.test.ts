/**
 * Citation keys on both stores: made once when a resource is added (Better BibTeX's pattern, a, b…
 * when taken), kept exactly when an entry comes with one, changed only by a person (PATCH), never
 * shared in a workspace, given to older rows in creation order, kept (or suffixed) on a move.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema, BearerReply } from '../../../test/support/api-types.js';
import { buildTestApp, storeLegs, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { workspaceResources } from '../../platform/db/schema.js';
import { addResource, createWorkspace, fakeResolver } from '../test-support/helpers.js';
import { upgradeCitationKeys } from './upgrade.js';

type Resource = ApiSchema<'Resource'>;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`citation keys (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg, build: { resolveResource: fakeResolver } });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
    });
    afterAll(async () => t?.close());

    const byHand = (title: string, authors: string[], issued: string) =>
      ({ title, authors, issued }) as ApiSchema<'ResourceCreateInput'>;
    const list = async (workspaceId: string): Promise<Resource[]> => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}`,
        headers: owner.bearer,
      });
      return res.json<BearerReply<'WorkspaceDetailEnvelope'>>().resources;
    };
    const patch = (resource: { id: string; workspaceId: string }, payload: object, user = owner) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/workspaces/${resource.workspaceId}/resources/${resource.id}`,
        headers: user.bearer,
        payload,
      });
    const importBib = (workspaceId: string, bib: string, query = '') =>
      t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/import${query}`,
        headers: { ...owner.bearer, 'content-type': 'application/x-bibtex' },
        payload: bib,
      });

    it("gives a resource added by identifier or by hand Better BibTeX's key, a, b… when taken", async () => {
      const ws = await createWorkspace(t.app, owner);
      const found = await addResource(t.app, owner, ws.id, { resourceId: 'arxiv:1706.03762v5' });
      expect(found.citationKey).toBe('vaswani2017attention');
      const again = await addResource(
        t.app,
        owner,
        ws.id,
        byHand('Attention, again', ['Vaswani, Ashish'], '2017'),
      );
      const third = await addResource(
        t.app,
        owner,
        ws.id,
        byHand('The attention economy', ['Ashish Váswani'], '2017'),
      );
      expect([again.citationKey, third.citationKey]).toEqual([
        'vaswani2017attentiona',
        'vaswani2017attentionb',
      ]);
      // In the list and the detail view too.
      expect((await list(ws.id)).map((r) => r.citationKey).sort()).toEqual([
        'vaswani2017attention',
        'vaswani2017attentiona',
        'vaswani2017attentionb',
      ]);
      // Removing one changes no other key, and a new one does not take the freed key's place by order.
      await t.app.inject({
        method: 'DELETE',
        url: `/api/workspaces/${ws.id}/resources/${found.id}`,
        headers: owner.bearer,
      });
      const fourth = await addResource(
        t.app,
        owner,
        ws.id,
        byHand('Attention please', ['Vaswani, A.'], '2017'),
      );
      expect(fourth.citationKey).toBe('vaswani2017attention');
      expect((await list(ws.id)).find((r) => r.id === third.id)?.citationKey).toBe(
        'vaswani2017attentionb',
      );
    });

    it('never gives one key to two resources added at once (the unique index decides)', async () => {
      const ws = await createWorkspace(t.app, owner);
      const added = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          addResource(t.app, owner, ws.id, byHand(`Same key ${n}`, ['Doe, Jane'], '2020')),
        ),
      );
      const keys = added.map((r) => r.citationKey);
      expect(new Set(keys).size).toBe(12);
      expect(keys.every((key) => /^doe2020same[a-z]*$/.test(key))).toBe(true);
    });

    it('keeps imported keys exactly, suffixes one the workspace holds, and says which and why', async () => {
      const ws = await createWorkspace(t.app, owner);
      const held = await addResource(t.app, owner, ws.id, byHand('Held', ['Roe, R.'], '2001'));
      await patch(held, { citationKey: 'Smith:2020/deep-nets' });
      const bib = [
        '@article{Smith:2020/deep-nets, title={Deep nets}, author={Smith, Ann}, year={2020}}',
        '@article{vaswani-2017_attn.v2, title={Attention}, author={Vaswani, Ashish}, year={2017}}',
        '@article{Knuth1984, title={Literate Programming}, author={Knuth, Donald}, year={1984}}',
        '@book{, title={No key at all}, author={Müller, Jürgen}, year={2019}}',
      ].join('\n\n');
      const dry = await importBib(ws.id, bib, '?dryRun=true');
      expect(dry.statusCode, dry.body).toBe(200);
      const dryKeys = dry
        .json<ApiSchema<'ImportReport'>>()
        .entries.map((entry) => ('resource' in entry ? entry.resource.citationKey : null));
      const res = await importBib(ws.id, bib);
      expect(res.statusCode).toBe(200);
      const report = res.json<ApiSchema<'ImportReport'>>();
      const keys = report.entries.map((entry) =>
        'resource' in entry ? entry.resource.citationKey : null,
      );
      expect(keys).toEqual([
        'Smith:2020/deep-netsa',
        'vaswani-2017_attn.v2',
        'Knuth1984',
        'muller2019no',
      ]);
      expect(dryKeys).toEqual(keys);
      expect(report.counts.keysChanged).toBe(1);
      expect(report.entries[0]).toMatchObject({
        keyChanged: { from: 'Smith:2020/deep-nets', to: 'Smith:2020/deep-netsa', reason: 'taken' },
      });
      expect(report.entries.slice(1).some((entry) => 'keyChanged' in entry)).toBe(false);
      const stored = await list(ws.id);
      expect(stored.map((r) => r.citationKey).sort()).toEqual(
        [...keys, 'Smith:2020/deep-nets'].sort() as string[],
      );
      // The same file again: every entry a duplicate, no key of the workspace changed.
      const again = await importBib(ws.id, bib);
      expect(again.json<ApiSchema<'ImportReport'>>().counts.imported).toBe(0);
      expect((await list(ws.id)).map((r) => r.citationKey).sort()).toEqual(
        stored.map((r) => r.citationKey).sort(),
      );
    });

    it('keeps RIS IDs and CSL-JSON ids or citation-keys; makes one for a key BibTeX cannot read', async () => {
      const ws = await createWorkspace(t.app, owner);
      const ris = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${ws.id}/import`,
        headers: { ...owner.bearer, 'content-type': 'application/x-research-info-systems' },
        payload:
          'TY  - JOUR\nID  - Ris:Key-1\nTI  - From RIS\nAU  - Doe, Jane\nPY  - 2011\nER  - \n',
      });
      expect(ris.statusCode).toBe(200);
      const csl = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${ws.id}/import`,
        headers: { ...owner.bearer, 'content-type': 'application/vnd.citationstyles.csl+json' },
        payload: JSON.stringify([
          { id: 'item-1', type: 'book', title: 'By id', issued: { 'date-parts': [[1999]] } },
          { id: 'x', 'citation-key': 'by/key', type: 'book', title: 'By citation key' },
          { id: 'has space', type: 'book', title: 'Spaced out', author: [{ family: 'Öz' }] },
        ]),
      });
      expect(csl.statusCode).toBe(200);
      const entries = csl.json<ApiSchema<'ImportReport'>>().entries;
      expect(entries[2]).toMatchObject({
        keyChanged: { from: 'has space', to: 'ozspaced', reason: 'invalid' },
      });
      const byTitle = Object.fromEntries((await list(ws.id)).map((r) => [r.title, r.citationKey]));
      expect(byTitle).toEqual({
        'From RIS': 'Ris:Key-1',
        'By id': 'item-1',
        'By citation key': 'by/key',
        'Spaced out': 'ozspaced',
      });
      // Every export names them so.
      for (const [format, expected] of [
        ['bibtex', '@book{by/key,'],
        ['ris', 'ID  - Ris:Key-1'],
        ['csljson', '"citation-key": "item-1"'],
      ] as const) {
        const exported = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws.id}/export?format=${format}`,
          headers: owner.bearer,
        });
        expect(exported.body).toContain(expected);
      }
    });

    describe('PATCH /api/resources/{id} citationKey', () => {
      it('sets a key exactly; refuses one BibTeX cannot read (400) or another resource holds (409 naming it)', async () => {
        const ws = await createWorkspace(t.app, owner);
        const a = await addResource(t.app, owner, ws.id, byHand('One', ['Ng, A.'], '2010'));
        const b = await addResource(t.app, owner, ws.id, byHand('Two', ['Ng, A.'], '2010'));
        const set = await patch(a, { citationKey: 'Ng:2010/one' });
        expect(set.statusCode).toBe(200);
        expect(set.json<BearerReply<'ResourceEnvelope'>>().resource.citationKey).toBe(
          'Ng:2010/one',
        );
        for (const bad of ['has space', 'a,b', 'x{y}', 'müller', '', 'x'.repeat(101)]) {
          const refused = await patch(b, { citationKey: bad });
          expect(refused.statusCode, bad).toBe(400);
          expect(refused.json().error.details.field).toBe('citationKey');
        }
        expect((await patch(b, { citationKey: null })).statusCode).toBe(400);
        const taken = await patch(b, { citationKey: 'ng:2010/ONE' });
        expect(taken.statusCode).toBe(409);
        expect(taken.json().error).toMatchObject({
          details: { field: 'citationKey', reason: 'citation_key_taken' },
        });
        expect(taken.json().error.message).toContain(a.id);
        // Its own key, in another case, is its own.
        expect((await patch(a, { citationKey: 'NG:2010/one' })).statusCode).toBe(200);
        // A stranger's change is a 404, as for any of their resources.
        expect((await patch(a, { citationKey: 'mine' }, stranger)).statusCode).toBe(404);
        // Editing other fields never changes the key.
        const edited = await patch(a, { title: 'A new title', issued: '1999' });
        expect(edited.json<BearerReply<'ResourceEnvelope'>>().resource.citationKey).toBe(
          'NG:2010/one',
        );
      });

      it('a create body may give a key; a taken one is a 409', async () => {
        const ws = await createWorkspace(t.app, owner);
        const given = await addResource(t.app, owner, ws.id, {
          title: 'Given',
          citationKey: 'my:key',
        });
        expect(given.citationKey).toBe('my:key');
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws.id}/resources`,
          headers: owner.bearer,
          payload: { title: 'Other', citationKey: 'MY:KEY' },
        });
        expect(res.statusCode).toBe(409);
        expect(res.json().error.details.reason).toBe('citation_key_taken');
      });
    });

    it('a move keeps keys, and suffixes one the target holds, saying so', async () => {
      const source = await createWorkspace(t.app, owner);
      const target = await createWorkspace(t.app, owner);
      const inTarget = await addResource(
        t.app,
        owner,
        target.id,
        byHand('Deep', ['Le, Q.'], '2014'),
      );
      const clash = await addResource(t.app, owner, source.id, byHand('Deep', ['Le, Q.'], '2014'));
      const free = await addResource(t.app, owner, source.id, byHand('Other', ['Le, Q.'], '2014'));
      expect(clash.citationKey).toBe(inTarget.citationKey);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${source.id}/resources/bulk/move`,
        headers: owner.bearer,
        payload: { resourceIds: [clash.id, free.id], targetWorkspaceId: target.id },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().keysChanged).toEqual([
        { resourceId: clash.id, from: 'le2014deep', to: 'le2014deepa' },
      ]);
      const keys = Object.fromEntries((await list(target.id)).map((r) => [r.id, r.citationKey]));
      expect(keys).toEqual({
        [inTarget.id]: 'le2014deep',
        [clash.id]: 'le2014deepa',
        [free.id]: 'le2014other',
      });
    });

    it('gives rows saved before keys were kept their keys in creation order, once', async () => {
      const ws = await createWorkspace(t.app, owner);
      const newest = await addResource(t.app, owner, ws.id, byHand('Later', ['Kay, A.'], '1972'));
      const legacy = (title: string, at: string, citationKey?: string) => ({
        workspaceId: ws.id,
        title,
        authors: ['Alan Kay'],
        record: {
          creators: [{ role: 'author', family: 'Kay', given: 'Alan' }],
          issued: { year: 1972 },
          ...(citationKey ? { citationKey } : {}),
        },
        createdAt: new Date(at),
      });
      const [second, first, imported] = await t.app.ctx.db
        .insert(workspaceResources)
        .values([
          legacy('A personal computer', '2001-01-02T00:00:00Z'),
          legacy('A personal computer for children', '2001-01-01T00:00:00Z'),
          legacy('Dynabook', '2001-01-03T00:00:00Z', 'Kay:Dynabook'),
        ] as never)
        .returning({ id: workspaceResources.id });
      expect(await upgradeCitationKeys(t.app.ctx.db)).toBeGreaterThanOrEqual(3);
      expect(await upgradeCitationKeys(t.app.ctx.db)).toBe(0);
      const keys = Object.fromEntries((await list(ws.id)).map((r) => [r.id, r.citationKey]));
      expect(keys).toEqual({
        [newest.id]: 'kay1972later',
        [first!.id]: 'kay1972personal',
        [second!.id]: 'kay1972personala',
        [imported!.id]: 'Kay:Dynabook',
      });
      const nulls = await t.app.ctx.db.$count(
        workspaceResources,
        sql`${workspaceResources.citationKey} is null`,
      );
      expect(nulls).toBe(0);
    });

    it('the database refuses a second resource with a key in any case', async () => {
      const ws = await createWorkspace(t.app, owner);
      const a = await addResource(t.app, owner, ws.id, byHand('Index', ['Ix, I.'], '2000'));
      await expect(
        t.app.ctx.db
          .update(workspaceResources)
          .set({ citationKey: a.citationKey.toUpperCase() })
          .where(
            eq(workspaceResources.id, (await addResource(t.app, owner, ws.id, { title: 'x' })).id),
          ),
      ).rejects.toThrow();
    });

    describe('GET /api/library/citation-keys', () => {
      it('finds keys by key, title or author in the workspaces the user may read, exact key first', async () => {
        const mine = await createWorkspace(t.app, owner, { name: 'Keys mine' });
        const theirs = await createWorkspace(t.app, stranger, { name: 'Keys theirs' });
        const exact = await addResource(
          t.app,
          owner,
          mine.id,
          byHand('Zebra stripes', ['Quagga, Q.'], '2003'),
        );
        await addResource(t.app, owner, mine.id, byHand('Quagga zebra', ['Ferreira, F.'], '2004'));
        await addResource(
          t.app,
          stranger,
          theirs.id,
          byHand('Zebra secret', ['Quagga, Q.'], '2003'),
        );
        const find = async (q: string, user = owner) => {
          const res = await t.app.inject({
            method: 'GET',
            url: `/api/library/citation-keys?q=${encodeURIComponent(q)}`,
            headers: user.bearer,
          });
          expect(res.statusCode).toBe(200);
          return res.json<ApiSchema<'CitationKeySearch'>>().results;
        };
        const hits = await find('quagga2003zebra');
        expect(hits[0]).toEqual({
          citationKey: 'quagga2003zebra',
          resourceId: exact.id,
          title: 'Zebra stripes',
          shortReference: 'Quagga 2003',
          workspace: { id: mine.id, name: 'Keys mine' },
        });
        expect(hits).toHaveLength(1);
        // By author and title words, accents aside; never the stranger's.
        expect((await find('quägga zebra')).map((h) => h.citationKey)).toEqual([
          'ferreira2004quagga',
          'quagga2003zebra',
        ]);
        expect((await find('secret')).length).toBe(0);
        // One list shape: a page of `limit` hits says how many there are in all.
        const paged = await t.app.inject({
          method: 'GET',
          url: '/api/library/citation-keys?q=quagga&limit=1',
          headers: owner.bearer,
        });
        expect(paged.json<ApiSchema<'CitationKeySearch'>>()).toMatchObject({
          results: [expect.objectContaining({ citationKey: 'quagga2003zebra' })],
          total: 2,
          hasMore: true,
        });
        expect((await find('secret', stranger)).map((h) => h.workspace.id)).toEqual([theirs.id]);
        const unauthenticated = await t.app.inject({
          method: 'GET',
          url: '/api/library/citation-keys?q=x',
        });
        expect(unauthenticated.statusCode).toBe(401);
        const tooLong = await t.app.inject({
          method: 'GET',
          url: `/api/library/citation-keys?q=${'x'.repeat(201)}`,
          headers: owner.bearer,
        });
        expect(tooLong.statusCode).toBe(400);
      });
    });
  });
}
