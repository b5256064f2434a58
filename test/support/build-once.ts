/**
 * Builds something once per test run: the first test file that asks runs the build, the others wait
 * for it behind a lock file, and every later call in the same run (same Vitest parent process, or
 * the same TEST_BUILD_RUN) finds the stamp and returns at once. A lock older than the build's time
 * limit is taken as stale.
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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

/**
 * What a build is stamped with: Vitest's process (one test run), or TEST_BUILD_RUN when set, which
 * .ci/run sets so that the builds it makes before the tests (scripts/test-builds.ts) and the test runs
 * on both Node versions share them: the source does not change in between, and tsc and Vite write the
 * same output on either Node.
 */
function runId(): string {
  return process.env.TEST_BUILD_RUN || `${process.ppid}`;
}

export async function buildOncePerRun(build: BuildOnce): Promise<void> {
  const run = runId();
  const stamp = join(build.outDir, '.built-for');
  const deadline = Date.now() + build.timeLimitMs;
  for (;;) {
    if (readStamp(stamp) === run) return;
    let fd: number;
    try {
      fd = openSync(build.lockFile, 'wx');
    } catch {
      // Another test file is building: wait for it.
      if (
        existsSync(build.lockFile) &&
        Date.now() - statSync(build.lockFile).mtimeMs > build.timeLimitMs
      )
        rmSync(build.lockFile, { force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${build.what}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      if (readStamp(stamp) === run) return;
      const result = spawnSync(process.execPath, build.args, {
        cwd: ROOT,
        env: build.env ?? process.env,
        encoding: 'utf8',
      });
      if (result.status !== 0)
        throw new Error(`${build.what} failed:\n${result.stdout}\n${result.stderr}`);
      mkdirSync(build.outDir, { recursive: true });
      writeFileSync(stamp, run);
      return;
    } finally {
      closeSync(fd);
      rmSync(build.lockFile, { force: true });
    }
  }
}
