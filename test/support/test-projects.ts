/**
 * Which Vitest project a test file belongs to (vitest.config.ts). `unit` files start no app, database,
 * Redis, browser or server process and touch no global state (environment, mocks, stubs, fake timers,
 * spies, globalThis): they share one module graph per worker instead of importing it again for each
 * file. A file that starts doing any of those moves to `app` by itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the test files are, relative to the repository's root. */
export const TEST_FILES = ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'];
/** Files that drive Chromium, build the web app or compile its API types (`browser`). */
export const BROWSER_FILES = [
  'test/web/**/*.test.ts',
  'src/**/*.browser.test.ts',
  'test/support/web-browser.test.ts',
];
/** The built service as a process of its own (`e2e`). */
export const E2E_FILES = ['test/e2e/**/*.test.ts'];

/**
 * The `e2e` files whose subject is what Node itself does in the process: start-up and module loading,
 * the HTTP server and its parser, signals, shutdown and streams cut by it, Node's own fetch, files
 * written through Node's fs. .ci/run runs these again on Node 20 (the oldest Node `engines` allows); the
 * other `e2e` files (how the process weathers PostgreSQL and Redis going away, and two processes sharing
 * them, through the pg and ioredis drivers) run on Node 24 only, with the rest of the suite.
 */
export const NODE_VERSION_FILES = [
  'test/e2e/durability.test.ts',
  'test/e2e/graceful-shutdown.test.ts',
  'test/e2e/http-limits.test.ts',
  'test/e2e/oauth.test.ts',
  'test/e2e/server-process.test.ts',
  'test/e2e/start-up.test.ts',
  'test/e2e/summary-stream-shutdown.test.ts',
];

const NEEDS_ISOLATION = new RegExp(
  String.raw`buildTestApp|openDatabase|createScratchDatabase|server-process|` +
    String.raw`own-postgres|own-redis|chromium|web-browser|pglite|ioredis|TEST_DATABASE_URL|` +
    String.raw`TEST_REDIS_URL|vi\.mock|vi\.stub|vi\.useFakeTimers|vi\.spyOn|` +
    String.raw`process\.env|globalThis`,
);

/** Whether a test file, by its source, needs a module graph of its own. */
export function needsIsolation(source: string): boolean {
  return NEEDS_ISOLATION.test(source);
}

/**
 * What changes the test process's global state: mocks, stubs, fake timers, spies, the environment
 * written (a variable set or deleted; reading one, as the store legs read TEST_DATABASE_URL, changes
 * nothing), globals, handlers.
 */
const CHANGES_GLOBAL_STATE = new RegExp(
  String.raw`vi\.mock|vi\.doMock|vi\.hoisted|vi\.resetModules|vi\.stub|vi\.useFakeTimers|vi\.spyOn|` +
    String.raw`process\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=)|delete process\.env|` +
    String.raw`Object\.assign\(process\.env|process\.env\s*=(?!=)|process\.on\(|globalThis`,
);

/**
 * Whether an `app` file (one that starts an app, a database or Redis) may share its module graph with
 * the other such files of its worker (`app-shared`): it changes no global state, so the apps and
 * databases it makes are its own and closed at its end.
 */
export function sharesModuleGraph(source: string): boolean {
  return !CHANGES_GLOBAL_STATE.test(source);
}

/** The test files outside the `browser` and `e2e` projects, relative to `root`. */
function appAndUnitFiles(root: string): string[] {
  return ['src', 'test', 'web/src']
    .flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map(
        (file) => `${dir}/${file}`,
      ),
    )
    .filter(
      (file) =>
        /\.test\.tsx?$/.test(file) &&
        !/^test\/(web|e2e)\/|\.browser\.test\.ts$|^test\/support\/web-browser\.test\.ts$/.test(
          file,
        ),
    );
}

/** The `unit` project's files, relative to `root`. */
export function unitTestFiles(root: string): string[] {
  return appAndUnitFiles(root).filter(
    (file) => !needsIsolation(readFileSync(join(root, file), 'utf8')),
  );
}

/** The `app-shared` project's files, relative to `root`: app files that change no global state. */
export function sharedAppTestFiles(root: string): string[] {
  return appAndUnitFiles(root).filter((file) => {
    const source = readFileSync(join(root, file), 'utf8');
    return needsIsolation(source) && sharesModuleGraph(source);
  });
}
