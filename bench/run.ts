/**
 * `npm run bench`: the service against a reference doing the same work on the same machine, in the
 * same run, so that the figures are ratios that hold on a noisy machine.
 *
 * HTTP. The production build (`node dist/main.js`, logs at warn, its own DATA_DIR, rate limits raised
 * by environment) and, per route, a reference server answering the same JSON for the same request:
 * for GET /api/health, Fastify alone running the same handler work (bench/fastify-alone.ts), the
 * framework's floor; for every other route, a bare `node:http` server (bench/bare-server.ts) running
 * the same SQL through the same driver on its own copy of the same store. Each is a child process, and
 * so is the load generator (autocannon, bench/load.ts). Per route, after a warm-up of each, the two
 * are loaded in turn for BENCH_ROUNDS rounds (service, reference, then reference, service, …), with
 * the same connections and duration. The ratio is the median of the per-round ratios (the two runs of
 * a round are back to back, so they share the machine's neighbours); req/s, p50 and p99 are each
 * side's median round; every round is kept in results.json.
 *
 * Stores. PGlite is one process's embedded database, so the two servers cannot share one: the data is
 * made once by the real service through its API (bench/seed.ts) in a seed directory, the service is
 * stopped (PGlite is closed cleanly), and the directory is copied twice, one copy for each server.
 * Both therefore start from identical data. With BENCH_DATABASE_URL and BENCH_REDIS_URL the DB-backed
 * routes run again on PostgreSQL + Redis: a scratch database is seeded the same way and cloned with
 * `CREATE DATABASE … TEMPLATE`, one clone per server, and all three are dropped at the end.
 *
 * Routes. GET /api/auth/session reads the user's profile, so it is DB-backed like the workspace
 * routes (its bare counterpart runs that query too). POST …/resources sends a unique URL with every
 * request, round-robin over the writer's 120 workspaces (a workspace holds at most 10,000 resources), so
 * every request is a real insert, never a 409 duplicate or a full workspace; the bare server's inserts
 * go through the same uniqueness rule. GET /api/health takes the service's whole request chain, as
 * every request does.
 *
 * Search. The service keeps to each provider's published request rate (arXiv: one request per 3 s);
 * searches arriving faster would wait for arXiv's next slot, which measures arXiv's policy, not this
 * code. So cold searches (a new query each time, nothing from the answer cache) are paced one per
 * 3.5 s, the same request to both servers each time, against a local server that answers every
 * provider request from the recorded fixtures after a fixed delay (BENCH_SEARCH_DELAY_MS, 50). The bare
 * server makes the same upstream requests (PubMed and YouTube need two in a row) and answers the
 * service's JSON: its p50 is the floor the providers' delay sets.
 *
 * Journey (bench/journey.ts): the mix of requests a signed-in researcher's browser makes (session,
 * cached searches, workspace list and detail, a saved resource and its annotation, a cached and a cold
 * quick summary), by seeded users, at 10 and 50 connections: req/s, p50 and p99 over all its
 * requests. On PGlite one process; on PostgreSQL + Redis one process and two (a second service process
 * on another port, sharing the database and Redis, the connections split between the two), loaded in
 * alternating rounds; the two-process figure over the one-process figure is the scaling (aim ≥ 1.6×
 * where the machine has the cores: two service processes, the load generator, PostgreSQL and Redis).
 *
 * Memory (bench/memory.ts): the service's resident memory under BENCH_MEMORY_MINUTES of mixed load
 * (the journey, deep PDF summaries and quick summary streams, half of them cut mid-way, and avatar
 * uploads), read at each minute, and again after it idled BENCH_MEMORY_IDLE seconds.
 *
 * Import (bench/import.ts): a 5,000-entry BibTeX file imported into an empty workspace by the import
 * command, on PGlite and on PostgreSQL (BENCH_DATABASE_URL), beside reading the file alone and the same
 * rows inserted bare, in the same process.
 * Library search (bench/library-search.ts): 10,000 resources with 2,000 PDFs' text (50 pages each), the
 * built service over HTTP beside GET /api/health (the baseline) and the same SQL run bare, then over
 * HTTP at 10 concurrent clients, p50 and p95 overall and for each kind of query, with each query's
 * EXPLAIN ANALYZE time, on each store (BENCH_LIBRARY_* settings).
 *
 * Compute: merging and ranking 7 × 100 records (bench/search-merge.ts), the summarizer's throughput
 * (bench/summarizer.ts) and PDF text extraction beside pdftotext (bench/pdf-extract.ts), each loaded
 * only if present.
 *
 * Settings (environment): BENCH_DURATION (s per measurement, 4), BENCH_WARMUP (s, 2), BENCH_ROUNDS (3),
 * BENCH_CONNECTIONS (10), BENCH_SEARCH_SAMPLES (10), BENCH_SEARCH_DELAY_MS (50), BENCH_ONLY (route ids,
 * comma-separated: health, session, workspaces, workspace, add-resource, summarize-cold,
 * summarize-cached, search, journey, startup, memory, import, library), BENCH_STARTUP_RUNS (5: time to ready, median of that many
 * starts after a first), BENCH_JOURNEY_USERS (8), BENCH_STORES (pglite,postgres), BENCH_MEMORY_MINUTES (15), BENCH_MEMORY_IDLE (60), BENCH_SKIP_COMPUTE=1,
 * BENCH_UPDATE_DOCS=1 (rewrites the table in docs/performance.md), BENCH_SERVICE_NODE_ARGS (node arguments for
 * the measured service, e.g. `--cpu-prof --cpu-prof-dir=…`).
 * Output: a table on the terminal and bench/results.json (and docs/performance.md's table with BENCH_UPDATE_DOCS=1).
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  everyProviderRoutes,
  type FixtureServer,
  providerEnvFor,
  startFixtureServer,
} from '../test/support/fixture-server.js';
import type { BareConfig } from './bare-server.js';
import type { LoadResult, LoadSpec, Variation } from './load.js';
import {
  cpuSeconds,
  freePort,
  ROOT,
  runLoad,
  startReferenceServer,
  startService,
  type Server,
} from './processes.js';
import { journeySearchPath, seedJourneyUsers, type JourneyPlan } from './journey.js';
import { seed, type Seed } from './seed.js';
import { measureMemory, type MemoryResult } from './memory.js';
import {
  libraryKindTable,
  measureLibrarySearch,
  type LibraryStoreResult,
} from './library-search.js';
import { measureStartup, type StartupResult } from './startup.js';

// ---- settings ----

function setting(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const settings = {
  durationSeconds: setting('BENCH_DURATION', 4),
  warmupSeconds: setting('BENCH_WARMUP', 2),
  rounds: Math.round(setting('BENCH_ROUNDS', 3)),
  connections: Math.round(setting('BENCH_CONNECTIONS', 10)),
  searchSamples: Math.round(setting('BENCH_SEARCH_SAMPLES', 10)),
  searchDelayMs: setting('BENCH_SEARCH_DELAY_MS', 50),
  /** arXiv's published rate is one request per 3 s; a little more keeps every provider's slot free. */
  // arXiv allows one request per 3 s. The two servers alternate who goes first, so one server's
  // consecutive searches can be the interval minus the other's latency apart: 3.5 s keeps that above 3 s.
  searchIntervalMs: 3500,
  /** 120 × 500 resources: more than the POST measurement can add at these durations. */
  writeWorkspaces: Math.round(setting('BENCH_WRITE_WORKSPACES', 120)),
  journeyUsers: Math.round(setting('BENCH_JOURNEY_USERS', 8)),
  journeyConnections: [10, 50],
  only: process.env.BENCH_ONLY
    ? new Set(process.env.BENCH_ONLY.split(',').map((id) => id.trim()))
    : null,
  skipCompute: process.env.BENCH_SKIP_COMPUTE === '1',
  startupRuns: Math.max(1, Number(process.env.BENCH_STARTUP_RUNS ?? 5) || 5),
  memoryMinutes: setting('BENCH_MEMORY_MINUTES', 15),
  memoryIdleSeconds: setting('BENCH_MEMORY_IDLE', 60),
  updateDocs: process.env.BENCH_UPDATE_DOCS === '1',
  /** Extra node arguments for the measured service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
  serviceNodeArgs: (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  /** Which stores to run: `pglite`, `postgres` (default both, the second when its URLs are set). */
  stores: new Set(
    (process.env.BENCH_STORES ?? 'pglite,postgres').split(',').map((name) => name.trim()),
  ),
  databaseUrl: process.env.BENCH_DATABASE_URL,
  redisUrl: process.env.BENCH_REDIS_URL,
};

