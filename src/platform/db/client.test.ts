/**
 * Prepared statements on both stores, and the PostgreSQL client's health ping: asked on a connection
 * of its own, so a busy pool is no outage; an embedded database started from a copy of another.
 */
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, storeLegs } from '../../../test/support/app.js';
import { eventually } from '../../../test/support/process-client.js';
import {
  migrateEmbedded,
  openDatabase,
  PGLITE_EXTENSIONS,
  preparedStatement,
  type Database,
} from './client.js';
import { users } from './schema.js';

describe.each(storeLegs())('preparedStatement ($name)', (leg) => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let database: Database;
  beforeAll(async () => {
    if (leg.skipReason) return;
    scratch = leg.postgres
      ? await createScratchDatabase(process.env.TEST_DATABASE_URL!)
      : undefined;
    database = await openDatabase({ databaseUrl: scratch?.url, poolSize: 2 });
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  const userNamed = preparedStatement((db) =>
    db
      .select({ name: users.name, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.email, sql.placeholder('email')))
      .prepare('test_user_named'),
  );

  it.skipIf(leg.skipReason)('is prepared once per handle and decodes its columns', async () => {
    expect(userNamed(database.db)).toBe(userNamed(database.db));
    await database.db.insert(users).values({ email: 'ada@example.org', name: 'Ada' });
    const [row] = await userNamed(database.db).execute({ email: 'ada@example.org' });
    expect(row?.name).toBe('Ada');
    expect(row?.createdAt).toBeInstanceOf(Date);
    expect(await userNamed(database.db).execute({ email: 'nobody@example.org' })).toEqual([]);
  });

  it.skipIf(leg.skipReason)(
    'runs inside the transaction that uses it, on its connection',
    async () => {
      const rolledBack = new Error('roll back');
      let seenInside: unknown[] = [];
      const transaction = database.db.transaction(async (tx) => {
        await tx.insert(users).values({ email: 'grace@example.org', name: 'Grace' });
        seenInside = await userNamed(tx).execute({ email: 'grace@example.org' });
        throw rolledBack;
      });
      await expect(transaction).rejects.toBe(rolledBack);
      expect(seenInside).toHaveLength(1);
      expect(await userNamed(database.db).execute({ email: 'grace@example.org' })).toEqual([]);
    },
  );
});

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
            'select 1 from pg_stat_activity where datname = current_database() and ' +
              "pid <> pg_backend_pid() and state = 'active' and query like 'select pg_sleep%'",
          )
        ).rowCount === 1;
      expect(await eventually(sleeping, 1000, 10)).toBe(true);
    } finally {
      await observer.end();
    }
    // No clock: the ping has answered (true) before the busy query ends, which it would wait for
    // on the pool's one connection.
    const first = await Promise.race([
      database.ping().then((answered) => ({ ping: answered })),
      busy.then(() => 'the busy query' as const),
    ]);
    expect(first).toEqual({ ping: true });
    await busy;
  });
});

describe('an embedded database started from a copy (pgliteFrom)', () => {
  it('holds what the copy held and is migrated', async () => {
    const original = new PGlite('memory://', { extensions: PGLITE_EXTENSIONS });
    await migrateEmbedded(original);
    await original.query(`insert into users (email, name) values ('copied@example.org', 'Copied')`);
    const { rows: applied } = await original.query<{ count: number }>(
      'select count(*)::int as count from drizzle.__drizzle_migrations',
    );
    const dump = await original.dumpDataDir('none');
    await original.close();

    const copy = await openDatabase({ pgliteDir: 'memory://', pgliteFrom: dump });
    try {
      const [row] = await copy.db
        .select({ name: users.name })
        .from(users)
        .where(eq(users.email, 'copied@example.org'));
      expect(row?.name).toBe('Copied');
      // PGlite's driver answers execute() with its result, rows and all.
      const after = (await copy.db.execute(
        sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
      )) as { rows: { count: number }[] };
      expect(after.rows[0]?.count).toBe(applied[0]?.count);
    } finally {
      await copy.close();
    }
  });
});
