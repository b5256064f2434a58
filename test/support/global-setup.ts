/**
 * Vitest's global setup: before any test file runs, says what this run skips and why (one line each),
 * makes the migrated embedded database every test app starts from (test/support/pglite-template.ts)
 * and starts the run's one Chromium (test/support/chromium.ts), closed when the run ends.
 */
import type { TestProject } from 'vitest/node';
import { startRunChromium } from './chromium.js';
import { ensurePgliteTemplate } from './pglite-template.js';
import { skipReasons } from './skip-reasons.js';

export default async function setUpRun(project: TestProject): Promise<() => Promise<void>> {
  for (const reason of await skipReasons()) process.stdout.write(`skipped: ${reason}\n`);
  const [browser] = await Promise.all([startRunChromium(), ensurePgliteTemplate()]);
  project.provide('chromiumEndpoint', browser?.wsEndpoint() ?? '');
  return async () => {
    await browser?.close();
  };
}