const RATE_LIMITS_FOR_THE_RUN = {
  RATE_LIMIT_AUTHENTICATED_PER_HOUR: '1000000000',
  RATE_LIMIT_SEARCH_PER_HOUR: '1000000000',
  RATE_LIMIT_SUMMARIZE_PER_HOUR: '1000000000',
  RATE_LIMIT_SIGNUP_PER_HOUR_PER_IP: '1000',
  RATE_LIMIT_SIGNIN_PER_15MIN_PER_IP: '1000',
  RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL: '1000',
  // The journey's searches are answered from the provider-answer cache for the whole run.
  SEARCH_CACHE_TTL_SECONDS: '7200',
};

const ABSTRACT =
  'We study how transformer language models use long contexts. Retrieval accuracy falls when the relevant passage sits in the middle of the input, ' +
  'and rises again near either end. We measure this on multi-document question answering and key-value retrieval, across models with context ' +
  'windows from 4k to 100k tokens. Extended-context models are not better at using their context than their shorter counterparts. We release ' +
  'the evaluation code and propose protocols for future long-context models.';

// ---- routes ----

type Target = { kind: 'ratio'; min: number } | { kind: 'p50'; maxMs: number } | null;

/** What a route is measured against: the bare node:http server, or Fastify alone (health). */
type Reference = 'bare' | 'fastify-alone';
const REFERENCE_NAMES: Record<Reference, string> = {
  bare: 'bare node:http',
  'fastify-alone': 'Fastify alone, same handler',
};

interface RouteBench {
  id: string;
  label: string;
  method: 'GET' | 'POST';
  path: (seed: Seed) => string;
  token?: (seed: Seed) => string;
  /** Request headers besides authorization and content-type (sent to both servers). */
  headers?: Record<string, string>;
  body?: string;
  variation?: (seed: Seed, runId: string) => Variation;
  reference: Reference;
  target: Target;
  /** Runs on PostgreSQL + Redis too. */
  dbBacked: boolean;
  /** Fields whose values legitimately differ between the two servers' answers. */
  volatile?: string[];
  /** Compare only the shape (keys) of the answers (the request creates something new). */
  shapeOnly?: boolean;
}

/** The web app's origin as the service is configured for the run (APP_ORIGIN). */
const BENCH_APP_ORIGIN = 'http://app.bench.test';

const SUMMARY_BODY = JSON.stringify({
  title: 'Lost in the middle: how language models use long contexts',
  abstract: ABSTRACT,
  mode: 'quick',
});

const ROUTES: RouteBench[] = [
  {
    id: 'health',
    label: 'GET /api/health',
    method: 'GET',
    path: () => '/api/health',
    reference: 'fastify-alone',
    target: { kind: 'ratio', min: 0.85 },
    dbBacked: false,
    volatile: ['timestamp'],
  },
  {
    id: 'session',
    label: 'GET /api/auth/session (bearer)',
    method: 'GET',
    path: () => '/api/auth/session',
    token: (s) => s.reader.token,
    reference: 'bare',
    target: { kind: 'ratio', min: 0.6 },
    dbBacked: true,
  },
  {
    id: 'workspaces',
    label: 'GET /api/workspaces (20)',
    method: 'GET',
    path: () => '/api/workspaces',
    token: (s) => s.reader.token,
    reference: 'bare',
    target: { kind: 'ratio', min: 0.6 },
    dbBacked: true,
  },
  {
    id: 'workspace',
    label: 'GET /api/workspaces/{id} (20 res., 40 ann.)',
    method: 'GET',
    path: (s) => `/api/workspaces/${s.detailWorkspaceId}`,
    token: (s) => s.reader.token,
    reference: 'bare',
    target: { kind: 'ratio', min: 0.6 },
    dbBacked: true,
  },
  {
    id: 'add-resource',
    label: 'POST /api/workspaces/{id}/resources',
    method: 'POST',
    path: (s) => `/api/workspaces/${s.writeWorkspaceIds[0]}/resources`,
    token: (s) => s.writer.token,
    body: '{}',
    variation: (s, runId) => ({ kind: 'resource', workspaceIds: s.writeWorkspaceIds, runId }),
    reference: 'bare',
    target: { kind: 'ratio', min: 0.6 },
    dbBacked: true,
    shapeOnly: true,
  },
  {
    id: 'summarize-cold',
    label: 'POST /api/summarize quick, cold',
    method: 'POST',
    path: () => '/api/summarize',
    token: (s) => s.reader.token,
    body: SUMMARY_BODY,
    variation: (_s, runId) => ({ kind: 'summary-title', runId }),
    reference: 'bare',
    target: null,
    dbBacked: false,
  },
  {
    id: 'summarize-cached',
    label: 'POST /api/summarize quick, cached',
    method: 'POST',
    path: () => '/api/summarize',
    token: (s) => s.reader.token,
    body: SUMMARY_BODY,
    reference: 'bare',
    target: { kind: 'ratio', min: 0.5 },
    dbBacked: false,
    volatile: ['fromCache'],
  },
];

const SEARCH_ROUTE_ID = 'search';
const JOURNEY_ID = 'journey';
const STARTUP_ID = 'startup';
const MEMORY_ID = 'memory';
const IMPORT_ID = 'import';
/** Library search over 10,000 resources and 2,000 PDFs' text: the built service over HTTP beside the bare SQL (bench/library-search.ts). */
const LIBRARY_ID = 'library';

