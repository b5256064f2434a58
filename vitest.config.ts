import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // test/web/ holds the web app's journeys in Chromium (test/support/web-browser.ts); web/src/ its unit tests.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A poll waits on something another process does (the server, Chromium): on a loaded 2-core CI
    // machine that can take well over the default second. A poll that is never satisfied still fails.
    // requireAssertions: a test that asserts nothing fails (every test must be able to fail).
    expect: { requireAssertions: true, poll: { timeout: 10_000 } },
    // Prints why a part of the suite is skipped on this machine (test/support/skip-reasons.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Fails a test whose replies do not match their routes' response schemas (test/support/reply-schemas.ts).
    setupFiles: ['test/support/reply-check-setup.ts'],
    // Then the slowest files, slowest first (test/support/slowest-files-reporter.ts).
    reporters: ['default', './test/support/slowest-files-reporter.ts'],
  },
});
