/**
 * The duplicates finder and merging, on both stores (the merge's locks and its moves of annotations and
 * PDFs are the subject): each reason found, and what is not a duplicate; a merge with notes, tags,
 * annotations and PDFs; two concurrent merges of one group; a stale version, another workspace's id, a
 * viewer; adding and importing a work already there.
 */
import { createHash } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema, BearerReply } from '../../../test/support/api-types.js';
import { buildTestApp, storeLegs, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import {
  resourcePdfPages,
  resourcePdfs,
  workspaceMembers,
  workspaceResources,
} from '../../platform/db/schema.js';
import type { BibRecord } from '../../records/index.js';
import { makePagedPdf } from '../../summaries/test-support/pdfs.js';
import { recordColumns } from '../resources/resource-record.js';
import { addResource, annotate, createWorkspace, pdfMultipart } from '../test-support/helpers.js';
import { duplicateGroups } from './groups.js';
import { resourceTraits } from './store.js';

type Resource = ApiSchema<'Resource'>;
type Groups = ApiSchema<'DuplicateGroups'>;
type MergeResult = ApiSchema<'DuplicatesMergeResult'>;

/** The error of a refused request (docs/design.md, Errors). */
const errorOf = (res: { json<T>(): T }) => res.json<ApiSchema<'Error'>>().error;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const author = (family: string, given: string) => ({ role: 'author' as const, family, given });

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`duplicates (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let editor: TestUser;
    let viewer: TestUser;

    beforeAll(async () => {
      t = await buildTestApp({ leg });
      [owner, editor, viewer] = await Promise.all([
        buildUser(t.app),
        buildUser(t.app),
        buildUser(t.app),
      ]);
    });
    afterAll(async () => t?.close());

    /** A workspace of the owner's, with an editor and a viewer. */
    async function workspace(): Promise<string> {
      const { id } = await createWorkspace(t.app, owner, { name: 'Duplicates' });
      await t.app.ctx.db.insert(workspaceMembers).values([
        { workspaceId: id, userId: editor.id, role: 'editor', addedBy: owner.id },
        { workspaceId: id, userId: viewer.id, role: 'viewer', addedBy: owner.id },
      ]);
      return id;
    }

    /**
     * A resource written straight to the table, as rows saved before adding refused likely duplicates
     * (or before their identifiers were known) are: the API no longer makes such pairs.
     */
    async function insertRow(
      workspaceId: string,
      title: string,
      record: BibRecord,
      more: { workKey?: string; notes?: string; tags?: string[] } = {},
    ): Promise<string> {
      const [row] = await t.app.ctx.db
        .insert(workspaceResources)
        .values({
          workspaceId,
          addedBy: owner.id,
          title,
          url: null,
          workKey: more.workKey ?? null,
          ...recordColumns(record, null, null),
          notes: more.notes ?? '',
          tags: more.tags ?? [],
        })
        .returning({ id: workspaceResources.id });
      return row!.id;
    }

    const duplicates = (workspaceId: string, user = owner) =>
      t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}/duplicates`,
        headers: user.bearer,
      });
    const merge = (workspaceId: string, payload: object, user = owner) =>
      t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/duplicates/merge`,
        headers: user.bearer,
        payload,
      });
    const getResource = async (workspaceId: string, id: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}/resources?limit=100`,
        headers: owner.bearer,
      });
      return res.json<Resource[]>().find((resource) => resource.id === id) ?? null;
    };
    const uploadPdf = async (workspaceId: string, resourceId: string, data: Buffer) => {
      const body = pdfMultipart('paper.pdf', data);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/workspaces/${workspaceId}/resources/${resourceId}/pdf`,
        headers: { ...owner.bearer, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      await t.app.pdfExtraction.settled(resourceId);
      const [row] = await t.app.ctx.db
        .select()
        .from(resourcePdfs)
        .where(eq(resourcePdfs.resourceId, resourceId));
      return row!;
    };

    describe('GET /api/workspaces/{id}/duplicates', () => {
      it('finds each reason: DOI in any case, arXiv id, PMID, and title + year + first author folded', async () => {
        const ws = await workspace();
        const byDoi = [
          (
            await addResource(t.app, owner, ws, {
              title: 'Deep learning',
              doi: '10.1038/NATURE14539',
            })
          ).id,
          await insertRow(
            ws,
            'Deep learning (journal copy)',
            { doi: '10.1038/nature14539' },
            {
              workKey: 'url:nature.com/articles/nature14539',
            },
          ),
        ];
        const byArxiv = [
          (
            await addResource(t.app, owner, ws, {
              title: 'Attention is all you need',
              doi: '10.5555/3295222',
              arxivId: '1706.03762',
            })
          ).id,
          (
            await addResource(t.app, owner, ws, {
              title: 'Attention (preprint)',
              arxivId: '1706.03762v5',
            })
          ).id,
        ];
        const byPmid = [
          (
            await addResource(t.app, owner, ws, {
              title: 'A trial',
              doi: '10.1000/trial',
              pmid: '123',
            })
          ).id,
          (await addResource(t.app, owner, ws, { title: 'A trial, again', pmid: '0123' })).id,
        ];
        const byTitle = [
          (
            await addResource(t.app, owner, ws, {
              title: 'The DNA of École!',
              issued: { year: 2020 },
              creators: [author('Müller', 'Hans')],
            })
          ).id,
          await insertRow(ws, 'the dna of ecole', {
            issued: { year: 2020, month: 3 },
            creators: [author('MULLER', 'H.'), author('Other', 'Ann')],
          }),
        ];
        const noYearNoAuthor = [
          (await addResource(t.app, owner, ws, { title: 'SQL is great' })).id,
          await insertRow(ws, 'SQL is great.', {}),
        ];
        // Not duplicates: another year; a year on one only; another first author; two different DOIs.
        await addResource(t.app, owner, ws, { title: 'Graphs', issued: { year: 2001 } });
        await insertRow(ws, 'Graphs', { issued: { year: 2002 } });
        await insertRow(ws, 'Graphs', {});
        await addResource(t.app, owner, ws, {
          title: 'Trees',
          issued: { year: 2001 },
          creators: [author('Knuth', 'Donald')],
        });
        await insertRow(ws, 'Trees', {
          issued: { year: 2001 },
          creators: [author('Tarjan', 'R.')],
        });
        await addResource(t.app, owner, ws, { title: 'Errata', doi: '10.1000/errata-1' });
        await addResource(t.app, owner, ws, { title: 'Errata', doi: '10.1000/errata-2' });

        const res = await duplicates(ws, viewer);
        expect(res.statusCode, res.body).toBe(200);
        const { groups } = res.json<Groups>();
        const found = groups.map((group) => ({
          reason: group.reason,
          ids: group.resources.map((resource) => resource.id),
        }));
        expect(found).toEqual([
          { reason: 'doi', ids: byDoi },
          { reason: 'arxiv', ids: byArxiv },
          { reason: 'pmid', ids: byPmid },
          { reason: 'title', ids: byTitle },
          { reason: 'title', ids: noYearNoAuthor },
        ]);
        // Each resource as the other replies show it.
        expect(groups[3]!.resources[0]).toMatchObject({
          title: 'The DNA of École!',
          year: 2020,
          annotations: [],
          pdf: null,
        });
      });

      it('links resources through one another into one group, under the strongest reason', async () => {
        const ws = await workspace();
        const a = (
          await addResource(t.app, owner, ws, {
            title: 'Same',
            doi: '10.1000/x',
            arxivId: '2101.00001',
          })
        ).id;
        const b = (await addResource(t.app, owner, ws, { title: 'Other', arxivId: '2101.00001' }))
          .id;
        const c = await insertRow(ws, 'other', {});
        const { groups } = (await duplicates(ws)).json<Groups>();
        expect(groups).toHaveLength(1);
        expect(groups[0]!.reason).toBe('arxiv');
        expect(groups[0]!.resources.map((resource) => resource.id)).toEqual([a, b, c]);
      });

      it('a stranger is told the workspace does not exist (404)', async () => {
        const ws = await workspace();
        const stranger = await buildUser(t.app);
        expect((await duplicates(ws, stranger)).statusCode).toBe(404);
      });

      it('at 10,000 resources: one narrow query and the groups in memory', async () => {
        const ws = await workspace();
        const rows = Array.from({ length: 10_000 }, (_, i) => {
          // Every 50th is a copy of the one before (the same title, year and author).
          const n = i % 50 === 49 ? i - 1 : i;
          // A third carry a DOI (a copy the same one: found by DOI), the rest none (found by title).
          const record: BibRecord = {
            issued: { year: 1990 + (n % 30) },
            creators: [author(`Author${n % 700}`, 'A.')],
            containerTitle: 'Journal of Tests',
            ...(n % 3 === 0 ? { doi: `10.1000/${n}` } : {}),
          };
          return {
            workspaceId: ws,
            title: `A study of topic ${n} in ${n % 7} parts`,
            workKey: null,
            ...recordColumns(record, null, null),
          };
        });
        for (let at = 0; at < rows.length; at += 1000)
          await t.app.ctx.db.insert(workspaceResources).values(rows.slice(at, at + 1000));
        const start = performance.now();
        const res = await duplicates(ws);
        const ms = performance.now() - start;
        expect(res.statusCode).toBe(200);
        const { groups } = res.json<Groups>();
        expect(groups).toHaveLength(200);
        expect(groups.filter((group) => group.reason === 'doi')).toHaveLength(
          Array.from({ length: 200 }, (_, k) => 50 * k + 48).filter((n) => n % 3 === 0).length,
        );
        // The parts: the one narrow query, the grouping in memory (the rest presents 400 resources).
        const read = performance.now();
        const traits = await resourceTraits(t.app.ctx.db, ws);
        const grouped = performance.now();
        expect(duplicateGroups(traits)).toHaveLength(200);
        const done = performance.now();
        console.info(
          `[duplicates ${leg.name}] 10,000 resources, 200 groups: request ${ms.toFixed(0)} ms ` +
            `(query ${(grouped - read).toFixed(0)} ms, grouping ${(done - grouped).toFixed(0)} ms)`,
        );
      }, 120_000);
    });

    describe('POST /api/workspaces/{id}/duplicates/merge', () => {
      it('merges fields, notes, tags, annotations and PDFs into the kept one; the others are gone; logged', async () => {
        const ws = await workspace();
        const kept = await addResource(t.app, owner, ws, {
          title: 'Merged paper',
          notes: 'Kept note',
          tags: ['reading'],
        });
        const other = await addResource(t.app, editor, ws, {
          title: 'Merged paper (from import)',
          creators: [author('Hopper', 'Grace')],
          issued: { year: 1952, month: 5 },
          containerTitle: 'Journal of Compilers',
          doi: '10.1000/merged',
          notes: 'Other note',
          tags: ['Reading', 'compilers'],
        });
        const third = await addResource(t.app, owner, ws, {
          title: 'Merged paper (third)',
          creators: [author('Nobody', 'N.')],
          issued: { year: 1999 },
          volume: '7',
          notes: 'Kept note',
        });
        await annotate(t.app, owner, kept.id, { body: 'on the kept one' });
        const moved = await annotate(t.app, viewer, other.id, { body: 'on the other' });
        await annotate(t.app, editor, third.id, { body: 'on the third' });
        const keptPdf = await uploadPdf(ws, kept.id, await makePagedPdf(['Kept file text']));
        const otherPdf = await uploadPdf(ws, other.id, await makePagedPdf(['Other file text']));

        // The versions as the client sees them now.
        const seen = await Promise.all([kept, other, third].map((r) => getResource(ws, r.id)));
        const res = await merge(ws, {
          keep: kept.id,
          merge: [other.id, third.id],
          expectedVersions: Object.fromEntries(seen.map((r) => [r!.id, r!.version])),
        });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json<MergeResult>();
        expect(res.headers.etag).toBe(`"r${body.resource.version}"`);
        expect(body.merged).toEqual([other.id, third.id]);
        expect(body.resource).toMatchObject({
          id: kept.id,
          title: 'Merged paper',
          // Creators and issued from the first that has them; volume, which only the third has, from it.
          creators: [author('Hopper', 'Grace')],
          authors: ['Grace Hopper'],
          issued: { year: 1952, month: 5 },
          containerTitle: 'Journal of Compilers',
          doi: '10.1000/merged',
          volume: '7',
          notes: 'Kept note\n\nOther note',
          tags: ['reading', 'compilers'],
          pdf: { filename: 'paper.pdf', sha256: keptPdf.sha256 },
        });
        expect(body.resource.annotations.map((a) => a.body).sort()).toEqual([
          'on the kept one',
          'on the other',
          'on the third',
        ]);
        expect(body.resource.annotations.find((a) => a.id === moved.id)).toMatchObject({
          resourceId: kept.id,
          version: 2,
        });
        expect(body.filled).toEqual(
          expect.arrayContaining([
            'creators',
            'issued',
            'doi',
            'volume',
            'notes',
            'tags',
            'annotations',
          ]),
        );
        expect(body.filled).not.toContain('pdf');
        // The others are gone, their PDF row with them, and its file forgotten; the kept file stays.
        expect(await getResource(ws, other.id)).toBeNull();
        expect(await getResource(ws, third.id)).toBeNull();
        expect(
          await t.app.ctx.db
            .select()
            .from(resourcePdfs)
            .where(inArray(resourcePdfs.resourceId, [other.id, third.id])),
        ).toEqual([]);
        expect(await t.app.ctx.platform.blobs.get(otherPdf.blobKey)).toBeNull();
        expect(await t.app.ctx.platform.blobs.get(keptPdf.blobKey)).not.toBeNull();
        // The work key follows the DOI it took: adding that DOI again is the same work.
        const again = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws}/resources`,
          headers: owner.bearer,
          payload: { title: 'Anything', doi: '10.1000/MERGED' },
        });
        expect(again.statusCode).toBe(409);
        // Logged, for every member to read (and live: recordChange announces it on commit).
        const activity = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws}/activity?limit=2`,
          headers: viewer.bearer,
        });
        expect(activity.json<ApiSchema<'ActivityList'>>().activity).toMatchObject([
          {
            type: 'resource.updated',
            resourceId: kept.id,
            details: { mergedFrom: [other.id, third.id] },
          },
          {
            type: 'resource.removed',
            details: { resourceIds: [other.id, third.id], mergedInto: kept.id, count: 2 },
          },
        ]);
      });

      it('moves the PDF (file, pages) to a kept resource that has none', async () => {
        const ws = await workspace();
        const kept = await addResource(t.app, owner, ws, { title: 'No file yet' });
        const other = await addResource(t.app, owner, ws, { title: 'With a file' });
        const file = await makePagedPdf(['Words on page one', 'Words on page two']);
        const before = await uploadPdf(ws, other.id, file);
        expect(before.extraction).toBe('ready');

        const res = await merge(ws, { keep: kept.id, merge: [other.id] }, editor);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json<MergeResult>();
        expect(body.filled).toContain('pdf');
        expect(body.resource.pdf).toMatchObject({
          sha256: sha256(file),
          extraction: 'ready',
          pages: 2,
        });
        const pages = await t.app.ctx.db
          .select({ resourceId: resourcePdfPages.resourceId })
          .from(resourcePdfPages)
          .where(inArray(resourcePdfPages.resourceId, [kept.id, other.id]));
        expect(pages.map((page) => page.resourceId)).toEqual([kept.id, kept.id]);
        const download = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws}/resources/${kept.id}/pdf`,
          headers: viewer.bearer,
        });
        expect(download.statusCode).toBe(200);
        expect(sha256(download.rawPayload)).toBe(sha256(file));
        // Library search finds the moved text under the kept resource.
        const search = await t.app.inject({
          method: 'GET',
          url: `/api/library/search?q=${encodeURIComponent('"page two"')}`,
          headers: owner.bearer,
        });
        expect(search.statusCode, search.body).toBe(200);
        expect(search.body).toContain(kept.id);
        expect(search.body).not.toContain(other.id);
      });

      it('two concurrent merges of one group: one wins, the other is a 409, nothing is lost', async () => {
        const ws = await workspace();
        const a = await addResource(t.app, owner, ws, {
          title: 'Race A',
          notes: 'note A',
          tags: ['a'],
        });
        const b = await addResource(t.app, owner, ws, {
          title: 'Race B',
          notes: 'note B',
          tags: ['b'],
        });
        await annotate(t.app, owner, a.id, { body: 'annotation A' });
        await annotate(t.app, owner, b.id, { body: 'annotation B' });
        const [first, second] = await Promise.all([
          merge(ws, { keep: a.id, merge: [b.id], expectedVersions: { [a.id]: 1, [b.id]: 1 } }),
          merge(
            ws,
            { keep: b.id, merge: [a.id], expectedVersions: { [a.id]: 1, [b.id]: 1 } },
            editor,
          ),
        ]);
        const statuses = [first.statusCode, second.statusCode].sort();
        expect(statuses, `${first.body} ${second.body}`).toEqual([200, 409]);
        const loser = first.statusCode === 409 ? first : second;
        expect(errorOf(loser).details?.reason).toMatch(/^(gone|changed)$/);
        const won = (first.statusCode === 200 ? first : second).json<MergeResult>().resource;
        const left = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws}/resources`,
          headers: owner.bearer,
        });
        const resources = left.json<Resource[]>();
        expect(resources).toHaveLength(1);
        expect(resources[0]).toMatchObject({ id: won.id, version: won.version });
        expect(resources[0]!.notes.split('\n\n').sort()).toEqual(['note A', 'note B']);
        expect([...resources[0]!.tags].sort()).toEqual(['a', 'b']);
        expect(resources[0]!.annotations.map((x) => x.body).sort()).toEqual([
          'annotation A',
          'annotation B',
        ]);

        // The same merge sent twice at once: the second finds the merged one gone.
        const c = await addResource(t.app, owner, ws, { title: 'Race C' });
        const [x, y] = await Promise.all([
          merge(ws, { keep: won.id, merge: [c.id] }),
          merge(ws, { keep: won.id, merge: [c.id] }),
        ]);
        expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
        // And later, once it is known to be gone, still a 409 (removed from this workspace), not a 404.
        const later = await merge(ws, { keep: won.id, merge: [c.id] });
        expect(later.statusCode).toBe(409);
        expect(errorOf(later).details).toEqual({ field: 'merge.0', reason: 'gone' });
      });

      it('409 when a resource changed since the version the client saw; nothing merged', async () => {
        const ws = await workspace();
        const a = await addResource(t.app, owner, ws, { title: 'Stale A' });
        const b = await addResource(t.app, owner, ws, { title: 'Stale B' });
        const patched = await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${ws}/resources/${b.id}`,
          headers: editor.bearer,
          payload: { notes: 'changed meanwhile' },
        });
        expect(patched.statusCode).toBe(200);
        const res = await merge(ws, {
          keep: a.id,
          merge: [b.id],
          expectedVersions: { [a.id]: a.version, [b.id]: b.version },
        });
        expect(res.statusCode).toBe(409);
        expect(errorOf(res).details).toEqual({
          field: `expectedVersions.${b.id}`,
          reason: 'changed',
        });
        expect(await getResource(ws, b.id)).toMatchObject({ notes: 'changed meanwhile' });
        expect(await getResource(ws, a.id)).toMatchObject({ version: a.version });
      });

      it("404 naming another workspace's resource (or an unknown one); nothing merged", async () => {
        const ws = await workspace();
        const elsewhere = await createWorkspace(t.app, owner, { name: 'Elsewhere' });
        const a = await addResource(t.app, owner, ws, { title: 'Here' });
        const foreign = await addResource(t.app, owner, elsewhere.id, { title: 'There' });
        const res = await merge(ws, { keep: a.id, merge: [foreign.id] });
        expect(res.statusCode).toBe(404);
        expect(errorOf(res).details).toEqual({
          field: 'merge.0',
          reason: 'not_found',
        });
        expect(await getResource(elsewhere.id, foreign.id)).not.toBeNull();
        const kept = await merge(ws, { keep: foreign.id, merge: [a.id] });
        expect(errorOf(kept).details).toEqual({
          field: 'keep',
          reason: 'not_found',
        });
      });

      it('a viewer may find duplicates but not merge them (403); a stranger gets 404', async () => {
        const ws = await workspace();
        const a = await addResource(t.app, owner, ws, { title: 'Viewer A' });
        const b = await addResource(t.app, owner, ws, { title: 'Viewer B' });
        expect((await merge(ws, { keep: a.id, merge: [b.id] }, viewer)).statusCode).toBe(403);
        expect(
          (await merge(ws, { keep: a.id, merge: [b.id] }, await buildUser(t.app))).statusCode,
        ).toBe(404);
        expect(await getResource(ws, b.id)).not.toBeNull();
      });

      it('400 for keep among merge, an id twice, or a version of a resource not named', async () => {
        const ws = await workspace();
        const a = await addResource(t.app, owner, ws, { title: 'Bad A' });
        const b = await addResource(t.app, owner, ws, { title: 'Bad B' });
        const field = async (payload: object) => {
          const res = await merge(ws, payload);
          expect(res.statusCode).toBe(400);
          return errorOf(res).details?.field;
        };
        expect(await field({ keep: a.id, merge: [a.id] })).toBe('merge.0');
        expect(await field({ keep: a.id, merge: [b.id, b.id] })).toBe('merge.1');
        expect(await field({ keep: a.id, merge: [] })).toBe('merge');
        expect(await field({ keep: a.id, merge: [b.id], expectedVersions: { [ws]: 1 } })).toBe(
          `expectedVersions.${ws}`,
        );
      });

      it('409 when the notes joined would pass the notes limit; nothing merged', async () => {
        const ws = await workspace();
        const a = await addResource(t.app, owner, ws, {
          title: 'Long A',
          notes: 'a'.repeat(6_000),
        });
        const b = await addResource(t.app, owner, ws, {
          title: 'Long B',
          notes: 'b'.repeat(6_000),
        });
        const res = await merge(ws, { keep: a.id, merge: [b.id] });
        expect(res.statusCode).toBe(409);
        expect(errorOf(res).details?.reason).toBe('notes_too_long');
        expect(await getResource(ws, b.id)).not.toBeNull();
      });
    });

    describe('adding and importing a work already there', () => {
      it('adding by hand a resource alike by title, year and first author adds it, and the finder groups the two', async () => {
        const ws = await workspace();
        const there = await addResource(t.app, owner, ws, {
          title: 'Ĉu la ŝtono?',
          issued: { year: 2011 },
          creators: [author('Zamenhof', 'L.')],
        });
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws}/resources`,
          headers: owner.bearer,
          payload: { title: 'cu la stono', issued: { year: 2011 }, authors: ['Ludwik Zamenhof'] },
        });
        expect(res.statusCode).toBe(201);
        const added = res.json<BearerReply<'ResourceEnvelope'>>().resource;
        const found = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws}/duplicates`,
          headers: owner.bearer,
        });
        expect(
          found
            .json<ApiSchema<'DuplicateGroups'>>()
            .groups.map((group) => [group.reason, group.resources.map((r) => r.id)]),
        ).toEqual([['title', [there.id, added.id]]]);
      });

      it('the same BibTeX entry without a year imported twice is reported a duplicate the second time', async () => {
        const ws = await workspace();
        const entry = '@article{a1, title={SQL is great}, author={Bert, Ernie}}';
        const importOnce = () =>
          t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${ws}/import`,
            headers: { ...owner.bearer, 'content-type': 'application/x-bibtex' },
            payload: entry,
          });
        const first = await importOnce();
        expect(first.statusCode, first.body).toBe(200);
        expect(first.json<ApiSchema<'ImportReport'>>().counts.imported).toBe(1);
        const second = (await importOnce()).json<ApiSchema<'ImportReport'>>();
        expect(second.counts).toMatchObject({ imported: 0, duplicates: 1 });
        expect(second.entries[0]).toMatchObject({ outcome: 'duplicate' });
        const list = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws}/resources`,
          headers: owner.bearer,
        });
        expect(list.json<Resource[]>()).toHaveLength(1);
      });
    });
  });
}