function wanted(id: string): boolean {
  return !settings.only || settings.only.has(id);
}

// ---- results ----

interface Side {
  /** The median round (by throughput); every round is in `rounds`. */
  best: LoadResult;
  rounds: LoadResult[];
}

interface HttpResult {
  id: string;
  label: string;
  store: string;
  connections: number;
  durationSeconds: number;
  service: Side;
  reference: Side;
  referenceName: string;
  ratio: number;
  target: Target;
  met: boolean | null;
  sameAnswer: boolean;
  /** The service's peak RSS (VmHWM, MB) once this route was measured: where memory grows. */
  servicePeakRssMb: number | null;
  /**
   * The reference's CPU time per request over the service's (user and system, from /proc), median of
   * the per-round ratios: steadier than the request rate on a loaded machine. Null off Linux.
   */
  cpuRatio: number | null;
  /** CPU time per request in each round (µs): the service's and the reference's. */
  cpuMicrosPerRequest: { service: number[]; reference: number[] } | null;
}

interface SearchResult {
  label: string;
  store: string;
  samples: number;
  intervalMs: number;
  providerDelayMs: number;
  service: LoadResult;
  bare: LoadResult;
  overheadP50Ms: number;
  target: Target;
  met: boolean;
  providers: Array<{ id: string; status: string; took: number }>;
}

interface RssResult {
  server: string;
  store: string;
  peakRssMb: number | null;
  targetMb: number | null;
  met: boolean | null;
}

interface JourneyResult {
  store: string;
  connections: number;
  processes: 1 | 2;
  best: LoadResult;
  rounds: LoadResult[];
}

interface JourneyScaling {
  store: string;
  connections: number;
  /** Median of the per-round ratios: two processes' req/s over one's. */
  ratio: number;
  target: number;
  /** null where the machine has too few cores to show it. */
  met: boolean | null;
}

const http: HttpResult[] = [];
const journeys: JourneyResult[] = [];
const journeyScaling: JourneyScaling[] = [];
const searches: SearchResult[] = [];
const rss: RssResult[] = [];
const notes: string[] = [];

// ---- the provider fixture server (search) ----

function providerEnv(fixtures: FixtureServer): Record<string, string> {
  return { ...providerEnvFor(fixtures.url), YOUTUBE_API_KEY: 'bench-key' };
}

// ---- stores ----

interface StoreCopies {
  name: string;
  /** Environment of the service for the seed run and for the measured run. */
  seedEnv: Record<string, string>;
  serviceEnv: Record<string, string>;
  bareStore: BareConfig['store'];
  /** Makes the (empty) store the seed run writes to. */
  prepare(): Promise<void>;
  /** Makes the two copies from the seeded store. */
  copy(): Promise<void>;
  cleanup(): Promise<void>;
}

function pgliteCopies(workDir: string): StoreCopies {
  const seedDir = join(workDir, 'pglite-seed');
  const serviceDir = join(workDir, 'pglite-service');
  const bareDir = join(workDir, 'pglite-bare');
  return {
    name: 'pglite',
    seedEnv: { DATA_DIR: seedDir },
    serviceEnv: { DATA_DIR: serviceDir },
    bareStore: { kind: 'pglite', dataDir: bareDir },
    async prepare() {
      // The service creates the directory.
    },
    async copy() {
      cpSync(seedDir, serviceDir, { recursive: true });
      cpSync(seedDir, bareDir, { recursive: true });
    },
    async cleanup() {
      // The directories go with workDir.
    },
  };
}

function postgresCopies(workDir: string, baseUrl: string, redisUrl: string): StoreCopies {
  const stem = `rw_bench_${randomBytes(4).toString('hex')}`;
  const urlOf = (name: string) => {
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const admin = async (statements: string[]) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  };
  let created = false;
  return {
    name: 'postgres+redis',
    seedEnv: {
      DATA_DIR: join(workDir, 'pg-seed'),
      DATABASE_URL: urlOf(`${stem}_seed`),
      REDIS_URL: redisUrl,
    },
    serviceEnv: {
      DATA_DIR: join(workDir, 'pg-service'),
      DATABASE_URL: urlOf(`${stem}_service`),
      REDIS_URL: redisUrl,
    },
    bareStore: { kind: 'postgres', url: urlOf(`${stem}_bare`) },
    async prepare() {
      await admin([`CREATE DATABASE ${stem}_seed`]);
      created = true;
    },
    async copy() {
      await admin([
        `CREATE DATABASE ${stem}_service TEMPLATE ${stem}_seed`,
        `CREATE DATABASE ${stem}_bare TEMPLATE ${stem}_seed`,
      ]);
    },
    async cleanup() {
      if (!created) return;
      await admin(
        ['seed', 'service', 'bare'].map(
          (suffix) => `DROP DATABASE IF EXISTS ${stem}_${suffix} WITH (FORCE)`,
        ),
      );
    },
  };
}

// ---- measuring ----

function loadSpec(
  route: RouteBench,
  seedData: Seed,
  server: Server,
  durationSeconds: number,
): LoadSpec {
  const token = route.token?.(seedData);
  return {
    mode: 'autocannon',
    origins: [server.origin],
    method: route.method,
    path: route.path(seedData),
    headers: {
      ...route.headers,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(route.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: route.body,
    variation: route.variation?.(seedData, randomBytes(3).toString('hex')),
    connections: settings.connections,
    durationSeconds,
  };
}

async function loadOnce(spec: LoadSpec): Promise<LoadResult> {
  const [result] = await runLoad(spec);
  if (!result) throw new Error('no load result');
  return result;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The round whose throughput is the median (the lower one of the middle two). */
function medianRound(results: LoadResult[]): LoadResult {
  const sorted = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)] as LoadResult;
}

/**
 * The ratio of one run: in each round the two servers are loaded one right after the other, so they
 * meet about the same neighbours on a shared machine; the median of those per-round ratios is kept.
 */
function pairedRatio(service: LoadResult[], reference: LoadResult[]): number {
  const ratios = service.map(
    (result, round) =>
      result.requestsPerSecond / Math.max(1, reference[round]?.requestsPerSecond ?? 0),
  );
  return Math.round(median(ratios) * 100) / 100;
}

/** Both sides' CPU time per request, round by round, when /proc gave every one of them. */
function cpuPerRequest(
  service: Array<number | null>,
  reference: Array<number | null>,
): { service: number[]; reference: number[] } | null {
  const known = (values: Array<number | null>): values is number[] =>
    values.every((value) => value !== null && value > 0);
  if (!known(service) || !known(reference)) return null;
  const tenths = (values: number[]) => values.map((us) => Math.round(us * 10) / 10);
  return { service: tenths(service), reference: tenths(reference) };
}

function judge(target: Target, ratio: number, p50: number): boolean | null {
  if (!target) return null;
  return target.kind === 'ratio' ? ratio >= target.min : p50 <= target.maxMs;
}

/** Both answers to the same request, compared (volatile fields blanked; shape only where asked). */
async function sameAnswer(
  route: RouteBench,
  seedData: Seed,
  service: Server,
  reference: Server,
): Promise<boolean> {
  const token = route.token?.(seedData);
  const ask = async (server: Server) => {
    const response = await fetch(`${server.origin}${route.path(seedData)}`, {
      method: route.method,
      headers: {
        ...route.headers,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(route.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body:
        route.id === 'add-resource'
          ? JSON.stringify({
              title: 'Answer check',
              url: `https://bench.example.org/check/${randomBytes(4).toString('hex')}`,
              notes: '',
              tags: [],
              authors: [],
            })
          : route.body,
    });
    return { status: response.status, body: await response.json() };
  };
  const blank = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(blank);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([key, inner]) => [
            key,
            route.volatile?.includes(key)
              ? '…'
              : route.shapeOnly && !(inner && typeof inner === 'object')
                ? typeof inner
                : blank(inner),
          ]),
      );
    }
    return value;
  };
  const [fromService, fromReference] = [await ask(service), await ask(reference)];
  const same =
    fromService.status === fromReference.status &&
    JSON.stringify(blank(fromService.body)) === JSON.stringify(blank(fromReference.body));
  if (!same) {
    const where = firstDifference(blank(fromService.body), blank(fromReference.body), '');
    notes.push(
      `${route.label}: the reference's answer (${REFERENCE_NAMES[route.reference]}) differs from the service's (${where})`,
    );
    process.stderr.write(
      `  ! ${route.label}: answers differ: status ${fromService.status} / ${fromReference.status}, ${where}\n`,
    );
  }
  return same;
}

