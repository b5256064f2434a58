/** `npm test` says what it skips and why, one line each, in its normal output, so a skipped suite is never mistaken for a passing one. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CHROMIUM_PATH,
  storeLegSkipReason,
  TOOLCHAIN_COMMANDS,
  toolchainSkipReason,
} from './skip-reasons.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('skip reasons', () => {
  it('name the missing URLs of the PostgreSQL/Redis leg, and nothing when both are set', () => {
    expect(storeLegSkipReason({})).toBe(
      'TEST_DATABASE_URL and TEST_REDIS_URL not set: PostgreSQL/Redis leg skipped',
    );
    expect(storeLegSkipReason({ TEST_DATABASE_URL: 'postgres://x' })).toBe(
      'TEST_REDIS_URL not set: PostgreSQL/Redis leg skipped',
    );
    expect(
      storeLegSkipReason({ TEST_DATABASE_URL: 'postgres://x', TEST_REDIS_URL: 'redis://x' }),
    ).toBeNull();
  });

  it('name the TeX and pandoc commands missing from PATH, and nothing when all are there', () => {
    expect(toolchainSkipReason({ PATH: '' })).toMatch(
      /^pdflatex, bibtex, biber, pandoc not on PATH: BibTeX\/BibLaTeX\/pandoc toolchain tests skipped/,
    );
    const bin = mkdtempSync(join(tmpdir(), 'rw-path-'));
    try {
      for (const command of TOOLCHAIN_COMMANDS.slice(0, 3)) writeFileSync(join(bin, command), '');
      expect(toolchainSkipReason({ PATH: bin })).toMatch(/^pandoc not on PATH/);
      writeFileSync(join(bin, 'pandoc'), '');
      expect(toolchainSkipReason({ PATH: bin })).toBeNull();
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('a vitest run without the leg, pdftotext and the TeX toolchain prints one line for each, once', () => {
    // A PATH holding only node: no pdftotext on it.
    const bin = mkdtempSync(join(tmpdir(), 'rw-path-'));
    try {
      symlinkSync(process.execPath, join(bin, 'node'));
      const env: Record<string, string> = {
        PATH: bin,
        HOME: process.env.HOME ?? tmpdir(),
        NO_COLOR: '1',
      };
      const run = spawnSync(
        process.execPath,
        [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'src/platform/error-causes.test.ts'],
        {
          cwd: ROOT,
          env,
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      expect(run.status, run.stderr).toBe(0);
      const lines = `${run.stdout}\n${run.stderr}`
        .split('\n')
        .filter((line) => line.startsWith('skipped: '));
      expect(lines.filter((line) => line.includes('PostgreSQL/Redis leg'))).toEqual([
        'skipped: TEST_DATABASE_URL and TEST_REDIS_URL not set: PostgreSQL/Redis leg skipped',
      ]);
      expect(lines.filter((line) => line.includes('pdftotext'))).toHaveLength(1);
      expect(lines.filter((line) => line.includes('chromium'))).toHaveLength(
        existsSync(CHROMIUM_PATH) ? 0 : 1,
      );
      // No TeX or pandoc on that PATH either: the toolchain tests' line, naming the four commands.
      expect(lines.filter((line) => line.includes('toolchain tests skipped'))).toEqual([
        expect.stringMatching(/^skipped: pdflatex, bibtex, biber, pandoc not on PATH/),
      ]);
      expect(lines).toHaveLength(existsSync(CHROMIUM_PATH) ? 3 : 4);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }, 150_000);
});
