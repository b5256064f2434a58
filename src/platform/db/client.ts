/**
 * The database: embedded PostgreSQL (PGlite) under DATA_DIR by default, or a PostgreSQL server when
 * DATABASE_URL is set. Both run the same Drizzle schema and the same SQL migrations (`drizzle/`),
 * applied at start; the rest of the code only ever sees `Db`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PoolStats } from '../metrics.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** How a library that brings its own driver reaches this database (the job queue, platform/jobs.ts). */
  connection: { kind: 'postgres'; url: string } | { kind: 'pglite'; client: PGlite };
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  /** Called when a connection to the server is lost (a restart, a terminated backend); never for PGlite. */
  onConnectionLost(listener: (error: Error) => void): void;
  /**
   * Hears what every process using this database sends on `channel` (`pg_notify`), this one included.
   * `listening(false, why)` comes when the listening connection is lost (what is sent until it is back
   * is missed) or cannot be opened, `listening(true)` once it listens (again).
   */
  listen(channel: string, handlers: NotificationHandlers): void;
  /** The connection pool's state (PostgreSQL); the embedded database has no pool. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  message(payload: string): void;
  listening(heard: boolean, why?: Error): void;
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
export function preparedStatement<Prepared>(
  prepare: (db: Db | Tx) => Prepared,
): (db: Db | Tx) => Prepared {
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

/**
 * `column = any(ids)`, the ids sent as one PostgreSQL array literal: one parameter and one statement
 * whatever their number (an array given to drizzle's `sql` would be spread into a list of
 * parameters). The ids must be validated UUIDs, so the literal needs no quoting.
 */
export function isAnyOf(column: AnyColumn, ids: readonly string[]): SQL {
  return sql`${column} = any(${`{${ids.join(',')}}`}::uuid[])`;
}

/**
 * How each PostgreSQL database runs a named prepared statement (openPostgres). A name is the hash of
 * the statement's text, so one text is parsed and analysed once per connection and, from its sixth
 * run on, planned once (PostgreSQL's generic plan, when it costs no more than the plans made for each
 * run's values). The embedded database has none: it runs every statement as it comes.
 */
const namedRunners = new WeakMap<Db, (text: string, values: unknown[]) => Promise<unknown[]>>();
const dialect = new PgDialect();

/**
 * Runs `statement` on PostgreSQL as a prepared statement named by its text; on PGlite as any other
 * statement. For a statement whose planning is a large share of its cost and whose plan does not
 * depend on its values (library search: its words reach the plan only through a CTE). Each text stays
 * prepared on each connection of the pool while it is open, so the texts given here must be few.
 */
export async function executePrepared<Row>(db: Db, statement: SQL): Promise<Row[]> {
  const run = namedRunners.get(db);
  if (!run) {
    const result: unknown = await db.execute(statement);
    // Both drivers answer a raw statement with `{ rows }`.
    return (result as { rows: Row[] }).rows;
  }
  const query = dialect.sqlToQuery(statement);
  return (await run(query.sql, query.params)) as Row[];
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  pgliteDir?: string;
  /**
   * An embedded database to start from, as PGlite's `dumpDataDir()` wrote it (tests start each app
   * from one migrated copy instead of migrating a new database each time); the migrations still run
   * and apply what it lacks.
   */
  pgliteFrom?: Blob;
  poolSize?: number;
  /** Hears the SQL of every statement the service runs, as Drizzle sends it (tests compare what two paths do). */
  logQuery?: (query: string, params: unknown[]) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const logger = options.logQuery ? { logQuery: options.logQuery } : undefined;
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10, logger)
    : openPglite(options.pgliteDir ?? 'memory://', options.pgliteFrom, logger);
}

/** Applies the migrations `drizzle/` holds that this embedded database lacks. */
export async function migrateEmbedded(client: PGlite): Promise<void> {
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
}

/**
 * PostgreSQL's default 128 MB of shared buffers is sized for a server with a machine of its own;
 * embedded, it was most of this process's memory (docs/performance.md), and the data files stay in the
 * OS page cache anyway. Passed on the command line, so the data directory's postgresql.conf is left
 * alone.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * The extensions the migrations create, which PGlite loads only when given them (PostgreSQL ships
 * them): `unaccent`, for library search without accents (migration 0025). Every embedded database
 * opens with these, the test template's too.
 */
export const PGLITE_EXTENSIONS = { unaccent } satisfies PGliteOptions['extensions'];

type QueryLogger = { logQuery(query: string, params: unknown[]): void } | undefined;

async function openPglite(
  dir: string,
  from: Blob | undefined,
  logger: QueryLogger,
): Promise<Database> {
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir, {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    extensions: PGLITE_EXTENSIONS,
    ...(from ? { loadDataDir: from } : {}),
  });
  await client.waitReady;
  await migrateEmbedded(client);
  const db = drizzlePglite(client, { schema, ...(logger ? { logger } : {}) });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    connection: { kind: 'pglite', client },
    ping: async () => {
      try {
        await client.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    onConnectionLost: () => undefined,
    // One process owns the embedded database, so what it hears is its own.
    listen: (channel, handlers) => {
      client.listen(channel, handlers.message).then(
        () => handlers.listening(true),
        (error: unknown) =>
          handlers.listening(false, error instanceof Error ? error : new Error(String(error))),
      );
    },
    close: () => client.close(),
  };
}

