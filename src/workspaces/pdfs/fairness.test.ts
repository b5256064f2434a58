/**
 * Fairness and bounds of PDF extraction on the job queue, on both stores: one user's compression
 * bombs (about 100 KB each, expanding to gigabytes of content to scan) do not hold another user's
 * ordinary PDF, which is read while the bombs are still pending; a bomb ends as a failed extraction
 * with a reason, within its time limit, and its reader is stopped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../../test/support/app.js';
import { buildUser } from '../../../test/support/factories.js';
import { makeCompressionBombPdf, makePagedPdf } from '../../summaries/test-support/pdfs.js';
import { addResource, createWorkspace, pdfMultipart } from '../test-support/helpers.js';
import { extractionTimeLimitMs } from './extraction.js';
import { findPdf } from './store.js';

const BOMBS = 3;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`PDF extraction between users (${leg.name})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
    });
    afterAll(async () => t?.close());

    const upload = async (
      user: Awaited<ReturnType<typeof buildUser>>,
      workspaceId: string,
      name: string,
      pdf: Buffer,
    ) => {
      const resource = await addResource(t.app, user, workspaceId, { title: name });
      const body = pdfMultipart(`${name}.pdf`, pdf);
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/workspaces/${workspaceId}/resources/${resource.id}/pdf`,
        headers: { ...user.bearer, ...body.headers },
        payload: body.payload,
      });
      expect(put.statusCode, put.body).toBe(200);
      return resource.id;
    };

    it("reads another user's ordinary PDF while one user's compression bombs wait, and fails a bomb within its limit", async () => {
      const bomber = await buildUser(t.app);
      const reader = await buildUser(t.app);
      const bomberSpace = await createWorkspace(t.app, bomber);
      const readerSpace = await createWorkspace(t.app, reader);
      // 60 pages of the 100 MB stream: about 30 s of pdftotext on an idle machine, three times the
      // time limit (20 pages took 9.9 s on an idle 2-core machine, inside the limit of 10.3 s).
      const bomb = makeCompressionBombPdf(100, 60);
      expect(bomb.length).toBeLessThan(150_000);

      const bombs: string[] = [];
      for (let index = 0; index < BOMBS; index++)
        bombs.push(await upload(bomber, bomberSpace.id, `bomb-${index}`, bomb));
      const uploadedAt = Date.now();
      const ordinary = await upload(
        reader,
        readerSpace.id,
        'ordinary',
        await makePagedPdf(['An ordinary paper about the okapi.', 'Its second page.']),
      );

      expect(await t.app.pdfExtraction.settled(ordinary)).toMatchObject({
        extraction: 'ready',
        pageCount: 2,
      });
      // At most one of the bomber's files is read at a time: the others still wait.
      const states = await Promise.all(
        bombs.map(async (id) => (await findPdf(t.app.ctx.db, id))?.extraction),
      );
      expect(states.filter((state) => state === 'pending').length).toBeGreaterThanOrEqual(
        BOMBS - 1,
      );

      // The first bomb ends as a failed extraction that says why, not as a stall.
      const first = await Promise.race(bombs.map((id) => t.app.pdfExtraction.settled(id)));
      expect(first).toMatchObject({ extraction: 'failed' });
      expect(first?.extractionError).toMatch(/more time or memory than a file of its size may/);
      // Within its limit (and the queue's pick-up), with room for a loaded machine's slowness.
      expect(Date.now() - uploadedAt).toBeLessThan(3 * extractionTimeLimitMs(bomb.length));
    }, 120_000);
  });
}
