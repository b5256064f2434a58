/** Vitest's global setup: before any test file runs, says what this run skips and why (one line each). */
import { skipReasons } from './skip-reasons.js';

export default async function announceSkips(): Promise<void> {
  for (const reason of await skipReasons()) process.stdout.write(`skipped: ${reason}\n`);
}
