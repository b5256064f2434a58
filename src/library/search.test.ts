/**
 * GET /api/library/search on both stores: what is found where (weights, quotes, or, -word, prefixes,
 * PDF pages, annotations, tags), filters, sorts, pages, and that nothing of another user's workspaces
 * ever appears. One app per store; the library is built once through the API, PDF pages are inserted
 * directly (the PDF capability fills them in the service).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../../test/support/api-types.js';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { resourcePdfPages, resourcePdfs } from '../platform/db/schema.js';
import {
  addResource,
  annotate,
  createWorkspace,
  UNKNOWN_ID,
} from '../workspaces/test-support/helpers.js';

type Snippet = ApiSchema<'LibrarySnippet'>;
type Reply = ApiSchema<'LibrarySearchReply'>;

/** The words a snippet marks, lower-cased. */
const marked = (snippet: Snippet) =>
  snippet.highlights.map(({ start, end }) => snippet.text.slice(start, end).toLowerCase());

const FILLER =
  'The experimental section reports measurements taken over several weeks, with calibration runs before each series and a discussion of the error budget.';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`GET /api/library/search (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    const ids: Record<string, string> = {};
    let reading: { id: string; name: string };
    let thesis: { id: string; name: string };
    let strangers: { id: string; name: string };

    async function search(params: Record<string, string | number>, user: TestUser = owner) {
      const query = new URLSearchParams(
        Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]),
      );
      return t.app.inject({
        method: 'GET',
        url: `/api/library/search?${query.toString()}`,
        headers: user.bearer,
      });
    }
    async function found(params: Record<string, string | number>): Promise<Reply> {
      const res = await search(params);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Reply>();
    }
    const titles = (reply: Reply) => reply.results.map((hit) => hit.title);

    async function attachPages(resourceId: string, pages: string[]) {
      await t.app.ctx.db.insert(resourcePdfs).values({
        resourceId,
        blobKey: `pdf/${resourceId}`,
        filename: 'paper.pdf',
        byteSize: 1000,
        sha256: '0'.repeat(64),
        extraction: 'ready',
        pageCount: pages.length,
      });
      await t.app.ctx.db
        .insert(resourcePdfPages)
        .values(pages.map((text, index) => ({ resourceId, page: index + 1, text })));
    }

    beforeAll(async () => {
      t = await buildTestApp({ leg });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
      [reading, thesis, strangers] = await Promise.all([
        createWorkspace(t.app, owner, { name: 'Reading list' }),
        createWorkspace(t.app, owner, { name: 'Thesis' }),
        createWorkspace(t.app, stranger, { name: 'Not yours' }),
      ]);
      // Added one after another, so that "added" has an order: lattice, zeolite, folding, misfolding, tagged.
      ids.lattice = (
        await addResource(t.app, owner, reading.id, {
          title: 'Quasicrystal lattices in aluminium alloys',
          authors: ['Dan Shechtman'],
          type: 'article',
          data: {
            abstract: 'Diffraction patterns with icosahedral symmetry.',
            publishedDate: '1984-11-12',
          },
        })
      ).id;
      ids.zeolite = (
        await addResource(t.app, owner, reading.id, {
          title: 'Porous frameworks',
          authors: ['Avelino Corma'],
          type: 'review',
          data: { abstract: 'A survey of microporous solids.', publishedDate: '2003' },
        })
      ).id;
      ids.folding = (
        await addResource(t.app, owner, thesis.id, {
          title: 'Protein folding pathways',
          authors: ['Cyrus Levinthal'],
          type: 'article',
          tags: ['Biophysics'],
          notes: 'Compare with the energy landscape view.',
          data: { abstract: 'How a chain finds its native state.', publishedDate: '1969-05' },
        })
      ).id;
      ids.misfolding = (
        await addResource(t.app, owner, thesis.id, {
          title: 'Folding of a misfolded protein',
          type: 'preprint',
          data: { abstract: 'Chaperones and aggregation.', publishedDate: '2021-02-03' },
        })
      ).id;
      ids.tagged = (
        await addResource(t.app, owner, thesis.id, {
          title: 'Untitled draft',
          tags: ['serendipity'],
        })
      ).id;
      // The full text: a passing mention of quasicrystals, and a word that occurs only on page 3.
      await attachPages(ids.zeolite, [
        `Introduction. ${FILLER}`,
        `Related work mentions a quasicrystal once. ${FILLER}`,
        `Synthesis of the faujasite zeolite under hydrothermal conditions. ${FILLER}`,
        `Results. ${FILLER}`,
      ]);
      ids.annotation = (
        await annotate(t.app, owner, ids.misfolding, {
          body: 'Chaperonin cages prevent aggregation here',
        })
      ).id;
      // The stranger's library holds the same words: none of it may ever appear for the owner.
      await addResource(t.app, stranger, strangers.id, {
        title: 'Quasicrystal zeolite protein folding serendipity',
        tags: ['serendipity'],
      });
    });
    afterAll(async () => t?.close());

    it('ranks a title hit above a hit in the full text, and says where each hit is', async () => {
      const reply = await found({ q: 'quasicrystal' });
      expect(titles(reply)).toEqual([
        'Quasicrystal lattices in aluminium alloys',
        'Porous frameworks',
      ]);
      expect(reply.results[0]!.rank).toBeGreaterThan(reply.results[1]!.rank);
      expect(reply.results[0]!.snippets.map((s) => s.in)).toEqual(['title']);
      expect(marked(reply.results[0]!.snippets[0]!)).toEqual(['quasicrystal']);
      expect(reply.results[1]!.snippets).toMatchObject([{ in: 'pdf', page: 2 }]);
      expect(reply.results[0]!.workspace).toEqual({ id: reading.id, name: 'Reading list' });
      expect(reply.total).toBe(2);
    });

    it('finds a word that occurs only on page 3 of a PDF, with a snippet saying page 3', async () => {
      const reply = await found({ q: 'zeolite' });
      expect(titles(reply)).toEqual(['Porous frameworks']);
      const [snippet] = reply.results[0]!.snippets;
      expect(snippet).toMatchObject({ in: 'pdf', page: 3 });
      expect(marked(snippet!)).toEqual(['zeolite']);
      expect(snippet!.text).toContain('faujasite zeolite under hydrothermal');
    });

    it('reads quotes as a phrase, `or` as either, and -word as without', async () => {
      expect(titles(await found({ q: '"protein folding"' }))).toEqual(['Protein folding pathways']);
      expect(titles(await found({ q: 'protein folding', sort: 'added' }))).toEqual([
        'Folding of a misfolded protein',
        'Protein folding pathways',
      ]);
      expect(titles(await found({ q: 'zeolite or levinthal', sort: 'added' }))).toEqual([
        'Protein folding pathways',
        'Porous frameworks',
      ]);
      expect(titles(await found({ q: 'folding -chaperones' }))).toEqual([
        'Protein folding pathways',
      ]);
    });

    it('gives each hit the same rank whatever the sort', async () => {
      const ranks = async (sort: string) =>
        new Map(
          (await found({ q: 'quasicrystal or folding', sort })).results.map((h) => [h.id, h.rank]),
        );
      const byRelevance = await ranks('relevance');
      expect(byRelevance.size).toBe(4);
      for (const sort of ['added', 'date']) {
        const other = await ranks(sort);
        expect([...other.keys()].sort()).toEqual([...byRelevance.keys()].sort());
        for (const [id, rank] of other) expect(rank, sort).toBeCloseTo(byRelevance.get(id)!, 5);
      }
    });

    it('matches the last word as a prefix while it is being typed, and whole once a space follows', async () => {
      expect(titles(await found({ q: 'quasicry' }))).toEqual([
        'Quasicrystal lattices in aluminium alloys',
        'Porous frameworks',
      ]);
      expect(titles(await found({ q: 'aluminium quasicry' }))).toEqual([
        'Quasicrystal lattices in aluminium alloys',
      ]);
      expect((await found({ q: 'quasicry ' })).total).toBe(0);
      expect((await found({ q: '"protein fol"' })).total).toBe(0);
      expect(titles(await found({ q: '"protein fol' }))).toEqual(['Protein folding pathways']);
      expect(titles(await found({ q: 'shecht' }))).toEqual([
        'Quasicrystal lattices in aluminium alloys',
      ]);
    });

    it('takes any text as words, never as query syntax', async () => {
      for (const q of [
        "quasicrystal':* | !",
        "') or 1=1 --",
        '& | ! ( ) : * <->',
        '"',
        '-',
        'the',
      ]) {
        const res = await search({ q });
        expect(res.statusCode, q).toBe(200);
      }
      expect(titles(await found({ q: "quasicrystal':* | !" }))).toEqual([
        'Quasicrystal lattices in aluminium alloys',
        'Porous frameworks',
      ]);
    });

    it('finds tags, notes, authors, abstracts and annotations, naming each', async () => {
      const tag = await found({ q: 'serendipity' });
      expect(tag.results.map((hit) => [hit.id, hit.snippets.map((s) => s.in)])).toEqual([
        [ids.tagged, ['tag']],
      ]);
      expect((await found({ q: 'landscape' })).results[0]!.snippets).toMatchObject([
        { in: 'notes' },
      ]);
      expect((await found({ q: 'levinthal' })).results[0]!.snippets).toMatchObject([
        { in: 'authors' },
      ]);
      expect((await found({ q: 'icosahedral' })).results[0]!.snippets).toMatchObject([
        { in: 'abstract' },
      ]);
      const annotation = await found({ q: 'chaperonin' });
      expect(annotation.results.map((hit) => hit.id)).toEqual([ids.misfolding]);
      expect(annotation.results[0]!.snippets).toEqual([
        {
          in: 'annotation',
          annotationId: ids.annotation,
          text: 'Chaperonin cages prevent aggregation here',
          highlights: [{ start: 0, end: 10 }],
        },
      ]);
    });

    it('filters by workspace, tag, type and years', async () => {
      expect(titles(await found({ q: 'folding', workspaceId: reading.id }))).toEqual([]);
      expect((await found({ workspaceId: thesis.id })).total).toBe(3);
      expect(titles(await found({ tag: 'BIOPHYSICS' }))).toEqual(['Protein folding pathways']);
      expect(titles(await found({ q: 'folding', type: 'Preprint' }))).toEqual([
        'Folding of a misfolded protein',
      ]);
      expect(titles(await found({ yearFrom: 1980, yearTo: 2010, sort: 'date' }))).toEqual([
        'Porous frameworks',
        'Quasicrystal lattices in aluminium alloys',
      ]);
      expect(titles(await found({ yearTo: 1970 }))).toEqual(['Protein folding pathways']);
    });

    it('sorts by date (unknown last) and by when added, and pages with a total', async () => {
      expect(titles(await found({ sort: 'date' }))).toEqual([
        'Folding of a misfolded protein',
        'Porous frameworks',
        'Quasicrystal lattices in aluminium alloys',
        'Protein folding pathways',
        'Untitled draft',
      ]);
      const added = titles(await found({ sort: 'added' }));
      expect(added).toEqual([
        'Untitled draft',
        'Folding of a misfolded protein',
        'Protein folding pathways',
        'Porous frameworks',
        'Quasicrystal lattices in aluminium alloys',
      ]);
      const second = await found({ sort: 'added', limit: 2, offset: 2 });
      expect(second).toMatchObject({ total: 5, hasMore: true, limit: 2, offset: 2 });
      expect(titles(second)).toEqual(added.slice(2, 4));
      expect(await found({ sort: 'added', limit: 2, offset: 4 })).toMatchObject({
        total: 5,
        hasMore: false,
      });
      expect(await found({ sort: 'added', offset: 50 })).toMatchObject({
        results: [],
        total: 5,
        hasMore: false,
      });
    });

    it("never shows another user's workspaces: their words are not found, their workspace is a 404", async () => {
      const reply = await found({
        q: 'quasicrystal or zeolite or serendipity or folding',
        limit: 100,
      });
      expect(reply.results.every((hit) => hit.workspace.id !== strangers.id)).toBe(true);
      expect(reply.total).toBe(5);
      const theirs = await search({ q: 'serendipity', workspaceId: strangers.id });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().error.code).toBe('NOT_FOUND');
      expect((await search({ workspaceId: UNKNOWN_ID })).statusCode).toBe(404);
      // And the other way round: the stranger sees only their own resource.
      const own = await search({ q: 'serendipity' }, stranger);
      expect(own.json<Reply>().results.map((hit) => hit.workspace.id)).toEqual([strangers.id]);
    });

    it("follows a PDF's text as it is stored, replaced and removed", async () => {
      const id = (await addResource(t.app, owner, reading.id, { title: 'Scanned later' })).id;
      expect(titles(await found({ q: 'xylophonist' }))).toEqual([]);
      await attachPages(id, [
        'Nothing to see on the first page.',
        'A xylophonist appears on page two.',
      ]);
      const hit = await found({ q: 'xylophonist' });
      expect(titles(hit)).toEqual(['Scanned later']);
      expect(hit.results[0]!.snippets).toMatchObject([{ in: 'pdf', page: 2 }]);
      // A phrase is read in its words' order (through the pages).
      expect(titles(await found({ q: '"xylophonist appears"' }))).toEqual(['Scanned later']);
      expect(titles(await found({ q: '"appears xylophonist"' }))).toEqual([]);
      // The PDF replaced: its pages change in place (as a new extraction writes them).
      await t.app.ctx.db
        .update(resourcePdfPages)
        .set({ text: 'A marimba player now.' })
        .where(eq(resourcePdfPages.resourceId, id));
      expect(titles(await found({ q: 'xylophonist' }))).toEqual([]);
      expect(titles(await found({ q: 'marimba' }))).toEqual(['Scanned later']);
      await t.app.ctx.db.delete(resourcePdfs).where(eq(resourcePdfs.resourceId, id));
      expect(titles(await found({ q: 'marimba' }))).toEqual([]);
    });

    it('answers a search asked again and again the same (PostgreSQL plans it once, from its sixth run)', async () => {
      const asked = { q: 'quasicrystal or folding', sort: 'relevance' };
      const first = await found(asked);
      expect(first.total).toBe(4);
      for (let run = 0; run < 7; run++) expect(await found(asked)).toEqual(first);
      // Another user's same search, on the same prepared statement, sees only their own.
      const theirs = await search({ q: 'quasicrystal or folding' }, stranger);
      expect(theirs.json<Reply>().results.map((hit) => hit.workspace.id)).toEqual([strangers.id]);
    });

    it("shows a long page's hit from the text around it, also when the word first occurs inside another", async () => {
      const lab = await createWorkspace(t.app, owner, { name: 'Long pages' });
      const [late, inside] = await Promise.all([
        addResource(t.app, owner, lab.id, { title: 'Late mention' }),
        addResource(t.app, owner, lab.id, { title: 'Inside another word' }),
      ]);
      const filler = `${FILLER} `.repeat(8);
      await attachPages(late.id, [`${filler}The trilobite appears at last. ${filler}`]);
      // "Trilobites" stems to the query's lexeme, "trilobitomorph" does not (and comes first).
      await attachPages(inside.id, [
        `Trilobitomorpha, the group. ${filler}Two trilobites were found. ${filler}`,
      ]);
      // A space after the word: whole words, not a prefix being typed.
      const reply = await found({ q: 'trilobite ', workspaceId: lab.id });
      const pdf = Object.fromEntries(
        reply.results.map((hit) => [hit.title, hit.snippets.find((s) => s.in === 'pdf')!]),
      );
      expect(marked(pdf['Late mention']!)).toEqual(['trilobite']);
      expect(pdf['Late mention']!.text).toContain('The trilobite appears at last');
      expect(marked(pdf['Inside another word']!)).toEqual(['trilobites']);
      expect(pdf['Inside another word']!.text).toContain('Two trilobites were found');
    });

    it('finds a PDF hit where its resource is now: moved to another workspace, given another year', async () => {
      const [from, to] = await Promise.all([
        createWorkspace(t.app, owner, { name: 'Inbox' }),
        createWorkspace(t.app, owner, { name: 'Archive' }),
      ]);
      const id = (await addResource(t.app, owner, from.id, { title: 'Field notes' })).id;
      await attachPages(id, ['The ornithopter flew at dawn.']);
      const where = async (params: Record<string, string | number>) =>
        (await found({ q: 'ornithopter', ...params })).results.map((hit) => [
          hit.workspace.id,
          hit.publishedDate ?? null,
        ]);
      expect(await where({})).toEqual([[from.id, null]]);
      expect(await where({ yearFrom: 1900 })).toEqual([]);

      const moved = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${from.id}/resources/bulk/move`,
        headers: owner.bearer,
        payload: { resourceIds: [id], targetWorkspaceId: to.id },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(await where({ workspaceId: from.id })).toEqual([]);
      expect(await where({ workspaceId: to.id })).toEqual([[to.id, null]]);

      const edited = await t.app.inject({
        method: 'PATCH',
        url: `/api/workspaces/${to.id}/resources/${id}`,
        headers: owner.bearer,
        payload: { issued: { year: 1891 } },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(await where({ yearFrom: 1890, yearTo: 1891 })).toEqual([[to.id, '1891']]);
      expect(await where({ yearFrom: 1892 })).toEqual([]);
      // The year sorts the hit among the others by date (1891: after every dated resource above).
      const byDate = await found({ q: 'ornithopter or quasicrystal', sort: 'date' });
      expect(byDate.results.map((hit) => hit.id).at(-1)).toBe(id);
    });

    it("finds a quoted phrase in a PDF only in its words' order, on one page", async () => {
      const lab = await createWorkspace(t.app, owner, { name: 'Lab' });
      const id = (await addResource(t.app, owner, lab.id, { title: 'Budding studies' })).id;
      await attachPages(id, [
        'The gene expression of yeast cells was measured.',
        'Expression of one gene differs; the cells of yeast divide.',
        'Expression varies widely.',
      ]);
      const only = async (q: string) => titles(await found({ q, workspaceId: lab.id }));
      const hit = ['Budding studies'];
      for (const q of [
        '"gene expression"',
        '"gene expression of yeast"',
        '"expression of yeast cells"',
        '"yeast cells" "expression varies"',
        '"expression varies" or "nowhere at all"',
      ]) {
        expect(await only(q), q).toEqual(hit);
      }
      // Each pair is in the PDF, but not the whole phrase, nor on one page; a phrase left out.
      for (const q of [
        '"expression gene"',
        '"gene expression varies"',
        '"yeast cells divide"',
        'yeast -"gene expression"',
      ]) {
        expect(await only(q), q).toEqual([]);
      }
      expect(await only('yeast -"expression gene"')).toEqual(hit);
      const page = await found({ q: '"expression varies"', workspaceId: lab.id });
      expect(page.results[0]!.snippets).toMatchObject([{ in: 'pdf', page: 3 }]);
    });

    it('matches without accents and in any case: names, titles, prefixes, phrases, PDF text', async () => {
      const abroad = await createWorkspace(t.app, owner, { name: 'Abroad' });
      const id = (
        await addResource(t.app, owner, abroad.id, {
          title: 'École normale lectures on retinal glia',
          authors: ['Ćwiklinski, Józef', 'Anna Müller'],
        })
      ).id;
      await attachPages(id, ['Ein Bäcker aus Köln zählt die Zellen.']);
      const only = async (q: string) => titles(await found({ q, workspaceId: abroad.id }));
      const hit = ['École normale lectures on retinal glia'];
      for (const q of ['cwiklinski', 'CWIKLINSKI ', 'Ćwiklinski', 'muller', 'MÜLLER ', 'ecole']) {
        expect(await only(q), q).toEqual(hit);
      }
      // Prefixes being typed, with or without the accent; a phrase in its order only.
      for (const q of [
        'cwik',
        'ćwik',
        'mül',
        'ecol',
        '"ecole normale"',
        'koln',
        '"backer aus koln"',
      ]) {
        expect(await only(q), q).toEqual(hit);
      }
      expect(await only('"normale ecole"')).toEqual([]);
      // The snippets mark the words as written, accents and all.
      const reply = await found({ q: 'ecole cwiklinski', workspaceId: abroad.id });
      const where = Object.fromEntries(reply.results[0]!.snippets.map((s) => [s.in, marked(s)]));
      expect(where).toMatchObject({ title: ['école'], authors: ['ćwiklinski'] });
      const pdf = await found({ q: 'koln', workspaceId: abroad.id });
      expect(pdf.results[0]!.snippets).toMatchObject([{ in: 'pdf', page: 1 }]);
      expect(marked(pdf.results[0]!.snippets[0]!)).toEqual(['köln']);
    });

    it('needs a session (401) and bounded input (400 naming the field)', async () => {
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/library/search?q=x' })).statusCode,
      ).toBe(401);
      for (const [params, field] of [
        [{ q: 'x'.repeat(501) }, 'q'],
        [{ limit: 101 }, 'limit'],
        [{ offset: 10_001 }, 'offset'],
        [{ sort: 'citations' }, 'sort'],
        [{ workspaceId: 'nope' }, 'workspaceId'],
        [{ yearFrom: 2020, yearTo: 2010 }, 'yearTo'],
        [{ tag: 't'.repeat(51) }, 'tag'],
      ] as const) {
        const res = await search(params);
        expect(res.statusCode, JSON.stringify(params)).toBe(400);
        expect(res.json().error.details.field).toBe(field);
      }
    });
  });
}
