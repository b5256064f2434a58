import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseContentDisposition } from 'content-disposition';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import type { ResolvedResource, ResourceResolver } from '../../context.js';
import { resourcePdfPages, resourcePdfs } from '../../platform/db/schema.js';
import {
  makeEncryptedPdf,
  makeImageOnlyPdf,
  makePagedPdf,
} from '../../summaries/test-support/pdfs.js';
import {
  addResource,
  createWorkspace,
  pdfMultipart as multipart,
} from '../test-support/helpers.js';
import { MAX_PDF_BYTES } from './upload.js';

const fixture = (name: string): Buffer =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pdfs/${name}`, import.meta.url)));
/** PeerJ Computer Science 2017, CC BY 4.0: its DOI (10.7717/peerj-cs.118) is printed on its first page. */
const VESPA = fixture('vespa-peerjcs2017.pdf');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The lookup as search answers it for the fixture's DOI and an arXiv id; every identifier asked is recorded. */
const asked: string[] = [];
const RECORDS: Record<string, ResolvedResource> = {
  '10.7717/peerj-cs.118': {
    id: 'crossref:10.7717/peerj-cs.118',
    title: 'VESPA: Very large-scale Evolutionary and Selective Pressure Analyses',
    authors: ['Andrew E. Webb', 'Thomas A. Walsh', "Mary J. O'Connell"],
    abstract:
      'Large-scale molecular evolutionary analyses of protein coding sequences requires a number of preparatory steps.',
    url: 'https://doi.org/10.7717/peerj-cs.118',
    provider: 'crossref',
    publishedDate: '2017-06-12',
    doi: '10.7717/peerj-cs.118',
  },
};
const resolver: ResourceResolver = async (identifier) => {
  asked.push(identifier);
  return RECORDS[identifier] ?? null;
};

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`resource PDFs (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    let workspaceId: string;
    beforeAll(async () => {
      t = await buildTestApp({ leg, build: { resolveResource: resolver } });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
      workspaceId = (await createWorkspace(t.app, owner)).id;
    });
    afterAll(async () => t?.close());

    const pdfUrl = (resourceId: string, ws = workspaceId) =>
      `/api/workspaces/${ws}/resources/${resourceId}/pdf`;
    const put = (
      resourceId: string,
      body: ReturnType<typeof multipart>,
      user = owner,
      ws = workspaceId,
    ) =>
      t.app.inject({
        method: 'PUT',
        url: pdfUrl(resourceId, ws),
        headers: { ...user.bearer, ...body.headers },
        payload: body.payload,
      });
    const get = (resourceId: string, headers: Record<string, string> = {}, user = owner) =>
      t.app.inject({
        method: 'GET',
        url: pdfUrl(resourceId),
        headers: { ...user.bearer, ...headers },
      });
    const newResource = (title: string) => addResource(t.app, owner, workspaceId, { title });
    const pageRows = (resourceId: string) =>
      t.app.ctx.db
        .select()
        .from(resourcePdfPages)
        .where(eq(resourcePdfPages.resourceId, resourceId))
        .orderBy(resourcePdfPages.page);

    describe('PUT …/pdf, then extraction', () => {
      it('stores a real paper and answers at once with extraction pending; the text is then stored page by page', async () => {
        const resource = await newResource('VESPA');
        const res = await put(resource.id, multipart('vespa.pdf', VESPA));
        expect(res.statusCode).toBe(200);
        const { pdf } = res.json().resource;
        expect(pdf).toMatchObject({
          filename: 'vespa.pdf',
          size: VESPA.length,
          sha256: sha256(VESPA),
        });
        expect(['pending', 'ready']).toContain(pdf.extraction);

        const settled = await t.app.pdfExtraction.settled(resource.id);
        expect(settled).toMatchObject({
          extraction: 'ready',
          pageCount: 16,
          extractionError: null,
        });
        const pages = await pageRows(resource.id);
        expect(pages.map((row) => row.page)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
        expect(pages[0]!.text).toContain('VESPA');
        expect(pages[2]!.text).toContain('Overview of the 5 Phases');

        const listed = (
          await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${workspaceId}/resources`,
            headers: owner.cookieHeaders,
          })
        ).json();
        expect(listed.find((entry: { id: string }) => entry.id === resource.id).pdf).toMatchObject({
          extraction: 'ready',
          pages: 16,
          size: VESPA.length,
        });
      });

      it('gives a deep summary of a resource with a ready PDF from its stored text, to its readers only', async () => {
        const resource = await newResource('VESPA, summarised');
        await put(resource.id, multipart('vespa.pdf', VESPA));
        await t.app.pdfExtraction.settled(resource.id);
        const summarize = (headers: Record<string, string>, body: Record<string, unknown>) =>
          t.app.inject({ method: 'POST', url: '/api/summarize', headers, payload: body });
        // The resource has no url nor search id: a summary that needed a fetch could not be made at all.
        const res = await summarize(owner.bearer, {
          workspaceId,
          resourceId: resource.id,
          mode: 'deep',
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          modeRequested: 'deep',
          modeUsed: 'deep',
          fromCache: false,
        });
        expect(res.json().bullets.length).toBeGreaterThan(0);
        expect(res.json().tldr).toMatch(/\w{4}/);
        const again = await summarize(owner.bearer, {
          workspaceId,
          resourceId: resource.id,
          mode: 'deep',
        });
        expect(again.json().fromCache).not.toBe(false);
        // Issue 33: the stored PDF's summary is not reachable by its file's hash, signed out or not.
        const hash = sha256(VESPA);
        for (const headers of [{}, stranger.bearer]) {
          const byHash = await summarize(headers, {
            mode: 'deep',
            id: `sha256:${hash}`,
            title: 'VESPA, summarised',
          });
          expect(byHash.statusCode).toBe(400);
          expect(byHash.json().error).toMatch(/^id must not start with sha256:/);
        }
        expect(
          (await summarize(stranger.bearer, { workspaceId, resourceId: resource.id, mode: 'deep' }))
            .statusCode,
        ).toBe(404);
        expect(
          (await summarize({}, { workspaceId, resourceId: resource.id, mode: 'deep' })).statusCode,
        ).toBe(401);
        const bare = await newResource('No PDF to summarise');
        const none = await summarize(owner.bearer, {
          workspaceId,
          resourceId: bare.id,
          mode: 'deep',
        });
        expect(none.statusCode).toBe(422);
        expect(none.json().error).toMatch(/no PDF text/);
        expect((await summarize(owner.bearer, { resourceId: bare.id })).statusCode).toBe(400);
      });

      it('keeps a word that occurs only on page 3 as page 3', async () => {
        const resource = await newResource('Three pages');
        const pdf = await makePagedPdf([
          'The first page talks about rivers and boats at some length.',
          'The second page talks about bridges and roads.',
          'The third page alone names the quokka, a small marsupial.',
        ]);
        expect((await put(resource.id, multipart('three.pdf', pdf))).statusCode).toBe(200);
        expect(await t.app.pdfExtraction.settled(resource.id)).toMatchObject({
          extraction: 'ready',
          pageCount: 3,
        });
        const hits = await t.app.ctx.db
          .select({ page: resourcePdfPages.page })
          .from(resourcePdfPages)
          .where(
            and(
              eq(resourcePdfPages.resourceId, resource.id),
              sql`${resourcePdfPages.text} ilike '%quokka%'`,
            ),
          );
        expect(hits).toEqual([{ page: 3 }]);
      });

      it('fails an image-only PDF saying it has no text layer, and an encrypted one saying so', async () => {
        const scan = await newResource('A scan');
        const locked = await newResource('Locked');
        await put(scan.id, multipart('scan.pdf', await makeImageOnlyPdf()));
        await put(
          locked.id,
          multipart(
            'locked.pdf',
            await makeEncryptedPdf('A secret paper about confidential matters of state.'),
          ),
        );
        expect(await t.app.pdfExtraction.settled(scan.id)).toMatchObject({ extraction: 'failed' });
        expect(await t.app.pdfExtraction.settled(locked.id)).toMatchObject({
          extraction: 'failed',
        });
        const listed = (
          await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${workspaceId}`,
            headers: owner.bearer,
          })
        ).json().resources;
        const pdfOf = (id: string) => listed.find((entry: { id: string }) => entry.id === id).pdf;
        expect(pdfOf(scan.id).error).toMatch(/no text layer/);
        expect(pdfOf(locked.id).error).toMatch(/encrypted/);
        expect(await pageRows(scan.id)).toEqual([]);
      });

      it('refuses a file that is not a PDF by its bytes (415), whatever its name, and stores nothing', async () => {
        const resource = await newResource('Not a PDF');
        const res = await put(
          resource.id,
          multipart(
            'paper.pdf',
            Buffer.from(
              '<html><body>Not a PDF at all, just a page renamed.</body></html>'.repeat(40),
            ),
          ),
        );
        expect(res.statusCode).toBe(415);
        expect(res.json().error).toMatchObject({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          details: { field: 'file', reason: 'not_pdf' },
        });
        expect(
          await t.app.ctx.db
            .select()
            .from(resourcePdfs)
            .where(eq(resourcePdfs.resourceId, resource.id)),
        ).toEqual([]);
      });

      it('refuses a file past 50 MB with 413 and keeps the earlier PDF', async () => {
        const resource = await newResource('Too big');
        const small = await makePagedPdf(['A small paper that stays.']);
        await put(resource.id, multipart('small.pdf', small));
        const big = Buffer.alloc(MAX_PDF_BYTES + 1, 0x20);
        big.write('%PDF-1.7\n', 0, 'latin1');
        const res = await put(resource.id, multipart('big.pdf', big));
        expect(res.statusCode).toBe(413);
        expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
        const kept = await get(resource.id);
        expect(kept.statusCode).toBe(200);
        expect(kept.rawPayload.equals(small)).toBe(true);
      });

      it('asks for a multipart field named "file" (400)', async () => {
        const resource = await newResource('Wrong field');
        const res = await put(resource.id, multipart('x.pdf', VESPA, 'document'));
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.field).toBe('file');
      });

      it('replaces an earlier PDF: new bytes and ETag, the old file and its pages gone', async () => {
        const resource = await newResource('Replaced');
        const first = await makePagedPdf([
          'First version of the manuscript, with an old abstract.',
        ]);
        const second = await makePagedPdf([
          'Second version of the manuscript, with a new abstract.',
          'And a second page.',
        ]);
        await put(resource.id, multipart('v1.pdf', first));
        await t.app.pdfExtraction.settled(resource.id);
        const [before] = await t.app.ctx.db
          .select()
          .from(resourcePdfs)
          .where(eq(resourcePdfs.resourceId, resource.id));
        await put(resource.id, multipart('v2.pdf', second));
        expect(await t.app.pdfExtraction.settled(resource.id)).toMatchObject({
          extraction: 'ready',
          pageCount: 2,
          filename: 'v2.pdf',
        });
        expect(await t.app.ctx.platform.blobs.get(before!.blobKey)).toBeNull();
        const res = await get(resource.id);
        expect(res.rawPayload.equals(second)).toBe(true);
        expect(res.headers.etag).toBe(`"${sha256(second)}"`);
        expect((await pageRows(resource.id)).map((row) => row.text).join(' ')).not.toContain(
          'First version',
        );
      });
    });

    describe('GET …/pdf', () => {
      let resourceId: string;
      const hostileName = '..\\..\\etc/Résumé "final"; filename=evil.html <script>.pdf';
      beforeAll(async () => {
        resourceId = (await newResource('Served')).id;
        expect((await put(resourceId, multipart(hostileName, VESPA))).statusCode).toBe(200);
      });

      it('streams the whole file with its type, length, ETag, Accept-Ranges and a safely encoded Content-Disposition', async () => {
        const res = await get(resourceId);
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.equals(VESPA)).toBe(true);
        expect(res.headers).toMatchObject({
          'content-type': 'application/pdf',
          'content-length': String(VESPA.length),
          'accept-ranges': 'bytes',
          etag: `"${sha256(VESPA)}"`,
          'x-content-type-options': 'nosniff',
        });
        const disposition = String(res.headers['content-disposition']);
        expect(disposition).toMatch(/^[\x20-\x7e]+$/);
        const parsed = parseContentDisposition(disposition);
        expect(parsed.type).toBe('inline');
        // The last path segment, as uploaded: quotes, `;` and `<` survive as text, never as syntax.
        expect(parsed.parameters.filename).toBe(
          'etc/Résumé "final"; filename=evil.html <script>.pdf'.split('/').pop(),
        );
        const download = await t.app.inject({
          method: 'GET',
          url: `${pdfUrl(resourceId)}?download=true`,
          headers: owner.bearer,
        });
        expect(parseContentDisposition(String(download.headers['content-disposition'])).type).toBe(
          'attachment',
        );
      });

      it('answers single ranges with 206 and Content-Range, a suffix range, several ranges with the whole file', async () => {
        const head = await get(resourceId, { range: 'bytes=0-4' });
        expect(head.statusCode).toBe(206);
        expect(head.body).toBe('%PDF-');
        expect(head.headers['content-range']).toBe(`bytes 0-4/${VESPA.length}`);
        expect(head.headers['content-length']).toBe('5');

        const middle = await get(resourceId, { range: 'bytes=1000-1999' });
        expect(middle.rawPayload.equals(VESPA.subarray(1000, 2000))).toBe(true);

        const tail = await get(resourceId, { range: 'bytes=-16' });
        expect(tail.statusCode).toBe(206);
        expect(tail.rawPayload.equals(VESPA.subarray(VESPA.length - 16))).toBe(true);
        expect(tail.headers['content-range']).toBe(
          `bytes ${VESPA.length - 16}-${VESPA.length - 1}/${VESPA.length}`,
        );

        const open = await get(resourceId, { range: `bytes=${VESPA.length - 3}-` });
        expect(open.rawPayload.equals(VESPA.subarray(VESPA.length - 3))).toBe(true);

        const several = await get(resourceId, { range: 'bytes=0-1,5-6' });
        expect(several.statusCode).toBe(200);
        expect(several.rawPayload.length).toBe(VESPA.length);
      });

      it('answers a range past the end with 416 and the size', async () => {
        const res = await get(resourceId, { range: `bytes=${VESPA.length}-` });
        expect(res.statusCode).toBe(416);
        expect(res.headers['content-range']).toBe(`bytes */${VESPA.length}`);
        expect(res.json().error.code).toBe('RANGE_NOT_SATISFIABLE');
      });

      it('answers If-None-Match with the ETag by 304, and If-Range with another ETag by the whole file', async () => {
        const etag = `"${sha256(VESPA)}"`;
        const notModified = await get(resourceId, { 'if-none-match': etag });
        expect(notModified.statusCode).toBe(304);
        expect(notModified.rawPayload.length).toBe(0);
        const stale = await get(resourceId, { range: 'bytes=0-4', 'if-range': '"another"' });
        expect(stale.statusCode).toBe(200);
        expect(stale.rawPayload.length).toBe(VESPA.length);
        const fresh = await get(resourceId, { range: 'bytes=0-4', 'if-range': etag });
        expect(fresh.statusCode).toBe(206);
      });

      it('is 404 to another user, for a resource named under another workspace, and without a PDF; 401 without a session', async () => {
        expect((await get(resourceId, {}, stranger)).statusCode).toBe(404);
        const strangerPut = await put(resourceId, multipart('mine.pdf', VESPA), stranger);
        expect(strangerPut.statusCode).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: pdfUrl(resourceId),
              headers: stranger.bearer,
            })
          ).statusCode,
        ).toBe(404);
        const otherWorkspace = (await createWorkspace(t.app, owner, { name: 'Other' })).id;
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: pdfUrl(resourceId, otherWorkspace),
              headers: owner.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (await put(resourceId, multipart('x.pdf', VESPA), owner, otherWorkspace)).statusCode,
        ).toBe(404);
        const bare = await newResource('No PDF');
        expect((await get(bare.id)).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'GET', url: pdfUrl(resourceId) })).statusCode).toBe(
          401,
        );
        // The stranger's attempts changed nothing.
        expect((await get(resourceId)).rawPayload.equals(VESPA)).toBe(true);
      });
    });

    describe('DELETE …/pdf', () => {
      it('removes the file and its pages, keeps the resource; a second delete is 404', async () => {
        const resource = await newResource('Deleted PDF');
        await put(
          resource.id,
          multipart('gone.pdf', await makePagedPdf(['A page that will be removed.'])),
        );
        await t.app.pdfExtraction.settled(resource.id);
        const [row] = await t.app.ctx.db
          .select()
          .from(resourcePdfs)
          .where(eq(resourcePdfs.resourceId, resource.id));
        const res = await t.app.inject({
          method: 'DELETE',
          url: pdfUrl(resource.id),
          headers: owner.bearer,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true, id: resource.id });
        expect((await get(resource.id)).statusCode).toBe(404);
        expect(await pageRows(resource.id)).toEqual([]);
        expect(await t.app.ctx.platform.blobs.get(row!.blobKey)).toBeNull();
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: pdfUrl(resource.id),
              headers: owner.bearer,
            })
          ).statusCode,
        ).toBe(404);
        const detail = (
          await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${workspaceId}`,
            headers: owner.bearer,
          })
        ).json();
        expect(
          detail.resources.find((entry: { id: string }) => entry.id === resource.id).pdf,
        ).toBeNull();
      });
    });

    describe('removing what holds a PDF', () => {
      /** A resource of `ws` with a small PDF stored; the blob key of its file. */
      async function withPdf(ws: string, title: string): Promise<{ id: string; blobKey: string }> {
        const resource = await addResource(t.app, owner, ws, { title });
        expect(
          (
            await put(
              resource.id,
              multipart(`${title}.pdf`, await makePagedPdf([`The text of ${title}.`])),
              owner,
              ws,
            )
          ).statusCode,
        ).toBe(200);
        const [row] = await t.app.ctx.db
          .select()
          .from(resourcePdfs)
          .where(eq(resourcePdfs.resourceId, resource.id));
        expect(await t.app.ctx.platform.blobs.get(row!.blobKey)).not.toBeNull();
        return { id: resource.id, blobKey: row!.blobKey };
      }
      const stored = (key: string) => t.app.ctx.platform.blobs.get(key);

      it('forgets the files of a removed resource, of resources removed together, and of a deleted workspace; a kept one stays', async () => {
        const ws = (await createWorkspace(t.app, owner)).id;
        const [single, first, second, kept] = [
          await withPdf(ws, 'single'),
          await withPdf(ws, 'first'),
          await withPdf(ws, 'second'),
          await withPdf(ws, 'kept'),
        ];
        const removeOne = await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${ws}/resources/${single.id}`,
          headers: owner.bearer,
        });
        expect(removeOne.statusCode).toBe(200);
        expect(await stored(single.blobKey)).toBeNull();

        const bulk = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws}/resources/bulk/remove`,
          headers: owner.bearer,
          payload: { resourceIds: [first.id, second.id] },
        });
        expect(bulk.statusCode).toBe(200);
        expect(await stored(first.blobKey)).toBeNull();
        expect(await stored(second.blobKey)).toBeNull();
        expect(await stored(kept.blobKey)).not.toBeNull();

        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${ws}`,
              headers: owner.bearer,
            })
          ).statusCode,
        ).toBe(200);
        expect(await stored(kept.blobKey)).toBeNull();
      });
    });

    describe('POST /api/workspaces/{id}/resources with a PDF', () => {
      const create = (body: ReturnType<typeof multipart>, ws = workspaceId) =>
        t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws}/resources`,
          headers: { ...owner.bearer, ...body.headers },
          payload: body.payload,
        });

      it('makes the resource, then fills its record from the DOI printed on its first page', async () => {
        const ws = (await createWorkspace(t.app, owner, { name: 'From PDFs' })).id;
        const res = await create(multipart('webb2017.pdf', VESPA), ws);
        expect(res.statusCode).toBe(201);
        const { resource } = res.json();
        expect(resource).toMatchObject({
          title: 'webb2017',
          type: 'document',
          pdf: { filename: 'webb2017.pdf', extraction: 'pending' },
        });
        expect(await t.app.pdfExtraction.settled(resource.id)).toMatchObject({
          extraction: 'ready',
        });
        expect(asked).toContain('10.7717/peerj-cs.118');
        const detail = (
          await t.app.inject({ method: 'GET', url: `/api/workspaces/${ws}`, headers: owner.bearer })
        ).json();
        expect(detail.resources[0]).toMatchObject({
          title: 'VESPA: Very large-scale Evolutionary and Selective Pressure Analyses',
          authors: ['Andrew E. Webb', 'Thomas A. Walsh', "Mary J. O'Connell"],
          url: 'https://doi.org/10.7717/peerj-cs.118',
          type: 'article-journal',
          doi: '10.7717/peerj-cs.118',
          data: { metadataFrom: 'lookup', identifier: '10.7717/peerj-cs.118' },
          pdf: { extraction: 'ready', pages: 16 },
        });
        // The same work again, by a JSON body naming its DOI, is the duplicate adding refuses.
        const again = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws}/resources`,
          headers: owner.bearer,
          payload: { title: 'VESPA', data: { doi: '10.7717/PEERJ-CS.118' } },
        });
        expect(again.statusCode).toBe(409);
      });

      it("without an identifier, takes the title and authors from the PDF's own metadata", async () => {
        const pdf = await makePagedPdf(
          ['Some opening words without any identifier in them at all.'],
          {
            Title: 'Measuring the Flight of Bumblebees in Cold Weather',
            Author: 'Ada Lovelace; Charles Babbage',
          },
        );
        const res = await create(multipart('scan_0001.pdf', pdf));
        expect(res.statusCode).toBe(201);
        const id = res.json().resource.id;
        await t.app.pdfExtraction.settled(id);
        const [row] = (
          await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${workspaceId}/resources?limit=100`,
            headers: owner.cookieHeaders,
          })
        )
          .json()
          .filter((entry: { id: string }) => entry.id === id);
        expect(row).toMatchObject({
          title: 'Measuring the Flight of Bumblebees in Cold Weather',
          authors: ['Ada Lovelace', 'Charles Babbage'],
          data: { metadataFrom: 'pdf-info' },
        });
      });

      it('refuses the same PDF twice in a workspace (409), a non-PDF (415), and still takes JSON bodies', async () => {
        const ws = (await createWorkspace(t.app, owner, { name: 'Twice' })).id;
        const pdf = await makePagedPdf(['Once is enough for this little document.']);
        expect((await create(multipart('once.pdf', pdf), ws)).statusCode).toBe(201);
        const twice = await create(multipart('again.pdf', pdf), ws);
        expect(twice.statusCode).toBe(409);
        expect(twice.json().error.details).toMatchObject({ field: 'file', reason: 'duplicate' });
        expect(
          (await create(multipart('fake.pdf', Buffer.from('GIF89a not a pdf')), ws)).statusCode,
        ).toBe(415);
        const json = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws}/resources`,
          headers: owner.bearer,
          payload: { title: 'Typed by hand' },
        });
        expect(json.statusCode).toBe(201);
        expect(json.json().resource.pdf).toBeNull();
        const badJson = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws}/resources`,
          headers: owner.bearer,
          payload: { nmae: 'x' },
        });
        expect(badJson.statusCode).toBe(400);
        const upload = multipart('x.pdf', pdf);
        const strangers = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${ws}/resources`,
          headers: { ...stranger.bearer, ...upload.headers },
          payload: upload.payload,
        });
        expect(strangers.statusCode).toBe(404);
      });
    });
  });
}
