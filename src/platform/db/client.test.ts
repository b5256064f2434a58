/** The PostgreSQL client's health ping: asked on a connection of its own, so a busy pool is no outage. */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, storeLegs } from '../../../test/support/app.js';
import { eventually } from '../../../test/support/process-client.js';
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
    // Until the server runs it (asked on a connection of the test's own).
    const observer = new pg.Client({ connectionString: scratch.url });
    await observer.connect();
    try {
      const sleeping = async () =>
        (
          await observer.query(
            "select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state = 'active' and query like 'select pg_sleep%'",
          )
        ).rowCount === 1;
      expect(await eventually(sleeping, 1000, 10)).toBe(true);
    } finally {
      await observer.end();
    }
    const started = Date.now();
    expect(await database.ping()).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
    await busy;
  });
});
