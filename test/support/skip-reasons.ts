/**
 * Why parts of the suite cannot run on this machine: the PostgreSQL + Redis leg, the Chromium browser
 * tests, the pdftotext engine. The tests skip on the same conditions; `npm test` prints these once, one
 * line each, at the start of the run (test/support/global-setup.ts), so a skipped part is never silent.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { isPdftotextAvailable } from '../../src/summaries/pdf/pdftotext-engine.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Why the PostgreSQL + Redis leg cannot run, or null when both URLs are set. */
export function storeLegSkipReason(
  env: Record<string, string | undefined> = process.env,
): string | null {
  const missing = ['TEST_DATABASE_URL', 'TEST_REDIS_URL'].filter((name) => !env[name]);
  return missing.length ? `${missing.join(' and ')} not set: PostgreSQL/Redis leg skipped` : null;
}

/** The TeX and pandoc commands the toolchain tests run (test/toolchains/), from Debian's packages in .ci/run. */
export const TOOLCHAIN_COMMANDS = ['pdflatex', 'bibtex', 'biber', 'pandoc'] as const;

/** Why the toolchain tests cannot run (a command not on PATH), or null. */
export function toolchainSkipReason(
  env: Record<string, string | undefined> = process.env,
): string | null {
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  const missing = TOOLCHAIN_COMMANDS.filter(
    (command) => !dirs.some((dir) => existsSync(join(dir, command))),
  );
  return missing.length
    ? `${missing.join(', ')} not on PATH: BibTeX/BibLaTeX/pandoc toolchain tests skipped ` +
        '(apt-get install texlive-latex-base texlive-latex-recommended texlive-latex-extra ' +
        'texlive-bibtex-extra biber pandoc)'
    : null;
}

export async function skipReasons(
  env: Record<string, string | undefined> = process.env,
): Promise<string[]> {
  return [
    storeLegSkipReason(env),
    existsSync(CHROMIUM_PATH)
      ? null
      : `${CHROMIUM_PATH} not installed: share-page and web app browser tests skipped (apt-get install chromium)`,
    toolchainSkipReason(env),
    (await isPdftotextAvailable())
      ? null
      : 'pdftotext not on PATH: its PDF engine tests skipped, pdf.js only (apt-get install poppler-utils)',
  ].filter((reason): reason is string => reason !== null);
}
