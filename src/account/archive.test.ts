/**
 * GET /api/account/export?format=zip: one archive with the JSON export, the BibTeX and every stored PDF,
 * read back with a real ZIP reader (yauzl); streamed, so that the PDFs are read from the store only as
 * fast as the reader takes the archive (a paused reader holds the server to a few MB of 96).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { resourcePdfs } from '../platform/db/schema.js';
import { addResource, createWorkspace, pdfMultipart } from '../workspaces/test-support/helpers.js';

const fixture = (name: string): Buffer =>
  readFileSync(fileURLToPath(new URL(`../../test/fixtures/pdfs/${name}`, import.meta.url)));
const VESPA = fixture('vespa-peerjcs2017.pdf');
const SPECTER = fixture('specter-acl2020-2col.pdf');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Every entry of a ZIP held in a buffer, by name, with its bytes (yauzl checks each CRC as it reads). */
async function unzip(data: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(data, { lazyEntries: true, validateEntrySizes: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`GET /api/account/export?format=zip (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;

    beforeAll(async () => {
      t = await buildTestApp({ leg });
      [owner, stranger] = await Promise.all([
        buildUser(t.app, { name: 'Ada Owner' }),
        buildUser(t.app),
      ]);
    });
    afterAll(async () => t?.close());

    const uploadPdf = async (user: TestUser, ws: string, resourceId: string, pdf: Buffer) => {
      const body = pdfMultipart('paper.pdf', pdf);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/workspaces/${ws}/resources/${resourceId}/pdf`,
        headers: { ...user.bearer, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBeLessThan(300);
    };

    it('holds the JSON export, the BibTeX and each stored PDF byte for byte, by workspace; nobody else’s', async () => {
      const ws = await createWorkspace(t.app, owner, { name: 'Évolution / selection' });
      const vespa = await addResource(t.app, owner, ws.id, { title: 'VESPA: ../../etc/passwd' });
      const specter = await addResource(t.app, owner, ws.id, { title: 'SPECTER' });
      await addResource(t.app, owner, ws.id, { title: 'No PDF here' });
      await uploadPdf(owner, ws.id, vespa.id, VESPA);
      await uploadPdf(owner, ws.id, specter.id, SPECTER);
      const theirs = await createWorkspace(t.app, stranger, { name: 'Not yours' });
      const secret = await addResource(t.app, stranger, theirs.id, { title: 'Secret paper' });
      await uploadPdf(stranger, theirs.id, secret.id, VESPA);

      const res = await t.app.inject({
        method: 'GET',
        url: '/api/account/export?format=zip',
        headers: owner.bearer,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="research-workspace-\d{4}-\d{2}-\d{2}\.zip"$/,
      );
      const entries = await unzip(res.rawPayload);
      const folder = `pdfs/volution-selection-${ws.id.slice(0, 8)}`.replace(
        'volution',
        'Évolution',
      );
      expect([...entries.keys()].sort()).toEqual(
        [
          'research-workspace.bib',
          'research-workspace.json',
          `${folder}/SPECTER-${specter.id.slice(0, 8)}.pdf`,
          `${folder}/VESPA-etc-passwd-${vespa.id.slice(0, 8)}.pdf`,
        ].sort(),
      );
      expect(sha256(entries.get(`${folder}/VESPA-etc-passwd-${vespa.id.slice(0, 8)}.pdf`)!)).toBe(
        sha256(VESPA),
      );
      expect(entries.get(`${folder}/SPECTER-${specter.id.slice(0, 8)}.pdf`)!.equals(SPECTER)).toBe(
        true,
      );

      // The JSON is the JSON export's, the BibTeX the BibTeX export's.
      const json = JSON.parse(entries.get('research-workspace.json')!.toString('utf8'));
      const exported = (
        await t.app.inject({ method: 'GET', url: '/api/account/export', headers: owner.bearer })
      ).json();
      expect({ ...json, exportedAt: null }).toEqual({ ...exported, exportedAt: null });
      const resources = json.workspaces[0].resources;
      expect(resources.find((r: { id: string }) => r.id === vespa.id).pdf.sha256).toBe(
        sha256(VESPA),
      );
      const bib = (
        await t.app.inject({
          method: 'GET',
          url: '/api/account/export?format=bibtex',
          headers: owner.bearer,
        })
      ).body;
      expect(entries.get('research-workspace.bib')!.toString('utf8')).toBe(bib);
      expect(bib).toContain('SPECTER');
      expect(bib).not.toContain('Secret paper');
    });

    it('needs a session (401)', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/account/export?format=zip' });
      expect(res.statusCode).toBe(401);
    });

    it('streams: the server reads the 96 MB of PDFs only as fast as the download takes them', async () => {
      const user = await buildUser(t.app);
      const ws = await createWorkspace(t.app, user, { name: 'Large' });
      const PDF_BYTES = 32 * 1024 * 1024;
      const COUNT = 3;
      // Three stored PDFs of 32 MB each: uploaded small, then their stored bytes replaced in the blob store.
      for (let index = 0; index < COUNT; index++) {
        const resource = await addResource(t.app, user, ws.id, { title: `Large ${index}` });
        await uploadPdf(user, ws.id, resource.id, VESPA);
        const [row] = await t.app.ctx.db
          .select()
          .from(resourcePdfs)
          .where(eq(resourcePdfs.resourceId, resource.id));
        const chunk = Buffer.alloc(1024 * 1024, index + 1);
        await t.app.ctx.platform.blobs.putStream(
          row!.blobKey,
          Readable.from(
            (function* () {
              for (let written = 0; written < PDF_BYTES; written += chunk.length) yield chunk;
            })(),
          ),
        );
        await t.app.ctx.db
          .update(resourcePdfs)
          .set({ byteSize: PDF_BYTES })
          .where(eq(resourcePdfs.resourceId, resource.id));
      }

      // How far the server has read the stored PDFs: the disk store's streams count their bytes.
      const blobs = t.app.ctx.platform.blobs;
      const getStream = blobs.getStream.bind(blobs);
      const opened: Array<{ bytesRead: number }> = [];
      blobs.getStream = async (key, range) => {
        const stream = await getStream(key, range);
        if (stream) opened.push(stream as unknown as { bytesRead: number });
        return stream;
      };
      const readFromStore = () => opened.reduce((sum, stream) => sum + stream.bytesRead, 0);

      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: '/api/account/export?format=zip', headers: user.bearer },
          resolve,
        );
        req.on('error', reject);
        req.end();
      });
      expect(res.statusCode).toBe(200);
      // A reader who takes nothing yet: the server reads on only as far as the buffers on the way allow.
      res.pause();
      let last = -1;
      let quiet = 0;
      while (quiet < 25) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        const now = readFromStore();
        quiet = now === last ? quiet + 1 : 0;
        last = now;
      }
      const heldMb = readFromStore() / 1024 / 1024;
      let received = 0;
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      await once(res.resume(), 'end');
      console.log(
        `account archive: ${(received / 1024 / 1024).toFixed(1)} MB streamed; ` +
          `${heldMb.toFixed(1)} MB of PDFs read while the reader took nothing`,
      );
      expect(received).toBeGreaterThan(COUNT * PDF_BYTES);
      expect(readFromStore()).toBe(COUNT * PDF_BYTES);
      // Held whole, the server would have read all 96 MB before the reader took a byte.
      expect(heldMb).toBeLessThan(16);
    });
  });
}
