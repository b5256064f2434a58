/**
 * The sweep of PDF files no row refers to (what a process killed between a deletion's commit and its
 * file deletes, or between an upload's file and its row, leaves behind): on both stores, with the
 * service's own blob store on disk; listing on S3 is tested in platform/blob-store.test.ts.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { resourcePdfs } from '../../platform/db/schema.js';
import { makePagedPdf } from '../../summaries/test-support/pdfs.js';
import { addResource, createWorkspace, pdfMultipart } from '../test-support/helpers.js';
import { sweepOrphanPdfFiles } from './sweeper.js';

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`sweeping PDF files no resource refers to (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
      owner = await buildUser(t.app);
    });
    afterAll(async () => t?.close());

    it(
      'deletes old files without a row (a whole orphan and a half-written ' +
        '.tmp) and keeps every file a PDF row names, and files still in their grace period',
      async () => {
        const blobs = t.app.ctx.platform.blobs;
        const workspace = await createWorkspace(t.app, owner);
        const resource = await addResource(t.app, owner, workspace.id, { title: 'Kept' });
        const pdf = await makePagedPdf(['The page that stays']);
        const upload = pdfMultipart('a.pdf', pdf);
        const put = await t.app.inject({
          method: 'PUT',
          url: `/api/workspaces/${workspace.id}/resources/${resource.id}/pdf`,
          headers: { ...owner.bearer, ...upload.headers },
          payload: upload.payload,
        });
        expect(put.statusCode).toBe(200);
        const [row] = await t.app.ctx.db
          .select()
          .from(resourcePdfs)
          .where(eq(resourcePdfs.resourceId, resource.id));
        const orphans = [
          `pdfs/${workspace.id}/orphan.pdf`,
          `pdfs/${workspace.id}/half.pdf.0f0f.tmp`,
          'pdfs/gone-workspace/left.pdf',
        ];
        for (const key of orphans) await blobs.put(key, Buffer.from('%PDF-1.4 left behind'));
        await blobs.put('avatars/someone/a.png', Buffer.from('not a PDF: another folder'));

        // Written within the grace period: nothing is judged yet.
        expect(
          await sweepOrphanPdfFiles({
            db: t.app.ctx.db,
            blobs,
            writtenBefore: new Date(Date.now() - 60 * 60_000),
          }),
        ).toBe(0);
        for (const key of orphans) expect(await blobs.get(key)).not.toBeNull();

        // Everything written before a moment from now counts as old.
        expect(
          await sweepOrphanPdfFiles({
            db: t.app.ctx.db,
            blobs,
            writtenBefore: new Date(Date.now() + 1_000),
          }),
        ).toBe(3);
        for (const key of orphans) expect(await blobs.get(key)).toBeNull();
        expect((await blobs.get(row!.blobKey))?.equals(pdf)).toBe(true);
        expect(await blobs.get('avatars/someone/a.png')).not.toBeNull();
        const served = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${workspace.id}/resources/${resource.id}/pdf`,
          headers: owner.bearer,
        });
        expect(served.statusCode).toBe(200);
        expect(served.rawPayload.equals(pdf)).toBe(true);
      },
    );
  });
}
