/**
 * The web app in a real browser, for the journeys in test/web/: the app built once per test run
 * (`vite build` into .test-build-web/, behind a lock as server-process.ts does for the service), the
 * real service (buildTestApp, listening on a free port, its search providers answered by a fixture
 * server), Debian's Chromium through playwright-core, axe-core on each page, and screenshots in
 * test-artifacts/web/. Without Chromium the journeys are skipped (one line says so), except in CI,
 * where that is a failure. `startWebServers(n)`: n built service processes on one PostgreSQL
 * database, for journeys across processes (live updates).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildOncePerRun, ROOT } from './build-once.js';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildTestApp, createScratchDatabase, type StoreLeg, type TestApp } from './app.js';
import { connectChromium } from './chromium.js';
import {
  providerEnvFor,
  startFixtureServer,
  type FixtureRoute,
  type FixtureServer,
} from './fixture-server.js';
import { freePort, startServerProcess } from './server-process.js';
import { CHROMIUM_PATH } from './skip-reasons.js';

const WEB_BUILD_DIR = join(ROOT, '.test-build-web');
const WEB_ARTIFACTS = join(ROOT, 'test-artifacts', 'web');

const inCi = process.env.CI === 'true' || process.env.CI === '1';
/** Why the journeys cannot run here (null when they can); in CI a missing Chromium fails the run instead. */
export const webSkipReason: string | null =
  !existsSync(CHROMIUM_PATH) && !inCi
    ? `${CHROMIUM_PATH} not installed: web app browser journeys skipped`
    : null;
if (webSkipReason) console.warn(webSkipReason);

/** A journey's time limit: each page is checked by axe once, or four times with `WEB_AUDIT=all` (`auditCombinations`), on a shared machine. */
export const JOURNEY_TIMEOUT_MS = 180_000;

