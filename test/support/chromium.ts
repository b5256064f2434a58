/**
 * One Chromium for the whole test run: the `browser` project's global setup
 * (test/support/chromium-setup.ts) starts Debian's Chromium as a playwright browser server and hands
 * its address to the test files (Vitest's provide/inject); each file connects to it instead of
 * starting a browser of its own, and its `browser.close()` disconnects. Run outside that project, a
 * file starts its own.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_PATH } from './skip-reasons.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The playwright address of the run's Chromium, or '' when this machine has none. */
    chromiumEndpoint: string;
  }
}

const LAUNCH_OPTIONS = {
  executablePath: CHROMIUM_PATH,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

/** The run's Chromium (global setup), or null when this machine has none. */
export async function startRunChromium(): Promise<BrowserServer | null> {
  return existsSync(CHROMIUM_PATH) ? chromium.launchServer(LAUNCH_OPTIONS) : null;
}

/** Debian's Chromium, headless: the run's, else one of this file's own. */
export async function connectChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`In CI the browser tests must run: ${CHROMIUM_PATH} is missing`);
  const endpoint = inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : chromium.launch(LAUNCH_OPTIONS);
}