/** How long the pool keeps a connection nobody uses (PostgreSQL). */
const POOL_IDLE_MS = 5 * 60_000;

/** How long a lost listening connection waits before it connects again. */
const LISTEN_RETRY_MS = 1000;

/** The PostgreSQL driver is loaded only when DATABASE_URL is set (about 6 MB of resident memory beside PGlite). */
async function openPostgres(url: string, poolSize: number, logger: QueryLogger): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const migrationClient = new pg.Client({ connectionString: url });
  await migrationClient.connect();
  try {
    await migrationClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(migrationClient, { schema }), {
      migrationsFolder: MIGRATIONS_FOLDER,
    });
  } finally {
    await migrationClient
      .query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID])
      .catch(() => undefined);
    await migrationClient.end();
  }
  // An idle connection is kept for POOL_IDLE_MS rather than node-postgres' 10 s: a new backend loads the
  // text search dictionaries (unaccent, English) at its first search, 6–15 ms, so a pause of a few
  // seconds between two searches should not cost a connection. At most `poolSize` stay open.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: POOL_IDLE_MS,
  });
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
  const db = drizzlePg(pool, { schema, ...(logger ? { logger } : {}) });
  namedRunners.set(db, async (text, values) => {
    logger?.logQuery(text, values);
    const name = `rw_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    return (await pool.query({ name, text, values })).rows;
  });

  // Health asks on a connection of its own: a pool busy with requests is not a database that is down
  // (a ping queued behind them would miss its deadline and take the service out of rotation).
  let pinger: Promise<InstanceType<typeof pg.Client>> | null = null;
  const pingClient = () => {
    pinger ??= (async () => {
      const client = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: 1000,
        query_timeout: 1000,
      });
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
  const notifications = listenOn(
    () =>
      new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: 5000,
        application_name: LISTENER_NAME,
      }),
    connectionLost,
  );
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    connection: { kind: 'postgres', url },
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
    listen: notifications.listen,
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: poolSize,
    }),
    close: async () => {
      const client = pinger;
      pinger = null;
      await Promise.all([
        pool.end(),
        client?.then((c) => c.end()).catch(() => undefined),
        notifications.close(),
      ]);
    },
  };
}

/** The listening connection's name in pg_stat_activity. */
export const LISTENER_NAME = 'research-workspace-listen';

/** The part of a pg client a listening connection uses. */
interface ListeningClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  escapeIdentifier(name: string): string;
  end(): Promise<void>;
  on(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
  on(
    event: 'notification',
    listener: (message: { channel: string; payload?: string }) => void,
  ): unknown;
}

/**
 * One connection of its own that LISTENs (a pooled one would be handed to queries): opened at the
 * first `listen`, opened again LISTEN_RETRY_MS after it is lost, for as long as the database is open.
 */
function listenOn(connect: () => ListeningClient, connectionLost: (error: Error) => void) {
  const channels = new Map<string, NotificationHandlers[]>();
  let current: ListeningClient | null = null;
  let connecting = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const everyHandler = () => [...channels.values()].flat();

  const open = async (): Promise<void> => {
    connecting = true;
    const client = connect();
    let lost = false;
    const lose = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (current === client) current = null;
      void client.end().catch(() => undefined);
      if (closed) return;
      for (const handlers of everyHandler()) handlers.listening(false, error);
      if (error) connectionLost(error);
      retry = setTimeout(() => {
        retry = undefined;
        void open();
      }, LISTEN_RETRY_MS);
      retry.unref();
    };
    client.on('error', lose);
    client.on('end', () => lose(new Error('The listening connection ended')));
    client.on('notification', (message) => {
      for (const handlers of channels.get(message.channel) ?? [])
        handlers.message(message.payload ?? '');
    });
    try {
      await client.connect();
      // A channel added meanwhile is visited too (a Map's iteration sees what is added during it).
      for (const channel of channels.keys())
        await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      if (lost) return;
      if (closed) {
        await client.end().catch(() => undefined);
        return;
      }
      current = client;
      for (const handlers of everyHandler()) handlers.listening(true);
    } catch (error) {
      lose(error instanceof Error ? error : new Error(String(error)));
    } finally {
      connecting = false;
    }
  };

  return {
    listen(channel: string, handlers: NotificationHandlers): void {
      const known = channels.get(channel);
      channels.set(channel, [...(known ?? []), handlers]);
      const client = current;
      if (client && known) handlers.listening(true);
      else if (client) {
        client.query(`LISTEN ${client.escapeIdentifier(channel)}`).then(
          () => handlers.listening(true),
          () => undefined,
        );
      } else if (!connecting && !retry) void open();
    },
    async close(): Promise<void> {
      closed = true;
      clearTimeout(retry);
      await current?.end().catch(() => undefined);
      current = null;
    },
  };
}

export function pgliteDirFor(dataDir: string): string {
  return join(dataDir, 'pgdata');
}
