import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Prints why a part of the suite is skipped on this machine (test/support/skip-reasons.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Fails a test whose replies do not match their routes' response schemas (test/support/reply-schemas.ts).
    setupFiles: ['test/support/reply-check-setup.ts'],
    reporters: ['default'],
  },
});
