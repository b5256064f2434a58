/**
 * The database: embedded PostgreSQL (PGlite) under DATA_DIR by default, or a PostgreSQL server when
 * DATABASE_URL is set. Both run the same Drizzle schema and the same SQL migrations (`drizzle/`),
 * applied at start; the rest of the code only ever sees `Db`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { Column, getTableColumns, is, type DriverValueDecoder, type Query, type SQL } from 'drizzle-orm';
import { PgTable, PgTimestamp, type PgColumn, type PgDatabase, type PgPreparedQuery, type PgQueryResultHKT, type PreparedQueryConfig } from 'drizzle-orm/pg-core';
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

/** What a statement reads back: its fields by name, in the order of its select (or returning) list. */
export type StatementFields = Record<string, PgColumn | SQL>;

type ResultOf<Built> = Built extends { execute(): Promise<infer Result> } ? Result : never;

/** Rows as the driver gives them (values in select-list order) into objects, as Drizzle maps them. */
type RowsMapper = (rows: unknown[][]) => Record<string, unknown>[];

/**
 * Drizzle's own mapping walks each field of each row generically (its kind found by a prototype walk,
 * its path by an iterator); here each field's decoder is found once, and a row is one loop.
 */
function rowsMapperOf(fields: StatementFields): RowsMapper {
  const keys = Object.keys(fields);
  // An SQL field's decoder (what `.mapWith()` set) is not in Drizzle's published types, though its own mapping reads it.
  const decoders = Object.values(fields).map((field): DriverValueDecoder<unknown, unknown> =>
    is(field, Column) ? field : (field as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder,
  );
  return (rows) =>
    rows.map((row) => {
      const object: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = row[i];
        object[keys[i] as string] = value === null ? null : (decoders[i] as DriverValueDecoder<unknown, unknown>).mapFromDriverValue(value);
      }
      return object;
    });
}

/**
 * A statement whose SQL Drizzle builds once, at its first run, and that then runs on the database or
 * inside a transaction, with values for its `sql.placeholder`s. Drizzle otherwise turns a query builder
 * into SQL text on every call, which costs more CPU than the PostgreSQL driver's own work
 * (docs/performance.md). On PostgreSQL the statement is named, so the server parses and plans it once
 * per connection.
 *
 * `build` gives the query and the `fields` it reads back by name, in the order of its select (or
 * returning) list: the selection the query was given, or the table's columns for `select()` and
 * `returning()`; null for the driver's own result.
 */
export function reusableStatement<Built extends { toSQL(): Query; execute(): Promise<unknown> }>(
  name: string,
  build: (db: Db | Tx) => { query: Built; fields: StatementFields | null },
): (db: Db | Tx, values: Record<string, unknown>) => Promise<ResultOf<Built>> {
  let built: { query: Query; mapRows: RowsMapper | undefined } | undefined;
  const preparedBySession = new WeakMap<object, PgPreparedQuery<PreparedQueryConfig>>();
  return async (db, values) => {
    if (!built) {
      const { query, fields } = build(db);
      built = { query: query.toSQL(), mapRows: fields ? rowsMapperOf(fields) : undefined };
    }
    const { session } = db._;
    let prepared = preparedBySession.get(session);
    if (!prepared) {
      // With a row mapper the driver answers in array mode, and the mapper makes the objects.
      prepared = session.prepareQuery(built.query, undefined, name, true, built.mapRows);
      preparedBySession.set(session, prepared);
    }
    return (await prepared.execute(values)) as ResultOf<Built>;
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

/**
 * The types Drizzle asks PGlite to leave as text (on every query, in its `parsers` option), to decode
 * them itself: timestamps with and without time zone, intervals, dates, and arrays of those and of
 * numerics.
 */
const DRIZZLE_TEXT_TYPES = new Set(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map(String),
);

/** Columns whose values Drizzle decodes from that text into something other than what PGlite's own parsers make. */
const DECODED_FROM_TEXT = new Set(['PgTimestampString', 'PgDate', 'PgDateString', 'PgInterval', 'PgArray']);

/**
 * True when PGlite's own parsers give every column of the schema the value Drizzle would make of the
 * text: its timestamps are all `timestamptz` read as Dates (PGlite makes the Date, Drizzle keeps a
 * Date as it is), and it has none of the columns above.
 */
function schemaReadsAlikeFromPglite(): boolean {
  return Object.values<unknown>(schema)
    .filter((value): value is PgTable => is(value, PgTable))
    .every((table) =>
      Object.values(getTableColumns(table)).every((column) =>
        is(column, PgTimestamp) ? column.withTimezone : !DECODED_FROM_TEXT.has(column.columnType),
      ),
    );
}

function withoutDrizzleParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers || !Object.keys(parsers).every((type) => DRIZZLE_TEXT_TYPES.has(type))) return options;
  return { ...options, parsers: undefined };
}

/**
 * The PGlite client as Drizzle is given it. PGlite merges a query's `parsers` option into its own
 * table of about 300 type parsers on every query, an object spread that costs some 0.3 ms of CPU,
 * more than a small query's own work; and Drizzle passes that option with every query. For this
 * schema what it asks changes nothing (schemaReadsAlikeFromPglite), so the option is dropped, inside
 * transactions too; nothing else changes.
 */
function withoutPerQueryParsers<C extends PGlite | Transaction>(client: C): C {
  const query = (sql: string, params?: unknown[], options?: QueryOptions) => client.query(sql, params, withoutDrizzleParsers(options));
  const transaction = <T>(work: (tx: Transaction) => Promise<T>) =>
    (client as PGlite).transaction((tx) => work(withoutPerQueryParsers(tx)));
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      if (property === 'transaction' && 'transaction' in target) return transaction;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function openPglite(dir: string): Promise<Database> {
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] });
  await client.waitReady;
  const db = drizzlePglite(schemaReadsAlikeFromPglite() ? withoutPerQueryParsers(client) : client, { schema });
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
