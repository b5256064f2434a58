/**
 * The built service as a real process, for tests whose behaviour lives in the process itself
 * (OAuth through Node's fetch, signals and shutdown, a database or Redis that goes away).
 *
 * The first call compiles the service once per test run into `.test-build/` with the same
 * tsconfig as `npm run build`; every later call in any test file reuses it (a lock file keeps
 * parallel test files from compiling twice). Each process gets its own port and data directory; on
 * the embedded database that directory starts with a copy of the run's one migrated database
 * (test/support/pglite-template.ts), unless the test asks for an empty one (`database: 'empty'`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOncePerRun, ROOT } from './build-once.js';

const BUILD_DIR = join(ROOT, '.test-build');

/** Compiles `src/` into `.test-build/` unless this test run already did. */
export async function ensureServiceBuilt(): Promise<string> {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  await buildOncePerRun({
    what: 'the test build',
    outDir: BUILD_DIR,
    lockFile: join(ROOT, '.test-build.lock'),
    timeLimitMs: 180_000,
    args: [tsc, '-p', 'tsconfig.build.json', '--outDir', BUILD_DIR],
  });
  return join(BUILD_DIR, 'main.js');
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process wrote so far (its log lines are JSON on stdout). */
  output(): string;
  /** Sends a signal and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  /** Added to (and overriding) the process environment; unset keys are not inherited from this one. */
  env?: Record<string, string>;
  /** How long to wait for /api/health to answer (default 60 s). */
  readyTimeoutMs?: number;
  /** Extra node flags. */
  nodeArgs?: string[];
  /**
   * The embedded database the process finds in the data directory this helper makes (no DATA_DIR or
   * DATABASE_URL given): `migrated` (the default), a copy of the run's migrated database, which the
   * process's own migration then finds complete (a new embedded database costs the process about
   * 7 CPU-seconds to create and migrate); `empty`, none, so that the process creates and migrates it.
   */
  database?: 'migrated' | 'empty';
}

/**
 * Unpacks the run's migrated embedded database (PGlite's dump, a tar of its data directory) where the
 * service keeps it, `DATA_DIR/pgdata` (src/platform/db/client.ts pgliteDirFor).
 */
export async function seedMigratedDatabase(dataDir: string): Promise<void> {
  // Imported here: only a process on the embedded database needs it, and it loads PGlite.
  const { ensurePgliteTemplate } = await import('./pglite-template.js');
  const template = await ensurePgliteTemplate();
  const pgdata = join(dataDir, 'pgdata');
  mkdirSync(pgdata, { recursive: true });
  // The dump's names start with `/`: tar takes them relative to pgdata.
  const untar = spawnSync('tar', ['-xf', template, '-C', pgdata], { encoding: 'utf8' });
  if (untar.status !== 0)
    throw new Error(`could not unpack the migrated database into ${pgdata}: ${untar.stderr}`);
}

/** Starts the built service (compiling it first if needed) and waits until it answers health. */
export async function startServerProcess(options: StartOptions = {}): Promise<ServerProcess> {
  const main = await ensureServiceBuilt();
  // A caller that needs the address before the start (e.g. for PUBLIC_URL) picks the port itself.
  const port = options.env?.PORT ? Number(options.env.PORT) : await freePort();
  const dataDir = options.env?.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'rw-proc-'));
  const ownsDataDir = !options.env?.DATA_DIR;
  if (ownsDataDir && !options.env?.DATABASE_URL && (options.database ?? 'migrated') === 'migrated')
    await seedMigratedDatabase(dataDir);
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    // No load balancer to wait for: stop soon after SIGTERM (the shutdown test sets its own).
    SHUTDOWN_DRAIN_MS: '100',
    ...options.env,
  };
  const child = spawn(process.execPath, [...(options.nodeArgs ?? ['--v8-pool-size=1']), main], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );

  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const code = await exited;
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    return code;
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      await res.arrayBuffer();
      return { url, port, dataDir, child, output: () => output, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  await stop('SIGKILL');
  throw new Error(`server did not start within the deadline:\n${output}`);
}
