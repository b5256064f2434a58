/**
 * A PostgreSQL cluster of a test's own, in a temp directory on a free port, so that a test can
 * restart it, stop it or terminate its backends without touching the machine's shared server (which
 * other tests use). PostgreSQL 15's binaries from Debian's packages; as root, the cluster runs as the
 * `postgres` user (initdb refuses root).
 */
import { execFile, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './server-process.js';

const BIN = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const inCi = process.env.CI === 'true' || process.env.CI === '1';

/** Why a cluster cannot be started here (null when it can); in CI a missing binary is an error. */
export function ownPostgresSkipReason(): string | null {
  const missing = ['initdb', 'pg_ctl', 'postgres'].filter((name) => !existsSync(join(BIN, name)));
  if (missing.length === 0) return null;
  const reason = `PostgreSQL binaries missing in ${BIN} (${missing.join(', ')}): test skipped`;
  if (inCi) throw new Error(`In CI the PostgreSQL fault tests must run: ${reason}`);
  return reason;
}

export interface OwnPostgres {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** A URL for a database of this cluster (created by `createDatabase`). */
  urlOf(database: string): string;
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl restart -m <mode>`: every connection is cut; resolves once the server accepts connections again. */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** `pg_terminate_backend` on every client backend of `database` but the caller's own; how many were ended. */
  terminateBackends(database: string): Promise<number>;
  /** Stops the server and removes its directory. */
  destroy(): void;
}

/** The uid/gid the cluster runs as: the `postgres` user when this process is root. */
function runAs(): Pick<SpawnSyncOptions, 'uid' | 'gid'> {
  if (userInfo().uid !== 0) return {};
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0 || gid.status !== 0)
    throw new Error('running as root, and there is no postgres user to run the cluster as');
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'rw-own-pg-'));
  const user = runAs();
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid as number);
  const data = join(dir, 'data');
  const port = await freePort();
  // Asynchronous, so that a test's own requests go on while the server stops and starts.
  const run = (binary: string, args: string[], timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      execFile(
        join(BIN, binary),
        args,
        { ...user, cwd: dir, encoding: 'utf8', timeout: timeoutMs },
        (error, stdout, stderr) => {
          if (error)
            reject(
              new Error(
                `${binary} ${args.join(' ')} failed (${error.message}):\n${stdout}\n${stderr}`,
              ),
            );
          else resolve();
        },
      );
    });
  await run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c full_page_writes=off`;
  const pgCtl = (...args: string[]) =>
    run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', ...args]);
  const start = () => pgCtl('-o', options, 'start');
  await start();

  const base = `postgres://postgres@127.0.0.1:${port}`;
  const withClient = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: `${base}/postgres` });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  let stopped = false;
  return {
    port,
    url: `${base}/postgres`,
    urlOf: (database) => `${base}/${database}`,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      await withClient((client) => client.query(`CREATE DATABASE ${name}`));
      return `${base}/${name}`;
    },
    restart: (mode = 'fast') => pgCtl('-m', mode, '-o', options, 'restart'),
    stop: (mode = 'fast') => pgCtl('-m', mode, 'stop'),
    start,
    terminateBackends: (database) =>
      withClient(async (client) => {
        const result = await client.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [database],
        );
        return result.rowCount ?? 0;
      }),
    destroy() {
      if (stopped) return;
      stopped = true;
      spawnSync(join(BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop'], {
        ...user,
        cwd: dir,
        timeout: 60_000,
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
