import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createScratchDatabase,
  storeLegs,
  type TestApp,
} from '../../../test/support/app.js';
import { buildUser } from '../../../test/support/factories.js';
import { migratedPgliteTemplate } from '../../../test/support/pglite-template.js';
import { openDatabase, type Database } from '../../platform/db/client.js';
import { resourcePdfs } from '../../platform/db/schema.js';
import { makePagedPdf } from '../../summaries/test-support/pdfs.js';
import { addResource, createWorkspace } from '../test-support/helpers.js';
import { claimPendingPdf } from './store.js';

function multipart(filename: string, data: Buffer) {
  const boundary = '----rwrestart' + randomBytes(8).toString('hex');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * A process that stored a PDF and died before (or while) extracting it: the row stays pending, with
 * the dead process's lease. The next process to start takes it and extracts it; two claims at once
 * never take the same row.
 */
for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`PDF extraction across a restart (${leg.name})`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rw-pdf-restart-'));
    const env = { DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex') };
    let database: Database | undefined;
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
    let second: TestApp | undefined;
    const store = () => (database ? { database } : { databaseUrl: scratch!.url });

    beforeAll(async () => {
      if (leg.postgres) scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
      else
        database = await openDatabase({
          pgliteDir: 'memory://',
          pgliteFrom: await migratedPgliteTemplate(),
        });
    });
    afterAll(async () => {
      await second?.close();
      await database?.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('picks up at start-up a PDF left pending by a process that stopped, and stores its pages', async () => {
      const first = await buildTestApp({ leg, env, ...store() });
      const owner = await buildUser(first.app);
      const workspace = await createWorkspace(first.app, owner);
      const resource = await addResource(first.app, owner, workspace.id, { title: 'Left pending' });
      // The first process stops extracting (as if it were killed mid-way) before the upload.
      await first.app.pdfExtraction.stop();
      const pdf = await makePagedPdf([
        'Page one of the paper left behind.',
        'Page two mentions the okapi.',
      ]);
      const upload = multipart('left.pdf', pdf);
      const put = await first.app.inject({
        method: 'PUT',
        url: `/api/workspaces/${workspace.id}/resources/${resource.id}/pdf`,
        headers: { ...owner.bearer, ...upload.headers },
        payload: upload.payload,
      });
      expect(put.statusCode).toBe(200);
      // Its lease, as a dead process leaves it: run out on PostgreSQL (other processes wait for that);
      // still running on the embedded database, which only one process can open (freed at start-up).
      const lease = leg.postgres
        ? sql`now() - interval '1 second'`
        : sql`now() + interval '1 hour'`;
      await first.app.ctx.db
        .update(resourcePdfs)
        .set({ claimedUntil: lease, attempts: 1 })
        .where(eq(resourcePdfs.resourceId, resource.id));
      expect(
        (
          await first.app.ctx.db
            .select()
            .from(resourcePdfs)
            .where(eq(resourcePdfs.resourceId, resource.id))
        )[0]?.extraction,
      ).toBe('pending');
      await first.close();

      second = await buildTestApp({ leg, env, ...store() });
      expect(await second.app.pdfExtraction.settled(resource.id)).toMatchObject({
        extraction: 'ready',
        pageCount: 2,
        attempts: 2,
      });
      const detail = await second.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspace.id}`,
        headers: owner.bearer,
      });
      expect(detail.json().resources[0].pdf).toMatchObject({ extraction: 'ready', pages: 2 });
    });

    it('gives a pending row to one of two claims made at once', async () => {
      const app = second!.app;
      await app.pdfExtraction.stop();
      const owner = await buildUser(app);
      const workspace = await createWorkspace(app, owner);
      const resource = await addResource(app, owner, workspace.id, { title: 'Claimed once' });
      const upload = multipart('once.pdf', await makePagedPdf(['Claimed by one worker only.']));
      await app.inject({
        method: 'PUT',
        url: `/api/workspaces/${workspace.id}/resources/${resource.id}/pdf`,
        headers: { ...owner.bearer, ...upload.headers },
        payload: upload.payload,
      });
      const claims = await Promise.all([
        claimPendingPdf(app.ctx.db, 60_000),
        claimPendingPdf(app.ctx.db, 60_000),
      ]);
      expect(claims.filter(Boolean).map((row) => row!.resourceId)).toEqual([resource.id]);
      // Held by a live lease, it is not claimed again.
      expect(await claimPendingPdf(app.ctx.db, 60_000)).toBeNull();
    });
  });
}
