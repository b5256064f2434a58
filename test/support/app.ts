/**
 * Builds the real app for tests: PGlite in memory always (a copy of the run's one migrated database); PostgreSQL (a fresh database per app) and
 * Redis (a fresh key prefix per app) when TEST_DATABASE_URL / TEST_REDIS_URL are set.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../../src/app.js';
import { OWASP_HASH_COST, type PasswordHashCost } from '../../src/auth/index.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/platform/db/client.js';
import type { PlatformOverrides } from '../../src/platform/index.js';
import { migratedPgliteTemplate } from './pglite-template.js';
import { checkReplySchemas } from './reply-schemas.js';
import { storeLegSkipReason } from './skip-reasons.js';

export interface StoreLeg {
  name: string;
  postgres: boolean;
  redis: boolean;
  /** Why the leg cannot run here, or null when it can. */
  skipReason: string | null;
}

const inCi = process.env.CI === 'true' || process.env.CI === '1';

/**
 * The embedded leg alone: for a file whose subject behaves the same on both stores (docs/testing.md,
 * "Which files run on PostgreSQL"): routes over plain reads and writes that Drizzle writes alike for
 * both, run on PGlite (the same PostgreSQL, compiled to WebAssembly).
 */
export function embeddedLeg(): StoreLeg[] {
  return [{ name: 'pglite', postgres: false, redis: false, skipReason: null }];
}

/**
 * The embedded leg always; the PostgreSQL + Redis leg when the machine has them (mandatory in CI): for a
 * file whose subject differs between the stores (docs/testing.md, "Which files run on PostgreSQL").
 */
export function storeLegs(): StoreLeg[] {
  const skipReason = storeLegSkipReason();
  if (skipReason && inCi) throw new Error(`In CI the PostgreSQL/Redis leg must run: ${skipReason}`);
  return [
    { name: 'pglite', postgres: false, redis: false, skipReason: null },
    { name: 'postgres+redis', postgres: true, redis: true, skipReason },
  ];
}

/**
 * The argon2id cost of the passwords a test app hashes: the least argon2 allows (8 KiB, one pass)
 * instead of OWASP's 19 MiB and two, which cost about 16 ms a hash or verification on a loaded
 * 2-core machine, for every sign-up and sign-in of the suite. The same code hashes and verifies, the
 * same algorithm (the cost is read back from the hash); a file whose subject is the cost itself, or
 * whose races are paced by it, passes SERVICE_PASSWORD_HASH_COST (`build.passwordHashCost`).
 */
const TEST_PASSWORD_HASH_COST: PasswordHashCost = Object.freeze({
  memoryCost: 8,
  timeCost: 1,
  parallelism: 1,
});

/** The service's own cost (OWASP's baseline), for a file that needs it. */
export const SERVICE_PASSWORD_HASH_COST = OWASP_HASH_COST;

export interface TestApp {
  app: FastifyInstance;
  dataDir: string;
  /** Its database, for a second app that shares it (`sameDatabaseAs`). */
  store: { database?: Database; databaseUrl?: string };
  close(): Promise<void>;
}

/** A new, empty database on the server at `baseUrl` (tests drop it at the end). */
export async function createScratchDatabase(
  baseUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `rw_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function buildTestApp(
  options: {
    leg?: StoreLeg;
    env?: Record<string, string>;
    /** `logStream`: the app logs there (at LOG_LEVEL, given in env) instead of nowhere. */
    build?: Pick<
      BuildOptions,
      'resolveResource' | 'clock' | 'onRoute' | 'logStream' | 'passwordHashCost'
    >;
    /** Uses this app's database (as a second server process would); the first app owns it, so close this one first. */
    sameDatabaseAs?: TestApp;
    /** A database the test opened itself (kept at close), e.g. one that records its statements. */
    database?: Database;
    /** A PostgreSQL database to use (kept at close): apps given the same one share it, as server processes do. */
    databaseUrl?: string;
    /** Apps given the same prefix share their Redis keys (as several server processes would). */
    redisKeyPrefix?: string;
    /** More backends for /api/health to report (tests decide their state). */
    extraHealthChecks?: PlatformOverrides['extraHealthChecks'];
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rw-test-'));
  const leg = options.leg;
  const shared = options.database ? { database: options.database } : options.sameDatabaseAs?.store;
  const scratch =
    !shared && !options.databaseUrl && leg?.postgres
      ? await createScratchDatabase(process.env.TEST_DATABASE_URL!)
      : null;
  const databaseUrl = options.databaseUrl ?? (shared ? shared.databaseUrl : scratch?.url);
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    APP_ORIGIN: 'http://app.test',
    PUBLIC_URL: 'http://api.test',
    // Alert jobs poll the database: only the tests of alerts turn them on.
    ALERTS_ENABLED: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(leg?.redis ? { REDIS_URL: process.env.TEST_REDIS_URL! } : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  // A copy of the run's one migrated database (test/support/pglite-template.ts).
  const ownDatabase =
    !shared && !databaseUrl
      ? await openDatabase({ pgliteDir: 'memory://', pgliteFrom: await migratedPgliteTemplate() })
      : undefined;
  const database = shared ? shared.database : ownDatabase;
  const seeRoute = options.build?.onRoute;
  const app = await buildApp(config, {
    passwordHashCost: TEST_PASSWORD_HASH_COST,
    ...options.build,
    // Every JSON reply is checked against its route's response schema (a mismatch fails the test).
    onRoute(route) {
      checkReplySchemas(route);
      void seeRoute?.call(this, route);
    },
    ...(options.build?.logStream ? {} : { logger: false as const }),
    platformOverrides: {
      database,
      redisKeyPrefix: options.redisKeyPrefix ?? `rwtest:${randomUUID()}:`,
      ...(options.extraHealthChecks ? { extraHealthChecks: options.extraHealthChecks } : {}),
    },
  });
  await app.ready();
  return {
    app,
    dataDir,
    store: { database, databaseUrl },
    async close() {
      await app.close();
      if (ownDatabase) await ownDatabase.close();
      if (scratch) await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
