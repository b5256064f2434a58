/**
 * The `browser` project's global setup (vitest.config.ts): starts the run's one Chromium
 * (test/support/chromium.ts) when a browser test is in the run, and closes it at the end; a run of
 * other files starts none.
 */
import type { TestProject } from 'vitest/node';
import { startRunChromium } from './chromium.js';

export default async function startChromium(project: TestProject): Promise<() => Promise<void>> {
  const browser = await startRunChromium();
  project.provide('chromiumEndpoint', browser?.wsEndpoint() ?? '');
  return async () => {
    await browser?.close();
  };
}