/** The two viewports pages are checked and photographed at. */
export const VIEWPORTS = {
  mobile: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** Builds web/ into .test-build-web/ unless this test run already did; returns the directory. */
export async function ensureWebBuilt(): Promise<string> {
  await buildOncePerRun({
    what: 'the web app test build',
    outDir: WEB_BUILD_DIR,
    lockFile: join(ROOT, '.test-build-web.lock'),
    timeLimitMs: 240_000,
    args: [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'web/vite.config.ts',
      '--logLevel',
      'warn',
    ],
    env: { ...process.env, WEB_OUT_DIR: WEB_BUILD_DIR, NODE_ENV: 'production' },
  });
  return WEB_BUILD_DIR;
}

export interface WebServer {
  /** `http://127.0.0.1:<port>`: the app and the API, one origin. */
  base: string;
  t: TestApp;
  fixtures: FixtureServer;
  close(): Promise<void>;
}

/**
 * The service serving the test build of the app, with its search providers pointed at a fixture server.
 * `WEB_JOURNEY_SERVER=built` serves it from the built service as a process of its own instead
 * (server-process.ts): on its embedded database, or with `WEB_JOURNEY_DATABASE_URL` on a scratch
 * database of that PostgreSQL. That is how the journeys are run by hand against what users run
 * (docs/testing.md); a file that reaches into the app (`server.t`) cannot run so.
 */
export async function startWebServer(
  options: { leg?: StoreLeg; routes?: FixtureRoute[]; env?: Record<string, string> } = {},
): Promise<WebServer> {
  const distDir = await ensureWebBuilt();
  const fixtures = await startFixtureServer(options.routes ?? []);
  if (process.env.WEB_JOURNEY_SERVER === 'built') {
    const postgres = process.env.WEB_JOURNEY_DATABASE_URL;
    const scratch = postgres ? await createScratchDatabase(postgres) : null;
    const server = await startBuiltWebServer({
      distDir,
      fixtures,
      env: { ...(scratch ? { DATABASE_URL: scratch.url } : {}), ...options.env },
    });
    return {
      base: server.base,
      get t(): TestApp {
        throw new Error(
          'WEB_JOURNEY_SERVER=built: the app runs in a process of its own, so server.t is not here',
        );
      },
      fixtures,
      async close() {
        await server.close();
        await scratch?.drop();
        await fixtures.close();
      },
    };
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({
    leg: options.leg,
    env: {
      ...providerEnvFor(fixtures.url),
      APP_ORIGIN: base,
      PUBLIC_URL: base,
      WEB_DIST_DIR: distDir,
      ...options.env,
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return {
    base,
    t,
    fixtures,
    async close() {
      await t.close();
      await fixtures.close();
    },
  };
}

/** One built service process serving the app: its own origin, and its data directory (the outbox is there). */
export interface WebServerProcess {
  /** `http://127.0.0.1:<port>`: the app and the API, one origin. */
  base: string;
  dataDir: string;
  close(): Promise<void>;
}

async function startBuiltWebServer(options: {
  distDir: string;
  fixtures: FixtureServer;
  env?: Record<string, string>;
}): Promise<WebServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServerProcess({
    env: {
      ...providerEnvFor(options.fixtures.url),
      PORT: String(port),
      APP_ORIGIN: base,
      PUBLIC_URL: base,
      WEB_DIST_DIR: options.distDir,
      ...options.env,
    },
  });
  return { base, dataDir: server.dataDir, close: async () => void (await server.stop()) };
}

/**
 * Why `twoUsersOnTwoServers` (`startWebServers`) cannot run here (null when it can): it needs the PostgreSQL of the store leg.
 * In CI that leg is mandatory, so there a missing TEST_DATABASE_URL fails instead.
 */
export function twoServersSkipReason(
  env: Record<string, string | undefined> = process.env,
): string | null {
  const reason = env.TEST_DATABASE_URL
    ? null
    : 'TEST_DATABASE_URL not set: web journeys on two server processes sharing one PostgreSQL skipped';
  if (reason && inCi) throw new Error(`In CI the PostgreSQL leg must run: ${reason}`);
  return reason;
}

/**
 * `count` built service processes serving the app, as behind a load balancer: one scratch database of
 * TEST_DATABASE_URL, one JWT secret (a session made on one is good on every other), each on its own
 * origin (APP_ORIGIN and PUBLIC_URL are its own address, so a browser context talks to one of them).
 * Started one after another: the first migrates the database, the others find it migrated.
 */
async function startWebServers(
  count: number,
): Promise<{ servers: WebServerProcess[]; close(): Promise<void> }> {
  const distDir = await ensureWebBuilt();
  const fixtures = await startFixtureServer([]);
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
  const env = {
    DATABASE_URL: scratch.url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
  };
  const servers: WebServerProcess[] = [];
  const close = async () => {
    await Promise.all(servers.map((server) => server.close()));
    await scratch.drop();
    await fixtures.close();
  };
  try {
    for (let index = 0; index < count; index += 1)
      servers.push(await startBuiltWebServer({ distDir, fixtures, env }));
  } catch (error) {
    await close();
    throw error;
  }
  return { servers, close };
}

/** A user of a two-server journey: signed up through their own server, with a browser context and a page there. */
export interface UserOnServer {
  server: WebServerProcess;
  context: BrowserContext;
  page: Page;
}

/**
 * Two users on two built service processes sharing one database (`startWebServers(2)`): each signed
 * up through their own server, in a browser context of their own on that server's origin, with one
 * page. The pages' uncaught errors are collected in `pageErrors` (a journey expects none).
 */
export async function twoUsersOnTwoServers(
  credentials: readonly [Credentials, Credentials],
): Promise<{ users: [UserOnServer, UserOnServer]; pageErrors: string[]; close(): Promise<void> }> {
  const started = await startWebServers(2);
  const browser = await launchChromium();
  const pageErrors: string[] = [];
  const users = await Promise.all(
    started.servers.map(async (server, index) => {
      const context = await newContext(browser, server.base);
      await signUpThroughApi(context, server.base, credentials[index]!);
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      return { server, context, page };
    }),
  );
  return {
    users: users as [UserOnServer, UserOnServer],
    pageErrors,
    async close() {
      for (const user of users) await user.context.close();
      await browser.close();
      await started.close();
    },
  };
}

/** Debian's Chromium, headless: a connection to the run's one browser (test/support/chromium.ts). */
export async function launchChromium(): Promise<Browser> {
  return connectChromium();
}

/** A fresh browser profile (its own cookies) at one of the two viewports, in a colour scheme. */
export async function newContext(
  browser: Browser,
  base: string,
  viewport: ViewportName = 'desktop',
  colorScheme: 'light' | 'dark' = 'light',
  /** The browser's language (navigator.language, Accept-Language); Chromium's own without it. */
  locale?: string,
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: base,
    viewport: VIEWPORTS[viewport],
    colorScheme,
    reducedMotion: 'reduce',
    ...(locale ? { locale } : {}),
  });
}

export interface AxeFinding {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * axe-core's serious and critical findings on the page as it is now (WCAG 2.1 A/AA rules): the tests expect none.
 * Legacy mode runs axe in the page itself: the default opens a second page for each check to merge
 * per-frame results, which doubled the time of a check, and the app has no frames to merge. Only the
 * violations are collected in full (the passes are not read), which spares axe building their selectors.
 */
export async function seriousA11yViolations(
  page: Page,
  exclude: readonly string[] = [],
): Promise<AxeFinding[]> {
  const builder = new AxeBuilder({ page });
  for (const selector of exclude) builder.exclude(selector);
  const results = await builder
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .setLegacyMode()
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

/** Saves a full-page screenshot (or of the view only) as test-artifacts/web/<name>.png (CI keeps test-artifacts/). */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(WEB_ARTIFACTS, { recursive: true });
  const path = join(WEB_ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/** The page's width and the width it scrolls to: a page scrolls sideways when `scrollWidth` exceeds `clientWidth`. */
export function pageWidths(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as {
        document: { documentElement: { scrollWidth: number; clientWidth: number } };
      }
    ).document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
}

/** Sets the app's theme the way a returning user's browser has it (the app reads it on load). */
export async function presetTheme(
  context: BrowserContext,
  theme: 'system' | 'light' | 'dark',
): Promise<void> {
  await context.addInitScript((value) => {
    try {
      (
        globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }
      ).localStorage.setItem('rw-theme', value);
    } catch {
      // about:blank has no storage
    }
  }, theme);
}

export interface Credentials {
  name: string;
  email: string;
  password: string;
}

let accounts = 0;
/** New, unused credentials (the password is long and unusual, so the common-password rule passes). */
export function newCredentials(prefix = 'web'): Credentials {
  accounts += 1;
  const tag = `${Date.now().toString(36)}${accounts}${Math.random().toString(36).slice(2, 6)}`;
  return {
    name: `Ada ${tag}`,
    email: `${prefix}-${tag}@example.org`,
    password: `violet-harbour-${tag}`,
  };
}

/** Signs up through the app's form (it signs in too) and waits for the dashboard. */
export async function signUpThroughApp(page: Page, credentials: Credentials): Promise<void> {
  await page.goto('/auth/signup');
  await page.getByLabel('Name').fill(credentials.name);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL('**/dashboard');
}

/**
 * Signs up through the API in the context's own cookie jar (the app then opens signed in): for journeys
 * whose subject is not sign-up, which test/web/auth.test.ts and smoke.test.ts cover through the form.
 */
export async function signUpThroughApi(
  context: BrowserContext,
  base: string,
  credentials: Credentials,
): Promise<void> {
  // As the form does: the sign-up creates the account, the sign-in sets the session cookies.
  const signup = await context.request.post('/api/auth/signup', {
    headers: { origin: base },
    data: credentials,
  });
  if (signup.status() !== 201)
    throw new Error(`sign-up through the API answered ${signup.status()}: ${await signup.text()}`);
  const signin = await context.request.post('/api/auth/signin', {
    headers: { origin: base },
    data: { email: credentials.email, password: credentials.password },
  });
  if (signin.status() !== 200)
    throw new Error(`sign-in through the API answered ${signin.status()}: ${await signin.text()}`);
}

/** Signs in through the app's form and waits to leave the sign-in page. */
export async function signInThroughApp(
  page: Page,
  credentials: Pick<Credentials, 'email' | 'password'>,
): Promise<void> {
  await page.goto('/auth/signin');
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
}

export type AuditCombination = readonly [ViewportName, 'light' | 'dark'];

/** Every viewport with every colour scheme, in the order `WEB_AUDIT=all` checks them. */
const ALL_COMBINATIONS: readonly AuditCombination[] = [
  ['mobile', 'light'],
  ['mobile', 'dark'],
  ['desktop', 'light'],
  ['desktop', 'dark'],
];

/** FNV-1a of the name: a fixed choice per page, spread evenly over the pages. */
function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i += 1) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The viewport and colour-scheme combinations the page `name` is checked at. By default one, chosen
 * by the name, so a page is always checked at the same one and the journeys' pages between them see
 * every viewport and both schemes (axe takes seconds a check on a shared machine); all four with
 * `WEB_AUDIT=all`.
 */
export function auditCombinations(
  name: string,
  env: Record<string, string | undefined> = process.env,
): AuditCombination[] {
  if (env.WEB_AUDIT === 'all') return [...ALL_COMBINATIONS];
  return [ALL_COMBINATIONS[nameHash(name) % ALL_COMBINATIONS.length]!];
}

/** The colour schemes the page `name` is checked in at a size of the test's own: one by default (by the name), both with `WEB_AUDIT=all`. */
export function auditSchemes(
  name: string,
  env: Record<string, string | undefined> = process.env,
): ('light' | 'dark')[] {
  if (env.WEB_AUDIT === 'all') return ['light', 'dark'];
  return [nameHash(name) % 2 === 0 ? 'light' : 'dark'];
}

/**
 * Checks the page as it is now at each of `auditCombinations(name)` (the app follows the emulated
 * prefers-color-scheme while its theme is `system`): axe's serious and critical findings are collected
 * (the caller expects none) and a screenshot is saved for each, `<name>-<viewport>-<scheme>.png`.
 * Leaves the page at the desktop size in light. `exclude`: selectors axe leaves out; `fullPage: false`
 * photographs the view only (a long document whose pages draw as they come near would all be drawn).
 */
export async function auditPage(
  page: Page,
  name: string,
  options: { exclude?: readonly string[]; fullPage?: boolean } = {},
): Promise<Record<string, AxeFinding[]>> {
  const findings: Record<string, AxeFinding[]> = {};
  for (const [viewport, scheme] of auditCombinations(name)) {
    await page.setViewportSize(VIEWPORTS[viewport]);
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction(
      (expected) =>
        (
          globalThis as unknown as {
            document: { documentElement: { dataset: Record<string, string> } };
          }
        ).document.documentElement.dataset.theme === expected,
      scheme,
    );
    const found = await seriousA11yViolations(page, options.exclude);
    if (found.length > 0) findings[`${viewport}-${scheme}`] = found;
    await screenshot(page, `${name}-${viewport}-${scheme}`, options.fullPage);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.emulateMedia({ colorScheme: 'light' });
  return findings;
}
