import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import InterleavingSequencer from './test/support/sequencer.js';
import {
  BROWSER_FILES,
  E2E_FILES,
  sharedAppTestFiles,
  TEST_FILES,
  unitTestFiles,
} from './test/support/test-projects.js';

// test/web/ holds the web app's journeys in Chromium (test/support/web-browser.ts); web/src/ its unit tests.
const ROOT = fileURLToPath(new URL('.', import.meta.url));
const UNIT_FILES = unitTestFiles(ROOT);
const SHARED_APP_FILES = sharedAppTestFiles(ROOT);

const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
  // A poll waits on something another process does (the server, Chromium): on a loaded 2-core CI
  // machine that can take well over the default second. A poll that is never satisfied still fails.
  // requireAssertions: a test that asserts nothing fails (every test must be able to fail).
  expect: { requireAssertions: true, poll: { timeout: 10_000 } },
  // Fails a test whose replies do not match their routes' response schemas (test/support/reply-schemas.ts).
  setupFiles: ['test/support/reply-check-setup.ts'],
} satisfies TestProjectInlineConfiguration['test'];

export default defineConfig({
  test: {
    // Says what this run skips and why (test/support/skip-reasons.ts) and makes the migrated PGlite
    // template; set here only, it runs once for all the projects.
    globalSetup: ['test/support/global-setup.ts'],
    // Then the slowest files, slowest first (test/support/slowest-files-reporter.ts).
    reporters: ['default', './test/support/slowest-files-reporter.ts'],
    // Two files at a time on two cores: while one waits on Chromium or on the built process, the other
    // computes (test/support/sequencer.ts starts them side by side).
    maxWorkers: 2,
    sequence: { sequencer: InterleavingSequencer },
    // Five projects (test/support/test-projects.ts says which file goes where); `--project <name>` runs one.
    projects: [
      { test: { ...shared, name: 'unit', include: UNIT_FILES, isolate: false } },
      // App files that change no global state share the module graph too; the others import it afresh.
      { test: { ...shared, name: 'app-shared', include: SHARED_APP_FILES, isolate: false } },
      {
        test: {
          ...shared,
          name: 'app',
          include: TEST_FILES,
          exclude: [
            '**/node_modules/**',
            ...BROWSER_FILES,
            ...E2E_FILES,
            ...UNIT_FILES,
            ...SHARED_APP_FILES,
          ],
        },
      },
      // The run's one Chromium starts only when a file of this project runs. These files change no global
      // state of the test process (what they set globally is in the page), so they share the module graph.
      {
        test: {
          ...shared,
          name: 'browser',
          include: BROWSER_FILES,
          isolate: false,
          globalSetup: ['test/support/chromium-setup.ts'],
        },
      },
      { test: { ...shared, name: 'e2e', include: E2E_FILES } },
    ],
  },
});
