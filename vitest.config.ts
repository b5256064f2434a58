import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Prints why a part of the suite is skipped on this machine (test/support/skip-reasons.ts).
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default'],
  },
});