function firstDifference(a: unknown, b: unknown, path: string): string {
  if (JSON.stringify(a) === JSON.stringify(b)) return '';
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const inner = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (inner) return inner;
    }
  }
  return `${path || '(root)'}: service ${JSON.stringify(a)?.slice(0, 120)}, reference ${JSON.stringify(b)?.slice(0, 120)}`;
}

async function measureRoute(
  route: RouteBench,
  store: string,
  seedData: Seed,
  service: Server,
  reference: Server,
): Promise<HttpResult> {
  const same = await sameAnswer(route, seedData, service, reference);
  const sides: Array<{ server: Server; rounds: LoadResult[]; cpu: Array<number | null> }> = [
    { server: service, rounds: [], cpu: [] },
    { server: reference, rounds: [], cpu: [] },
  ];
  for (const side of sides)
    await loadOnce(loadSpec(route, seedData, side.server, settings.warmupSeconds));
  for (let round = 0; round < settings.rounds; round++) {
    // Each round starts with the other server, so that neither always follows the same one.
    for (let i = 0; i < sides.length; i++) {
      const side = sides[(round + i) % sides.length] as (typeof sides)[number];
      const cpuBefore = cpuSeconds(side.server.pid);
      const result = await loadOnce(
        loadSpec(route, seedData, side.server, settings.durationSeconds),
      );
      const cpuAfter = cpuSeconds(side.server.pid);
      side.rounds.push(result);
      side.cpu.push(
        cpuBefore === null || cpuAfter === null || result.requests === 0
          ? null
          : ((cpuAfter - cpuBefore) * 1e6) / result.requests,
      );
    }
  }
  const [serviceSide, referenceSide] = sides as [(typeof sides)[number], (typeof sides)[number]];
  const serviceBest = medianRound(serviceSide.rounds);
  const referenceBest = medianRound(referenceSide.rounds);
  const ratio = pairedRatio(serviceSide.rounds, referenceSide.rounds);
  const cpuMicros = cpuPerRequest(serviceSide.cpu, referenceSide.cpu);
  const cpuRatio = cpuMicros
    ? Math.round(
        median(cpuMicros.service.map((us, round) => (cpuMicros.reference[round] ?? 0) / us)) * 100,
      ) / 100
    : null;
  const result: HttpResult = {
    id: route.id,
    label: route.label,
    store,
    connections: settings.connections,
    durationSeconds: settings.durationSeconds,
    service: { best: serviceBest, rounds: serviceSide.rounds },
    reference: { best: referenceBest, rounds: referenceSide.rounds },
    referenceName: REFERENCE_NAMES[route.reference],
    ratio,
    target: route.target,
    met: judge(route.target, ratio, serviceBest.p50Ms),
    sameAnswer: same,
    servicePeakRssMb: service.peakRssMb(),
    cpuRatio,
    cpuMicrosPerRequest: cpuMicros,
  };
  const errors = sides
    .flatMap((side) => side.rounds)
    .reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  process.stdout.write(
    `  ${route.label.padEnd(44)} ${store.padEnd(15)} ` +
      `service ${String(serviceBest.requestsPerSecond).padStart(6)}/s  ${route.reference} ${String(referenceBest.requestsPerSecond).padStart(6)}/s  ` +
      `ratio ${ratio.toFixed(2)}` +
      (cpuMicros
        ? `  CPU ratio ${cpuRatio?.toFixed(2)} (${median(cpuMicros.service).toFixed(1)} / ${median(cpuMicros.reference).toFixed(1)} µs a request)`
        : '') +
      `${errors ? `  (${errors} non-2xx/errors)` : ''}  [service peak RSS ${result.servicePeakRssMb ?? '–'} MB]\n`,
  );
  return result;
}

async function measureSearch(
  store: string,
  service: Server,
  bare: Server,
  providers: SearchResult['providers'],
): Promise<SearchResult> {
  const spec: LoadSpec = {
    mode: 'paced',
    origins: [service.origin, bare.origin],
    method: 'GET',
    path: '/api/search',
    headers: {},
    variation: { kind: 'search-query', runId: randomBytes(3).toString('hex') },
    connections: 1,
    durationSeconds: 0,
    samples: settings.searchSamples,
    intervalMs: settings.searchIntervalMs,
  };
  const [fromService, fromBare] = await runLoad(spec);
  if (!fromService || !fromBare) throw new Error('no search result');
  const target: Target = { kind: 'p50', maxMs: settings.searchDelayMs + 10 };
  const result: SearchResult = {
    label: `GET /api/search (7 providers, ${settings.searchDelayMs} ms each request)`,
    store,
    samples: settings.searchSamples,
    intervalMs: settings.searchIntervalMs,
    providerDelayMs: settings.searchDelayMs,
    service: fromService,
    bare: fromBare,
    overheadP50Ms: Math.round((fromService.p50Ms - fromBare.p50Ms) * 10) / 10,
    target,
    met: fromService.p50Ms <= target.maxMs,
    providers,
  };
  process.stdout.write(
    `  ${'GET /api/search (paced, cold)'.padEnd(44)} ${store.padEnd(15)} ` +
      `p50 service ${fromService.p50Ms.toFixed(1)} ms  ` +
      `bare ${fromBare.p50Ms.toFixed(1)} ms  overhead ${result.overheadP50Ms} ms\n`,
  );
  return result;
}

