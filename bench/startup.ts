/**
 * Time to ready: the built service (`npm start`'s node command on dist/main.js, PGlite in one data
 * directory) started `runs` times in a row, each timed from the spawn to the first 200 from
 * /api/health/ready and then stopped. The first start also creates and migrates the database; the
 * median is over the starts after it, as a restart or another process starts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT, startScriptNodeArgs } from './processes.js';

export interface StartupResult {
  runs: number;
  firstMs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
}

const POLL_MS = 20;
const GIVE_UP_MS = 120_000;

async function timeOneStart(dataDir: string, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...startScriptNodeArgs(), join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`the service exited during start (${child.exitCode})`);
      if (performance.now() - started > GIVE_UP_MS)
        throw new Error(`the service was not ready within ${GIVE_UP_MS / 1000} s`);
      const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
        (res) => res.arrayBuffer().then(() => res.status === 200),
        () => false,
      );
      if (ready) return Math.round(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

export async function measureStartup(
  runs: number,
  env: Record<string, string>,
): Promise<StartupResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rw-bench-startup-'));
  try {
    const firstMs = await timeOneStart(dataDir, env);
    const times: number[] = [];
    for (let run = 0; run < runs; run += 1) times.push(await timeOneStart(dataDir, env));
    const sorted = [...times].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    const medianMs =
      sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
    return { runs, firstMs, medianMs, minMs: sorted[0]!, maxMs: sorted.at(-1)! };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
