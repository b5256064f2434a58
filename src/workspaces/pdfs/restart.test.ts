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
 * A process that stored a PDF and died while extracting it: the row stays pending and its job
 * (pg-boss) running in the dead process's name. The next process to start takes the job again and
 * extracts the file: on PostgreSQL once the job's heartbeat is found stopped, on the embedded
 * database (one process's alone) at start-up.
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

    it('takes again at start-up the extraction job of a PDF whose process stopped mid-way, and stores its pages', async () => {
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
      // Its job, as a dead process leaves it: running, its last heartbeat long ago on PostgreSQL
      // (other processes wait for the heartbeat to run out); just now on the embedded database,
      // which only one process can open (so what is running at start-up is a dead process's).
      const beat = leg.postgres ? sql`now() - interval '1 hour'` : sql`now()`;
      const held = await first.app.ctx.db.execute(sql`
        update pgboss.job set state = 'active', started_on = now(), heartbeat_on = ${beat}
         where name = 'pdfs.extract' and data->>'resourceId' = ${resource.id}
        returning id`);
      expect((held as { rows: unknown[] }).rows).toHaveLength(1);
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
      });
      const detail = await second.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspace.id}`,
        headers: owner.bearer,
      });
      expect(detail.json().resources[0].pdf).toMatchObject({ extraction: 'ready', pages: 2 });
      // The second attempt of the one job did it.
      const jobs = await second.app.ctx.db.execute(sql`
        select retry_count, state from pgboss.job
         where name = 'pdfs.extract' and data->>'resourceId' = ${resource.id}`);
      expect((jobs as { rows: unknown[] }).rows).toEqual([{ retry_count: 1, state: 'completed' }]);
    });
  });
}
