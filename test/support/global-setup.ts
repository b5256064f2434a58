/**
 * Vitest's global setup, once a run: before any test file runs, says what this run skips and why (one
 * line each) and makes the migrated embedded database every test app starts from
 * (test/support/pglite-template.ts).
 */
import { ensurePgliteTemplate } from './pglite-template.js';
import { skipReasons } from './skip-reasons.js';

export default async function setUpRun(): Promise<void> {
  for (const reason of await skipReasons()) process.stdout.write(`skipped: ${reason}\n`);
  await ensurePgliteTemplate();
}
