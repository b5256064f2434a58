import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/support/app.js';
import { buildUser } from '../../test/support/factories.js';
import { startOwnS3, type OwnS3 } from '../../test/support/own-s3.js';
import { createDiskBlobStore, type BlobStore } from './blob-store.js';
import { createS3BlobStore } from './s3-blob-store.js';

const s3 = await startOwnS3();
const diskRoot = mkdtempSync(join(tmpdir(), 'rw-blobs-'));
afterAll(async () => {
  await s3.stop();
  rmSync(diskRoot, { recursive: true, force: true });
});

const s3Options = (server: OwnS3) => ({
  bucket: server.bucket,
  region: 'us-east-1',
  endpoint: server.endpoint,
  accessKeyId: server.accessKeyId,
  secretAccessKey: server.secretAccessKey,
  forcePathStyle: true,
});

const stores: Array<{ name: string; make: () => BlobStore }> = [
  {
    name: 'disk',
    make: () => createDiskBlobStore({ rootDir: diskRoot, publicBaseUrl: 'http://api.test' }),
  },
  {
    name: 's3 (s3rver)',
    make: () => createS3BlobStore({ ...s3Options(s3), publicBaseUrl: 'http://api.test' }),
  },
];

/** A stream of `total` bytes in odd-sized chunks, never held whole by the producer. */
function chunked(total: number, seed: number): { stream: Readable; bytes: Buffer } {
  const bytes = Buffer.alloc(total);
  for (let i = 0; i < total; i++) bytes[i] = (i * seed + (i >> 10)) & 0xff;
  const sizes = [65_521, 1_000_003, 7, 3_000_017];
  let offset = 0;
  let turn = 0;
  const stream = new Readable({
    read() {
      if (offset >= total) return void this.push(null);
      const size = sizes[turn++ % sizes.length]!;
      this.push(bytes.subarray(offset, Math.min(total, offset + size)));
      offset += size;
    },
  });
  return { stream, bytes };
}

async function bytesOf(stream: Readable | null): Promise<Buffer> {
  if (!stream) throw new Error('no object');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

for (const { name, make } of stores) {
  describe(`blob store: ${name}`, () => {
    const store = make();
    afterAll(() => store.close?.());

    it('puts and gets buffers; a missing key is null', async () => {
      await store.put('avatars/u1/a.png', Buffer.from('png bytes'));
      expect((await store.get('avatars/u1/a.png'))?.toString()).toBe('png bytes');
      expect(await store.get('avatars/u1/missing.png')).toBeNull();
      expect(await store.getStream('avatars/u1/missing.png')).toBeNull();
      expect(await store.get('../etc/passwd')).toBeNull();
    });

    it('streams a file larger than one multipart part in, and reads it back whole and by ranges', async () => {
      // 19 MB: three 8 MB parts on S3, the last one short.
      const { stream, bytes } = chunked(19 * 1024 * 1024 + 123, 31);
      await store.putStream('pdfs/w1/big.pdf', stream, { contentType: 'application/pdf' });
      expect((await bytesOf(await store.getStream('pdfs/w1/big.pdf'))).equals(bytes)).toBe(true);
      const across = { start: 8 * 1024 * 1024 - 10, end: 8 * 1024 * 1024 + 9 };
      expect(
        (await bytesOf(await store.getStream('pdfs/w1/big.pdf', across))).equals(
          bytes.subarray(across.start, across.end + 1),
        ),
      ).toBe(true);
      const last = { start: bytes.length - 5, end: bytes.length - 1 };
      expect(
        (await bytesOf(await store.getStream('pdfs/w1/big.pdf', last))).equals(
          bytes.subarray(bytes.length - 5),
        ),
      ).toBe(true);
    });

    it('keeps nothing of a stream that fails, and the earlier object under the key stays', async () => {
      await store.put('pdfs/w1/kept.pdf', Buffer.from('%PDF-1.4 the first'));
      let sent = 0;
      const failing = new Readable({
        read() {
          sent++;
          if (sent > 3) return void this.destroy(new Error('client went away'));
          this.push(randomBytes(3 * 1024 * 1024));
        },
      });
      await expect(store.putStream('pdfs/w1/kept.pdf', failing)).rejects.toThrow();
      expect(await text((await store.getStream('pdfs/w1/kept.pdf'))!)).toBe('%PDF-1.4 the first');
      await expect(
        store.putStream(
          'pdfs/w1/never.pdf',
          Readable.from(
            (async function* () {
              yield Buffer.from('start');
              throw new Error('refused');
            })(),
          ),
        ),
      ).rejects.toThrow();
      expect(await store.get('pdfs/w1/never.pdf')).toBeNull();
    });

    it('lists the objects under a prefix with when each was written, through folders, and nothing of other prefixes', async () => {
      const before = Date.now() - 60_000;
      const keys = ['listing/w1/a.pdf', 'listing/w1/b.pdf', 'listing/w2/deep/c.pdf'];
      for (const key of keys) await store.put(key, Buffer.from(key));
      await store.put('listing-not/x.pdf', Buffer.from('x'));
      const listed = [];
      for await (const object of store.list('listing/')) listed.push(object);
      expect(listed.map((object) => object.key).sort()).toEqual(keys);
      for (const object of listed) expect(object.modifiedAt.getTime()).toBeGreaterThan(before);
      const none = [];
      for await (const object of store.list('nothing-here/')) none.push(object);
      expect(none).toEqual([]);
    });

    it('deletes, and deleting twice is fine', async () => {
      await store.put('pdfs/w1/gone.pdf', Buffer.from('x'));
      await store.delete('pdfs/w1/gone.pdf');
      await store.delete('pdfs/w1/gone.pdf');
      expect(await store.get('pdfs/w1/gone.pdf')).toBeNull();
    });
  });
}

describe('the service with BLOB_STORE=s3', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        BLOB_STORE: 's3',
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
  });
  afterAll(async () => t?.close());

  it("keeps a resource's PDF in the bucket: uploaded, served by range, and extracted from there", async () => {
    const owner = await buildUser(t.app);
    const ws = (
      await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: owner.bearer,
        payload: { name: 'S3' },
      })
    ).json().workspace;
    const resource = (
      await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${ws.id}/resources`,
        headers: owner.bearer,
        payload: { title: 'In the bucket' },
      })
    ).json().resource;
    const { makePagedPdf } = await import('../summaries/test-support/pdfs.js');
    const pdf = await makePagedPdf(['A paper kept in an S3 bucket, page one.', 'Page two of it.']);
    const boundary = 'rwS3' + randomBytes(6).toString('hex');
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bucket.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const url = `/api/workspaces/${ws.id}/resources/${resource.id}/pdf`;
    const put = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...owner.bearer, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(put.statusCode).toBe(200);
    const part = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...owner.bearer, range: 'bytes=0-7' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(pdf.subarray(0, 8))).toBe(true);
    expect(await t.app.pdfExtraction.settled(resource.id)).toMatchObject({
      extraction: 'ready',
      pageCount: 2,
    });
    // The file is in the bucket itself, not on the process's disk.
    const direct = createS3BlobStore({ ...s3Options(s3), publicBaseUrl: 'http://api.test' });
    const [row] = await t.app.ctx.db.query.resourcePdfs.findMany({
      where: (table, { eq }) => eq(table.resourceId, resource.id),
    });
    expect((await direct.get(row!.blobKey))?.equals(pdf)).toBe(true);
    direct.close?.();
  });
});
