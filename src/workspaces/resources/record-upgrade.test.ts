/**
 * Rows saved before resources kept structured records (record null, names as strings, the
 * bibliographic fields in `data`) get their records from the start-up upgrade, on both stores.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { workspaceResources } from '../../platform/db/schema.js';
import { upgradeRecords } from './record-upgrade.js';
import { as, createWorkspace } from '../test-support/helpers.js';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`record upgrade (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
      owner = await buildUser(t.app);
    });
    afterAll(async () => t?.close());

    it('splits the stored names, lifts data into the record, types in CSL words, and leaves data and newer rows alone', async () => {
      const ws = await createWorkspace(t.app, owner);
      const legacy = {
        workspaceId: ws.id,
        title: 'Deep learning',
        type: 'article',
        url: 'https://doi.org/10.1038/nature14539',
        authors: [
          'LeCun, Yann',
          'Vincent van Gogh',
          'World Health Organization',
          'Bennett, Jr., William',
        ],
        data: {
          publishedDate: '2015-05-27',
          journal: 'Nature',
          volume: 521,
          pages: '436-444',
          doi: 'https://doi.org/10.1038/nature14539',
          abstract: 'Deep learning allows…',
          citations: 42,
        },
      };
      const preprint = {
        workspaceId: ws.id,
        title: 'Attention Is All You Need',
        type: 'preprint',
        url: 'https://arxiv.org/abs/1706.03762v5',
        authors: ['Ashish Vaswani'],
        data: { venue: 'arXiv cs.CL', arxivId: '1706.03762v5', year: '2017' },
      };
      const untyped = { workspaceId: ws.id, title: 'Notes from a talk', authors: [], data: {} };
      const [a, b, c] = await t.app.ctx.db
        .insert(workspaceResources)
        .values([legacy, preprint, untyped].map((row) => ({ ...row, record: undefined })) as never)
        .returning({ id: workspaceResources.id });
      // A row written since (a record of its own) is never rewritten.
      const [kept] = await t.app.ctx.db
        .insert(workspaceResources)
        .values({
          workspaceId: ws.id,
          title: 'Kept',
          type: 'book',
          authors: ['As stored'],
          record: { creators: [{ role: 'editor', literal: 'As stored' }] },
        } as never)
        .returning({ id: workspaceResources.id });

      expect(await upgradeRecords(t.app.ctx.db)).toBe(3);
      expect(await upgradeRecords(t.app.ctx.db)).toBe(0);

      const read = async (id: string) =>
        (
          await t.app.ctx.db.select().from(workspaceResources).where(eq(workspaceResources.id, id))
        )[0]!;
      const first = await read(a!.id);
      expect(first.record).toEqual({
        creators: [
          { role: 'author', family: 'LeCun', given: 'Yann' },
          { role: 'author', family: 'Gogh', given: 'Vincent', nonDroppingParticle: 'van' },
          { role: 'author', literal: 'World Health Organization' },
          { role: 'author', family: 'Bennett', given: 'William', suffix: 'Jr.' },
        ],
        issued: { year: 2015, month: 5, day: 27 },
        containerTitle: 'Nature',
        volume: '521',
        pages: '436-444',
        doi: '10.1038/nature14539',
        abstract: 'Deep learning allows…',
      });
      expect(first).toMatchObject({
        type: 'article-journal',
        year: 2015,
        venue: 'Nature',
        authorSort: 'lecun',
        data: legacy.data,
        authors: legacy.authors,
      });
      const second = await read(b!.id);
      expect(second.record).toEqual({
        creators: [{ role: 'author', family: 'Vaswani', given: 'Ashish' }],
        issued: { year: 2017 },
        arxivId: '1706.03762',
      });
      expect(second).toMatchObject({ type: 'preprint', venue: null, year: 2017 });
      expect(await read(c!.id)).toMatchObject({ record: {}, type: 'document', authorSort: null });
      expect(await read(kept!.id)).toMatchObject({
        type: 'book',
        record: { creators: [{ role: 'editor', literal: 'As stored' }] },
        authorSort: 'as stored',
      });

      // The API answers with the record, the interface's authors as they were stored.
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${ws.id}/resources?sort=author`,
        headers: as(owner, 'A'),
      });
      expect(res.statusCode).toBe(200);
      const titles = res.json<Array<{ title: string }>>().map((resource) => resource.title);
      expect(titles).toEqual([
        'Kept',
        'Deep learning',
        'Attention Is All You Need',
        'Notes from a talk',
      ]);
    });
  });
}
