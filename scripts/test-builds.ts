/**
 * `tsx scripts/test-builds.ts`: makes the two builds the tests use, the service compiled into
 * .test-build/ (test/support/server-process.ts) and the web app into .test-build-web/
 * (test/support/web-browser.ts), stamped with TEST_BUILD_RUN. .ci/run starts it beside ESLint, which
 * keeps one core busy for most of a minute, so the test runs find both made and start at once.
 */
import { ensureServiceBuilt } from '../test/support/server-process.js';
import { ensureWebBuilt } from '../test/support/web-browser.js';

if (!process.env.TEST_BUILD_RUN)
  throw new Error('TEST_BUILD_RUN must be set: the test runs find these builds by it');
// One after the other: each is a single-threaded compiler, and ESLint has the other core.
await ensureServiceBuilt();
await ensureWebBuilt();
