/**
 * The database: embedded PostgreSQL (PGlite) under DATA_DIR by default, or a PostgreSQL server when
 * DATABASE_URL is set. Both run the same Drizzle schema and the same SQL migrations (`drizzle/`),
 * applied at start; the rest of the code only ever sees `Db`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  /** Called when a connection to the server is lost (a restart, a terminated backend); never for PGlite. */
  onConnectionLost(listener: (error: Error) => void): void;
  close(): Promise<void>;
}

/**
 * A statement prepared with Drizzle's `.prepare(name)` once per database handle, its values given as
 * `sql.placeholder`s to `execute`. Drizzle otherwise turns a query builder into SQL text on every call,
 * which costs more CPU than the PostgreSQL driver's own work (docs/performance.md). On PostgreSQL the
 * statement is named, so the server parses and plans it once per connection.
 *
 * A prepared statement runs on the connection of the handle that prepared it, so a transaction (a
 * handle of its own) prepares its own copy, at its first use in that transaction.
 */
export function preparedStatement<Prepared>(prepare: (db: Db | Tx) => Prepared): (db: Db | Tx) => Prepared {
  const preparedByHandle = new WeakMap<Db | Tx, Prepared>();
  return (db) => {
    let prepared = preparedByHandle.get(db);
    if (!prepared) {
      prepared = prepare(db);
      preparedByHandle.set(db, prepared);
    }
    return prepared;
  };
}

const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../drizzle', import.meta.url));
/** Arbitrary constant: serialises migrations when many processes start at once on one server. */
const MIGRATION_LOCK_ID = 724_301_001;

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  pgliteDir?: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize ?? 10) : openPglite(options.pgliteDir ?? 'memory://');
}

/**
 * PostgreSQL's default 128 MB of shared buffers is sized for a server with a machine of its own;
 * embedded, it was most of this process's memory (docs/performance.md), and the data files stay in the
 * OS page cache anyway. Passed on the command line, so the data directory's postgresql.conf is left
 * alone.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

async function openPglite(dir: string): Promise<Database> {
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] });
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    ping: async () => {
      try {
        await client.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    onConnectionLost: () => undefined,
    close: () => client.close(),
  };
}

/** The PostgreSQL driver is loaded only when DATABASE_URL is set (about 6 MB of resident memory beside PGlite). */
async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const migrationClient = new pg.Client({ connectionString: url });
  await migrationClient.connect();
  try {
    await migrationClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(migrationClient, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await migrationClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await migrationClient.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  const lost = new Set<(error: Error) => void>();
  const connectionLost = (error: Error) => {
    for (const listener of lost) listener(error);
  };
  // A client that loses its connection (a server restart, pg_terminate_backend) emits 'error': on the
  // pool while idle, on the client itself while checked out (a transaction, a query). An 'error'
  // event without a listener ends the process, so every client gets one for its whole life; the
  // query it was running fails on its own (a 503, see platform/backend-errors.ts), and pg-pool drops
  // the broken client when it is released.
  pool.on('error', connectionLost);
  pool.on('connect', (client) => client.on('error', connectionLost));
  const db = drizzlePg(pool, { schema });

  // Health asks on a connection of its own: a pool busy with requests is not a database that is down
  // (a ping queued behind them would miss its deadline and take the service out of rotation).
  let pinger: Promise<InstanceType<typeof pg.Client>> | null = null;
  const pingClient = () => {
    pinger ??= (async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000, query_timeout: 1000 });
      client.on('error', (error: Error) => {
        pinger = null;
        connectionLost(error);
      });
      try {
        await client.connect();
        return client;
      } catch (error) {
        pinger = null;
        throw error;
      }
    })();
    return pinger;
  };
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    ping: async () => {
      try {
        await (await pingClient()).query('select 1');
        return true;
      } catch {
        // The next ping starts from a new connection (this one may be broken or stuck).
        const stale = pinger;
        pinger = null;
        void stale?.then((client) => client.end()).catch(() => undefined);
        return false;
      }
    },
    onConnectionLost: (listener) => {
      lost.add(listener);
    },
    close: async () => {
      const client = pinger;
      pinger = null;
      await Promise.all([pool.end(), client?.then((c) => c.end()).catch(() => undefined)]);
    },
  };
}

export function pgliteDirFor(dataDir: string): string {
  return join(dataDir, 'pgdata');
}