// ---- one store: seed, copy, start both, measure ----

const JWT_SECRET = randomBytes(32).toString('hex');

function commonEnv(fixtures: FixtureServer): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    APP_ORIGIN: BENCH_APP_ORIGIN,
    ...RATE_LIMITS_FOR_THE_RUN,
    ...providerEnv(fixtures),
  };
}

// ---- the journey ----

const JOURNEY_SEARCHES = [
  'long context retrieval',
  'protein folding language models',
  'graph neural networks chemistry',
];
const JOURNEY_SUMMARY_BODY = JSON.stringify({
  title: 'Retrieval over long inputs in transformer models',
  abstract: ABSTRACT,
  mode: 'quick',
});
/** Two service processes, the load generator, PostgreSQL and Redis: below this the 1.6× cannot show. */
const CORES_FOR_TWO_PROCESSES = 4;

function journeySpec(
  plan: Omit<JourneyPlan, 'runId'>,
  origins: string[],
  connections: number,
  durationSeconds: number,
): LoadSpec {
  return {
    mode: 'autocannon',
    origins,
    method: 'GET',
    path: '/',
    headers: {},
    journey: { ...plan, runId: randomBytes(3).toString('hex') },
    connections,
    durationSeconds,
  };
}

/**
 * Seeds the journey's users through the service, warms what the journey reads from caches (its
 * searches, one per arXiv slot, and its cached summary), then measures one process and, with
 * `second`, two processes in alternating rounds at each connection count.
 */
