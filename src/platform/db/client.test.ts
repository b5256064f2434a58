/** The PostgreSQL client's health ping: asked on a connection of its own, so a busy pool is no outage. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, storeLegs } from '../../../test/support/app.js';
import { openDatabase, type Database } from './client.js';

const postgresLeg = storeLegs()[1]!;

describe.skipIf(postgresLeg.skipReason)('the PostgreSQL ping', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    database = await openDatabase({ databaseUrl: scratch.url, poolSize: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  it('answers at once while every pooled connection is busy', async () => {
    // Drizzle runs a query when it is awaited (then): started here, held for 1.5 s.
    const busy = database.db.execute(sql`select pg_sleep(1.5)`).then(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    expect(await database.ping()).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
    await busy;
  });
});
