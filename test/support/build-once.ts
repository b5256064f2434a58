/**
 * Builds something once per test run: the first test file that asks runs the build, the others wait
 * for it behind a lock file, and every later call in the same run (same Vitest parent process) finds
 * the stamp and returns at once. A lock older than the build's time limit is taken as stale.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface BuildOnce {
  /** Named in errors: "the test build", "the web app test build". */
  what: string;
  outDir: string;
  lockFile: string;
  timeLimitMs: number;
  /** Arguments to this Node binary, e.g. a compiler's script and its options; run in ROOT. */
  args: string[];
  env?: NodeJS.ProcessEnv;
}

function readStamp(stamp: string): string {
  try {
    return readFileSync(stamp, 'utf8').trim();
  } catch {
    return '';
  }
}

export async function buildOncePerRun(build: BuildOnce): Promise<void> {
  const runId = `${process.ppid}`;
  const stamp = join(build.outDir, '.built-for');
  const deadline = Date.now() + build.timeLimitMs;
  for (;;) {
    if (readStamp(stamp) === runId) return;
    let fd: number;
    try {
      fd = openSync(build.lockFile, 'wx');
    } catch {
      // Another test file is building: wait for it.
      if (existsSync(build.lockFile) && Date.now() - statSync(build.lockFile).mtimeMs > build.timeLimitMs) rmSync(build.lockFile, { force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${build.what}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      if (readStamp(stamp) === runId) return;
      const result = spawnSync(process.execPath, build.args, { cwd: ROOT, env: build.env ?? process.env, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`${build.what} failed:\n${result.stdout}\n${result.stderr}`);
      mkdirSync(build.outDir, { recursive: true });
      writeFileSync(stamp, runId);
      return;
    } finally {
      closeSync(fd);
      rmSync(build.lockFile, { force: true });
    }
  }
}