async function measureJourney(
  store: string,
  first: Server,
  startSecond: (() => Promise<Server>) | null,
  fixtures: FixtureServer,
): Promise<void> {
  process.stdout.write(
    `${store}: journey: seeding ${settings.journeyUsers} researchers, warming their searches…\n`,
  );
  const users = await seedJourneyUsers(first.origin, settings.journeyUsers);
  const authorization = `Bearer ${users[0]?.token ?? ''}`;
  for (const query of JOURNEY_SEARCHES) {
    await new Promise((resolve) => setTimeout(resolve, settings.searchIntervalMs));
    const response = await fetch(`${first.origin}${journeySearchPath(query)}`, {
      headers: { authorization },
    });
    if (!response.ok)
      throw new Error(`warming the journey's search "${query}": ${response.status}`);
  }
  const summary = await fetch(`${first.origin}/api/summarize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JOURNEY_SUMMARY_BODY,
  });
  if (!summary.ok) throw new Error(`warming the journey's summary: ${summary.status}`);
  const plan = { users, searchQueries: JOURNEY_SEARCHES, cachedSummaryBody: JOURNEY_SUMMARY_BODY };

  const second = startSecond ? await startSecond() : null;
  const providerRequestsBefore = fixtures.requests.length;
  try {
    const setups: Array<{ processes: 1 | 2; origins: string[] }> = [
      { processes: 1, origins: [first.origin] },
      ...(second ? [{ processes: 2 as const, origins: [first.origin, second.origin] }] : []),
    ];
    for (const connections of settings.journeyConnections) {
      const rounds = setups.map(() => [] as LoadResult[]);
      for (const setup of setups)
        await loadOnce(journeySpec(plan, setup.origins, connections, settings.warmupSeconds));
      for (let round = 0; round < settings.rounds; round++) {
        for (let i = 0; i < setups.length; i++) {
          const k = (round + i) % setups.length;
          rounds[k]?.push(
            await loadOnce(
              journeySpec(
                plan,
                (setups[k] as (typeof setups)[number]).origins,
                connections,
                settings.durationSeconds,
              ),
            ),
          );
        }
      }
      setups.forEach((setup, k) => {
        const results = rounds[k] as LoadResult[];
        const best = medianRound(results);
        journeys.push({ store, connections, processes: setup.processes, best, rounds: results });
        const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
        process.stdout.write(
          `  ${`journey, ${setup.processes} process${setup.processes === 2 ? 'es' : ''}, ${connections} connections`.padEnd(44)} ` +
            `${store.padEnd(15)} ${String(best.requestsPerSecond).padStart(6)}/s  ` +
            `p50 ${ms(best.p50Ms)} ms  p99 ${ms(best.p99Ms)} ms` +
            `${failed ? `  (${failed} non-2xx/errors: ${JSON.stringify(best.statusCodes)})` : ''}\n`,
        );
      });
      if (second) {
        const ratio = pairedRatio(rounds[1] as LoadResult[], rounds[0] as LoadResult[]);
        const enoughCores = availableParallelism() >= CORES_FOR_TWO_PROCESSES;
        journeyScaling.push({
          store,
          connections,
          ratio,
          target: 1.6,
          met: enoughCores ? ratio >= 1.6 : null,
        });
      }
    }
  } finally {
    await second?.stop();
  }
  const providerRequests = fixtures.requests.length - providerRequestsBefore;
  if (providerRequests > 0)
    notes.push(
      `journey (${store}): ${providerRequests} provider requests during the measurement (its searches were meant to be cached)`,
    );
}

async function runStore(
  copies: StoreCopies,
  workDir: string,
  fixtures: FixtureServer,
  routes: RouteBench[],
  options: { withSearch: boolean; withJourney: boolean; twoProcessJourney: boolean },
): Promise<void> {
  const { withSearch } = options;
  process.stdout.write(`\n${copies.name}: seeding through the service's API…\n`);
  await copies.prepare();
  const seeding = await startService(
    `service (seed, ${copies.name})`,
    { ...commonEnv(fixtures), ...copies.seedEnv },
    join(workDir, `${copies.name}-seed.log`),
  );
  let seedData: Seed;
  try {
    seedData = await seed(seeding.origin, settings.writeWorkspaces);
  } finally {
    await seeding.stop();
  }
  await copies.copy();

  const service = await startService(
    `service (${copies.name})`,
    { ...commonEnv(fixtures), ...copies.serviceEnv },
    join(workDir, `${copies.name}-service.log`),
    settings.serviceNodeArgs,
  );
  let bare: Server | null = null;
  let fastifyAlone: Server | null = null;
  try {
    const health = (await (await fetch(`${service.origin}/api/health`)).json()) as {
      version: string;
      services: Record<string, string>;
    };
    let searchAnswer: string | undefined;
    let providers: SearchResult['providers'] = [];
    if (withSearch) {
      const response = await fetch(
        `${service.origin}/api/search?q=${encodeURIComponent('bench answer capture')}&limit=20`,
      );
      searchAnswer = await response.text();
      providers = (
        (JSON.parse(searchAnswer) as { providers?: SearchResult['providers'] }).providers ?? []
      ).map(({ id, status, took }) => ({ id, status, took }));
    }
    const probe = await fetch(`${service.origin}/api/summarize`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${seedData.reader.token}`,
      },
      body: JSON.stringify({ title: 'Cache description probe', abstract: ABSTRACT, mode: 'quick' }),
    });
    const summaryCacheDescription = probe.ok
      ? ((await probe.json()) as { cache?: string }).cache
      : undefined;

    const port = await freePort();
    const config: BareConfig = {
      port,
      store: copies.bareStore,
      users: Object.fromEntries(
        [seedData.reader, seedData.writer].map(({ token, ...user }) => [token, user]),
      ),
      health: { version: health.version, services: health.services },
      ...(searchAnswer ? { search: { fixtureOrigin: fixtures.url, answer: searchAnswer } } : {}),
      ...(summaryCacheDescription ? { summaryCacheDescription } : {}),
    };
    const configPath = join(workDir, `${copies.name}-bare.json`);
    writeFileSync(configPath, JSON.stringify(config));
    // The bare server only when a measured route is compared with it (`BENCH_ONLY=health` needs Fastify alone only).
    if (withSearch || routes.some((route) => route.reference === 'bare'))
      bare = await startReferenceServer(
        `bare (${copies.name})`,
        'bare-server.ts',
        configPath,
        port,
        join(workDir, `${copies.name}-bare.log`),
      );
    if (routes.some((route) => route.reference === 'fastify-alone')) {
      fastifyAlone = await startReferenceServer(
        'Fastify alone',
        'fastify-alone.ts',
        configPath,
        await freePort(),
        join(workDir, 'fastify-alone.log'),
      );
    }

    process.stdout.write(
      `${copies.name}: ${settings.connections} connections × ${settings.durationSeconds} s, ${settings.rounds} rounds each, alternating\n`,
    );
    for (const route of routes) {
      const reference = route.reference === 'fastify-alone' ? fastifyAlone : bare;
      if (!reference) throw new Error(`no ${route.reference} server`);
      http.push(await measureRoute(route, copies.name, seedData, service, reference));
    }
    if (withSearch && wanted(SEARCH_ROUTE_ID)) {
      if (!bare) throw new Error('no bare server');
      // The capture above took every provider's slot; the first paced search waits for arXiv's next one.
      await new Promise((resolve) => setTimeout(resolve, settings.searchIntervalMs));
      searches.push(await measureSearch(copies.name, service, bare, providers));
    }
    // The references are done; the journey loads the service alone (one or two processes).
    recordServicePeak();
    await stopReferences();
    if (options.withJourney) {
      const startSecond = options.twoProcessJourney
        ? () =>
            startService(
              `service 2 (${copies.name})`,
              { ...commonEnv(fixtures), ...copies.serviceEnv },
              join(workDir, `${copies.name}-service-2.log`),
              settings.serviceNodeArgs,
            )
        : null;
      await measureJourney(copies.name, service, startSecond, fixtures);
    }
  } finally {
    recordServicePeak();
    await service.stop();
    await stopReferences();
  }

  /** Peak memory over the route measurements (the journey, measured after, is not part of it). */
  function recordServicePeak(): void {
    if (rss.some((r) => r.server === 'service' && r.store === copies.name)) return;
    const servicePeak = service.peakRssMb();
    rss.push({
      server: 'service',
      store: copies.name,
      peakRssMb: servicePeak,
      targetMb: 200,
      met: servicePeak === null ? null : servicePeak <= 200,
    });
  }

  async function stopReferences(): Promise<void> {
    if (bare)
      rss.push({
        server: 'bare node:http',
        store: copies.name,
        peakRssMb: bare.peakRssMb(),
        targetMb: null,
        met: null,
      });
    await bare?.stop();
    await fastifyAlone?.stop();
    bare = null;
    fastifyAlone = null;
  }
}

// ---- compute ----

interface ComputeResults {
  searchMerge?: { name: string; opsPerSec: number; msPerOp: number };
  summarizer?: {
    name: string;
    mbPerSec: number;
    msPerOp: number;
    medianMsPerOp?: number;
    target: number;
    met: boolean;
  };
  pdfExtract?: {
    name: string;
    pdfjsMsPerPage: number;
    pdftotextMsPerPage?: number;
    ratio?: number;
    aim: number;
    met: boolean | null;
  };
  unavailable: string[];
}

async function optionalModule(
  path: string,
  exportName: string,
): Promise<(() => Promise<unknown>) | null> {
  if (!existsSync(join(ROOT, 'bench', path.replace(/\.js$/, '.ts')))) return null;
  try {
    const module = (await import(`./${path}`)) as Record<string, unknown>;
    const fn = module[exportName];
    return typeof fn === 'function' ? (fn as () => Promise<unknown>) : null;
  } catch (error) {
    notes.push(
      `bench/${path.replace(/\.js$/, '.ts')}: could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
    return null;
  }
}

/** A compute measurement that fails (e.g. a deadline on a saturated machine) becomes a note; the HTTP figures are kept. */
async function attempt<T>(what: string, measure: () => Promise<T>): Promise<T | undefined> {
  try {
    return await measure();
  } catch (error) {
    notes.push(
      `${what}: not measured (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
    return undefined;
  }
}

async function runCompute(): Promise<ComputeResults> {
  const results: ComputeResults = { unavailable: [] };
  process.stdout.write('\ncompute…\n');

  const merge = await optionalModule('search-merge.js', 'benchSearchMerge');
  if (merge)
    results.searchMerge = (await attempt(
      'search merge+rank',
      merge,
    )) as ComputeResults['searchMerge'];
  else results.unavailable.push('search merge+rank (bench/search-merge.ts benchSearchMerge)');

  const summarizer = await optionalModule('summarizer.js', 'benchSummarizer');
  if (summarizer) {
    const r = (await attempt('summarizer throughput', summarizer)) as
      { name: string; mbPerSec: number; msPerOp: number; medianMsPerOp?: number } | undefined;
    if (r)
      results.summarizer = {
        name: r.name,
        mbPerSec: r.mbPerSec,
        msPerOp: r.msPerOp,
        medianMsPerOp: r.medianMsPerOp,
        target: 20,
        met: r.mbPerSec >= 20,
      };
  } else results.unavailable.push('summarizer throughput (bench/summarizer.ts benchSummarizer)');

  const pdf = await optionalModule('pdf-extract.js', 'benchPdfExtract');
  const r = pdf
    ? ((await attempt('PDF text extraction', pdf)) as
        | { name: string; pdfjsMsPerPage: number; pdftotextMsPerPage?: number; ratio?: number }
        | undefined)
    : undefined;
  if (r) {
    results.pdfExtract = {
      name: r.name,
      pdfjsMsPerPage: r.pdfjsMsPerPage,
      pdftotextMsPerPage: r.pdftotextMsPerPage,
      ratio: r.ratio,
      aim: 3,
      met: r.ratio === undefined ? null : r.ratio <= 3,
    };
  } else if (!pdf)
    results.unavailable.push('PDF extraction (bench/pdf-extract.ts benchPdfExtract)');
  return results;
}

// ---- report ----

function machine() {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  return {
    cpus: availableParallelism(),
    cpuModel: /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? 'unknown',
    node: process.version,
    date: new Date().toISOString(),
  };
}

const mark = (met: boolean | null) => (met === null ? '' : met ? 'yes' : '**no**');
const ms = (value: number) =>
  Number.isFinite(value) ? (value < 10 ? value.toFixed(2) : value.toFixed(1)) : '–';

/** A paragraph's words in lines of at most `width` characters (the docs' lines stay short). */
function wrapped(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function markdown(info: ReturnType<typeof machine>, compute: ComputeResults | null): string {
  const lines: string[] = [];
  lines.push(
    ...wrapped(
      `Measured ${info.date.slice(0, 10)} on ${info.cpus} CPUs (${info.cpuModel}), Node ${info.node}; ` +
        `${settings.connections} connections, ${settings.durationSeconds} s per measurement, ` +
        `${settings.rounds} alternating rounds (req/s and latencies: median round; ratio: median of ` +
        `the per-round ratios); the load generator shares the machine.`,
    ),
    '',
    '| route | store | reference | service req/s | reference req/s | ratio | target | met | p50 ms service / reference | p99 ms service / reference |',
    '|---|---|---|--:|--:|--:|--:|:-:|--:|--:|',
  );
  for (const r of http) {
    const target = r.target?.kind === 'ratio' ? `≥ ${r.target.min.toFixed(2)}` : '';
    lines.push(
      `| ${r.label} | ${r.store} | ${r.referenceName} ` +
        `| ${r.service.best.requestsPerSecond} ` +
        `| ${r.reference.best.requestsPerSecond} | ${r.ratio.toFixed(2)} ` +
        `| ${target} | ${mark(r.met)} | ` +
        `${ms(r.service.best.p50Ms)} / ${ms(r.reference.best.p50Ms)} | ${ms(r.service.best.p99Ms)} / ${ms(r.reference.best.p99Ms)} |`,
    );
  }
  for (const s of searches) {
    lines.push(
      `| GET /api/search, ${s.samples} cold (below) | ${s.store} | bare node:http, same upstream | | | | ` +
        `p50 ≤ ${s.target?.kind === 'p50' ? s.target.maxMs : ''} ms ` +
        `| ${mark(s.met)} | ` +
        `${ms(s.service.p50Ms)} / ${ms(s.bare.p50Ms)} | ${ms(s.service.p99Ms)} / ${ms(s.bare.p99Ms)} |`,
    );
  }
  for (const s of searches)
    lines.push(
      '',
      ...wrapped(
        `Search: ${s.label}, ${s.samples} cold searches paced ${s.intervalMs / 1000} s apart; the ` +
          `bare server makes the same upstream requests.`,
      ),
    );
  if (journeys.length > 0) {
    lines.push(
      '',
      ...wrapped(
        `Journey (bench/journey.ts: session, 2 cached searches, workspace list, ` +
          `workspace detail ×2, add resource, annotation, quick summary cached and ` +
          `cold; ${settings.journeyUsers} signed-in users; req/s and latencies ` +
          `over all its requests, median round):`,
      ),
      '',
      '| journey | store | processes | connections | req/s | p50 ms | p99 ms | non-2xx |',
      '|---|---|--:|--:|--:|--:|--:|--:|',
    );
    for (const j of journeys) {
      lines.push(
        `| researcher's visit | ${j.store} | ${j.processes} | ${j.connections} ` +
          `| ${j.best.requestsPerSecond} | ${ms(j.best.p50Ms)} ` +
          `| ${ms(j.best.p99Ms)} | ${j.best.non2xx + j.best.errors} |`,
      );
    }
    if (journeyScaling.length > 0) {
      lines.push(
        '',
        '| two processes over one (req/s, median of per-round ratios) | store | connections | ratio | target | met |',
        '|---|---|--:|--:|--:|:-:|',
      );
      for (const j of journeyScaling) {
        const met = j.met === null ? `– (${machine().cpus} CPUs)` : mark(j.met);
        lines.push(
          `| journey | ${j.store} | ${j.connections} | ${j.ratio.toFixed(2)}× | ≥ ${j.target}× | ${met} |`,
        );
      }
    }
  }
  lines.push('', '| server | store | peak RSS (VmHWM) | target | met |', '|---|---|--:|--:|:-:|');
  for (const r of rss)
    lines.push(
      `| ${r.server} | ${r.store} | ${r.peakRssMb ?? '–'} MB | ${r.targetMb ? `≤ ${r.targetMb} MB` : ''} | ${mark(r.met)} |`,
    );
  if (startup) {
    lines.push(
      '',
      '| start-up (dist/main.js as `npm start` runs it, PGlite, spawn → ' +
        'readiness 200) | median of the later starts | first start (creates the ' +
        'database) | fastest / slowest |',
      '|---|--:|--:|--:|',
      `| time to ready, ${startup.runs} starts after a first | ${startup.medianMs} ms | ${startup.firstMs} ms | ${startup.minMs} / ${startup.maxMs} ms |`,
    );
  }
  if (memory) {
    const m = memory;
    const marks = Object.keys(m.atMinute)
      .map(Number)
      .filter((minute) => minute === 1 || minute % 5 === 0 || minute === Math.round(m.minutes));
    lines.push(
      '',
      `| resident memory (RSS), PGlite, mixed load: journey at 10 ` +
        `connections, ${m.work.deepStreamsDone + m.work.deepStreamsCut} deep PDF ` +
        `summaries (${m.work.deepStreamsCut} cut ` +
        `mid-way), ${m.work.quickStreamsCut} quick streams ` +
        `cut, ${m.work.avatars} avatars | MB |`,
      '|---|--:|',
      `| seeded, before the load | ${m.startMb} |`,
      ...marks.map((minute) => `| after ${minute} min | ${m.atMinute[minute]} |`),
      `| after ${m.idleSeconds} s idle | ${m.idleMb} (main thread's V8 ` +
        `heap ${m.idle.heapUsedMb ?? '–'} used of ${m.idle.heapTotalMb ?? '–'}, ` +
        `external ${m.idle.externalMb ?? '–'}) |`,
      `| peak (VmHWM) | ${m.peakMb} |`,
    );
  }
  if (library.length) {
    lines.push(
      '',
      '| library search (bench/library-search.ts): resources, PDFs × pages | ' +
        'HTTP p50 / p95 (health p95) | bare SQL p50 / p95 | 10 clients p50 / p95 (health p95) | ' +
        'target (PostgreSQL, every kind) | met | GIN indexes in the plan |',
      '|---|--:|--:|--:|--:|:-:|---|',
      ...library.map(
        (l) =>
          `| ${l.store === 'pglite' ? 'PGlite' : 'PostgreSQL'}: ${l.resources.toLocaleString('en-US')}, ${l.pdfs.toLocaleString('en-US')} ` +
          `× ${Math.round(l.pages / Math.max(1, l.pdfs))} ` +
          `(${l.pages.toLocaleString('en-US')} pages) | ${l.service.p50} ` +
          `/ ${l.service.p95} ms (${l.health.p95}) | ${l.bare.p50} / ${l.bare.p95} ms ` +
          `| ${l.concurrent.p50} / ${l.concurrent.p95} ms (${l.concurrentHealth.p95}) ` +
          `| ${l.store === 'postgres' ? `p95 ≤ ${l.target} ms, ≤ ${l.concurrentTarget} ms at ${l.clients}` : '–'} ` +
          `| ${l.store === 'postgres' ? mark(l.met) : '–'} ` +
          `| ${l.indexesUsed.join(', ')} |`,
      ),
      ...library.flatMap((l) => ['', libraryKindTable(l)]),
    );
  }
  if (compute) {
    lines.push('', '| compute | result | target | met |', '|---|--:|--:|:-:|');
    if (compute.searchMerge)
      lines.push(`| ${compute.searchMerge.name} | ${compute.searchMerge.msPerOp} ms/op | | |`);
    if (compute.summarizer)
      lines.push(
        `| ${compute.summarizer.name} | ${compute.summarizer.mbPerSec} MB/s (${compute.summarizer.msPerOp} ms) | ≥ 20 MB/s | ${mark(compute.summarizer.met)} |`,
      );
    if (compute.pdfExtract) {
      const p = compute.pdfExtract;
      lines.push(
        `| ${p.name}: pdf.js / pdftotext per page | ${p.pdfjsMsPerPage} ` +
          `/ ${p.pdftotextMsPerPage ?? '–'} ms (${p.ratio ?? '–'}×) | ≤ 3× (aim) ` +
          `| ${mark(p.met)} |`,
      );
    }
    for (const missing of compute.unavailable) lines.push(`| ${missing} | not available | | |`);
    if (compute.pdfExtract)
      lines.push('', "pdf.js is the service's fallback; pdftotext its choice when installed.");
  }
  if (notes.length) lines.push('', ...notes.map((note) => `- ${note}`));
  return lines.join('\n');
}

function updateDocs(table: string): void {
  const path = join(ROOT, 'docs', 'performance.md');
  const doc = readFileSync(path, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from === -1 || to === -1) {
    process.stderr.write(
      'docs/performance.md has no <!-- bench:start --> … <!-- bench:end --> markers; not updated\n',
    );
    return;
  }
  writeFileSync(path, `${doc.slice(0, from + start.length)}\n${table}\n${doc.slice(to)}`);
}

// ---- main ----

let startup: StartupResult | null = null;
let memory: MemoryResult | null = null;
let importResults: unknown = null;
let library: LibraryStoreResult[] = [];

async function main(): Promise<void> {
  const startedAt = Date.now();
  if (!existsSync(join(ROOT, 'dist', 'main.js')))
    throw new Error('dist/main.js is missing: run `npm run build` first (npm run bench does)');
  const workDir = mkdtempSync(join(tmpdir(), 'rw-bench-'));
  const fixtures = await startFixtureServer(everyProviderRoutes(settings.searchDelayMs));
  const info = machine();
  process.stdout.write(
    `Research Workspace benchmark — ${info.cpus} CPUs (${info.cpuModel}), Node ${info.node}\n`,
  );
  const httpRoutes = ROUTES.filter((route) => wanted(route.id));
  const withJourney = wanted(JOURNEY_ID);
  let compute: ComputeResults | null = null;
  try {
    if (httpRoutes.length > 0 || wanted(SEARCH_ROUTE_ID) || withJourney) {
      if (settings.stores.has('pglite')) {
        await runStore(pgliteCopies(workDir), workDir, fixtures, httpRoutes, {
          withSearch: wanted(SEARCH_ROUTE_ID),
          withJourney,
          twoProcessJourney: false,
        });
      }
      const dbRoutes = httpRoutes.filter((route) => route.dbBacked);
      const postgresWork = dbRoutes.length > 0 || withJourney;
      if (!settings.stores.has('postgres')) {
        notes.push('PostgreSQL + Redis leg not run (BENCH_STORES)');
      } else if (settings.databaseUrl && settings.redisUrl && postgresWork) {
        const copies = postgresCopies(workDir, settings.databaseUrl, settings.redisUrl);
        try {
          await runStore(copies, workDir, fixtures, dbRoutes, {
            withSearch: false,
            withJourney,
            twoProcessJourney: true,
          });
        } finally {
          await copies.cleanup();
        }
      } else if (postgresWork) {
        notes.push('PostgreSQL + Redis leg not run: set BENCH_DATABASE_URL and BENCH_REDIS_URL');
      }
    }
    if (wanted(STARTUP_ID))
      startup = await measureStartup(settings.startupRuns, {
        JWT_SECRET,
        APP_ORIGIN: BENCH_APP_ORIGIN,
      });
    if (wanted(MEMORY_ID)) {
      process.stdout.write(
        `memory: ${settings.memoryMinutes} min of mixed load, then ${settings.memoryIdleSeconds} s idle…\n`,
      );
      memory = await measureMemory(
        settings.memoryMinutes,
        settings.memoryIdleSeconds,
        commonEnv(fixtures),
        (line) => process.stdout.write(`${line}\n`),
      );
    }
    if (wanted(IMPORT_ID)) {
      process.stdout.write('\nimport: 5,000 BibTeX entries…\n');
      const { benchImport, importTable } = await import('./import.js');
      const results = await attempt('import', () =>
        benchImport({ databaseUrl: settings.databaseUrl, stores: settings.stores }),
      );
      if (results) {
        importResults = results;
        process.stdout.write(`${importTable(results)}\n`);
      }
    }
    if (wanted(LIBRARY_ID)) {
      library = await measureLibrarySearch(
        {
          stores: settings.stores,
          databaseUrl: settings.databaseUrl,
          redisUrl: settings.redisUrl,
          serviceEnv: commonEnv(fixtures),
        },
        (line) => process.stdout.write(`${line}\n`),
      );
    }
    if (!settings.skipCompute) compute = await runCompute();
  } finally {
    await fixtures.close();
    rmSync(workDir, { recursive: true, force: true });
  }

  const table = markdown(info, compute);
  process.stdout.write(`\n${table}\n`);
  writeFileSync(
    join(ROOT, 'bench', 'results.json'),
    `${JSON.stringify(
      {
        machine: info,
        settings: {
          ...settings,
          only: settings.only ? [...settings.only] : null,
          databaseUrl: undefined,
          redisUrl: undefined,
        },
        http,
        search: searches,
        journey: journeys,
        journeyScaling,
        rss,
        startup,
        memory,
        import: importResults,
        library,
        compute,
        notes,
        elapsedSeconds: Math.round((Date.now() - startedAt) / 1000),
      },
      null,
      2,
    )}\n`,
  );
  if (settings.updateDocs) updateDocs(table);
  process.stdout.write(`\nThe benchmark took ${Math.round((Date.now() - startedAt) / 1000)} s.\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
