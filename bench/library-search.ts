/**
 * Library search (BENCH_ONLY=library): one user's library of BENCH_LIBRARY_RESOURCES resources (10,000)
 * in 20 workspaces, BENCH_LIBRARY_PDFS of them (2,000) with a PDF of BENCH_LIBRARY_PAGES pages (50) of
 * extracted text, and a second user's 1,000 resources that must never be searched. The text is real:
 * titles, abstracts and sentences of the papers in /work/shared/eval/summarization (SciSummNet,
 * SciTLDR, SumPubMed), pages made of those sentences drawn at random (about 2,000 characters each).
 *
 * Per store (PGlite; PostgreSQL with BENCH_DATABASE_URL, a scratch database dropped at the end): the
 * store is migrated and seeded in this process (sign-up through the app, then rows by direct SQL), and
 * every query of the mix is EXPLAIN (ANALYZE, BUFFERS)ed once while nothing else of the bench runs.
 * Then the built service (`node dist/main.js`, as `npm start`; `npm run bench` builds it) is started
 * on that store and measured from outside, over HTTP: a mix of queries a person types, 8 of each kind
 * (a word, a prefix, a phrase, two words, a rare word, `or`, `-word`, a workspace filter, by date, a
 * name typed without its accents and one typed with them). One at a time, BENCH_LIBRARY_SAMPLES
 * searches, each beside a GET /api/health (the baseline: what the machine's load does to any request)
 * and, on PostgreSQL, the same SQL run bare from this process, in turn so that all three share the
 * machine's noise; then the searches at BENCH_LIBRARY_CLIENTS (10) concurrent clients, and health at
 * as many. p50 and p95 overall and per kind. (PGlite has one owner: its bare SQL is timed in this
 * process before the service opens it.)
 *
 * BENCH_LIBRARY_DATABASE_URL (PostgreSQL): a database of your own that is kept, seeded at the first
 * run and reused by the next ones (for working on the SQL: each run then takes a minute, not ten);
 * BENCH_LIBRARY_EXPLAIN=1 prints the plan of each kind's slowest query.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql, type SQL } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { parseLibraryQuery } from '../src/library/query.js';
import { librarySearchStatement, searchLibrary, type LibrarySearch } from '../src/library/store.js';
import { openDatabase, type Database, type Db } from '../src/platform/db/client.js';
import {
  resourcePdfPages,
  resourcePdfs,
  users,
  workspaceResources,
  workspaces,
} from '../src/platform/db/schema.js';
import { readableWorkspaces } from '../src/workspaces/index.js';
import { upgradeCitationKeys } from '../src/workspaces/citation-keys/upgrade.js';
import { upgradeRecords } from '../src/workspaces/resources/record-upgrade.js';
import { createScratchDatabase } from '../test/support/app.js';
import { startService, type Server } from './processes.js';

const EVAL_DIR = '/work/shared/eval/summarization';
const CORPORA = ['scisummnet.jsonl', 'scitldr-a.jsonl', 'sumpubmed.jsonl'];
const WORKSPACES = 20;
const STRANGER_RESOURCES = 1_000;
const PAGE_CHARS = 2_000;

function setting(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

interface Percentiles {
  p50: number;
  p95: number;
}

/** What kind of query a person types (bench mix, reported one by one). */
export type QueryKind =
  | 'word'
  | 'prefix'
  | 'phrase'
  | 'two words'
  | 'rare word'
  | 'or'
  | '-word'
  | 'one workspace'
  | 'by date'
  | 'no accents'
  | 'accents';

export interface KindResult {
  kind: QueryKind;
  /** One at a time: the route over HTTP, and the same SQL bare. */
  service: Percentiles;
  bare: Percentiles;
  /** EXPLAIN (ANALYZE, BUFFERS) of each query of the kind once: planning and execution (p95 is the max of 8). */
  explainMs: Percentiles;
  /** The route over HTTP at `clients` concurrent clients. */
  concurrent: Percentiles;
}

export interface LibraryStoreResult {
  store: 'pglite' | 'postgres';
  resources: number;
  pdfs: number;
  pages: number;
  seedSeconds: number;
  samples: number;
  /** The baseline, measured in the same run: GET /api/health over HTTP, one at a time and at `clients`. */
  health: Percentiles;
  concurrentHealth: Percentiles;
  service: Percentiles;
  bare: Percentiles;
  explainMs: Percentiles;
  clients: number;
  concurrent: Percentiles;
  kinds: KindResult[];
  /** The GIN indexes EXPLAIN shows the query using. */
  indexesUsed: string[];
  /** p95 targets on PostgreSQL: sequential, and at `clients` concurrent clients. */
  target: number;
  concurrentTarget: number;
  met: boolean;
}

/** A seeded pseudo-random generator (mulberry32): the same library every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Corpus {
  titles: string[];
  abstracts: string[];
  sentences: string[];
}

export function readCorpus(): Corpus {
  const corpus: Corpus = { titles: [], abstracts: [], sentences: [] };
  for (const file of CORPORA) {
    for (const line of readFileSync(join(EVAL_DIR, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const paper = JSON.parse(line) as { title?: string; abstract?: string; body?: string };
      if (paper.title && paper.title.length > 10)
        corpus.titles.push(paper.title.replace(/\s+/g, ' ').trim());
      if (paper.abstract)
        corpus.abstracts.push(paper.abstract.replace(/\s+/g, ' ').trim().slice(0, 3_000));
      for (const sentence of (paper.body ?? '').replace(/\s+/g, ' ').split(/(?<=[.!?])\s+/)) {
        if (sentence.length >= 40 && sentence.length <= 400) corpus.sentences.push(sentence);
      }
    }
  }
  // Bodies without titles (SumPubMed's) still give titles: a sentence's first words.
  for (let i = 0; corpus.titles.length < 2_000 && i < corpus.sentences.length; i += 37) {
    corpus.titles.push(corpus.sentences[i]!.split(' ').slice(0, 9).join(' '));
  }
  return corpus;
}

const SURNAMES = [
  'Smith',
  'Chen',
  'Garcia',
  'Müller',
  'Ćwiklinski',
  'Kumar',
  'Okafor',
  'Rossi',
  'Tanaka',
  'Novak',
  'Silva',
  'Haddad',
  'Larsen',
  'Kowalski',
  'Dubois',
  'Lefèvre',
  'Ivanova',
  'Nakamura',
];
const TYPES = ['article', 'preprint', 'review', 'book', 'dataset'];
const TAGS = [
  'nlp',
  'parsing',
  'genomics',
  'oncology',
  'methods',
  'to-read',
  'thesis',
  'survey',
  'cardiology',
  'retrieval',
];

async function seedLibrary(
  db: Db,
  ownerId: string,
  strangerId: string,
  corpus: Corpus,
  sizes: { resources: number; pdfs: number; pages: number },
): Promise<void> {
  const rand = random(42);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)]!;
  const ws = await db
    .insert(workspaces)
    .values(Array.from({ length: WORKSPACES }, (_, i) => ({ ownerId, name: `Library ${i + 1}` })))
    .returning({ id: workspaces.id });
  const [theirs] = await db
    .insert(workspaces)
    .values({ ownerId: strangerId, name: 'Not yours' })
    .returning({ id: workspaces.id });
  const resourceRow = (workspaceId: string, i: number) => ({
    workspaceId,
    title: pick(corpus.titles).slice(0, 300),
    authors: Array.from(
      { length: 1 + Math.floor(rand() * 4) },
      () => `${String.fromCharCode(65 + Math.floor(rand() * 26))}. ${pick(SURNAMES)}`,
    ),
    tags: rand() < 0.6 ? [pick(TAGS)] : [],
    type: pick(TYPES),
    notes: rand() < 0.3 ? pick(corpus.sentences) : '',
    data: {
      abstract: pick(corpus.abstracts),
      publishedDate: `${1990 + Math.floor(rand() * 36)}-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)}`,
    },
    workKey: `bench:${workspaceId}:${i}`,
  });
  const ids: string[] = [];
  for (let start = 0; start < sizes.resources; start += 500) {
    const rows = Array.from({ length: Math.min(500, sizes.resources - start) }, (_, k) =>
      resourceRow(ws[(start + k) % WORKSPACES]!.id, start + k),
    );
    ids.push(
      ...(
        await db.insert(workspaceResources).values(rows).returning({ id: workspaceResources.id })
      ).map((row) => row.id),
    );
  }
  for (let start = 0; start < STRANGER_RESOURCES; start += 500) {
    await db
      .insert(workspaceResources)
      .values(Array.from({ length: 500 }, (_, k) => resourceRow(theirs!.id, start + k)));
  }
  // Every fifth resource has a PDF, so PDFs spread over all the workspaces.
  const withPdf = ids
    .filter((_, i) => i % Math.max(1, Math.floor(ids.length / sizes.pdfs)) === 0)
    .slice(0, sizes.pdfs);
  for (let start = 0; start < withPdf.length; start += 500) {
    await db.insert(resourcePdfs).values(
      withPdf.slice(start, start + 500).map((resourceId) => ({
        resourceId,
        blobKey: `bench/${resourceId}`,
        filename: 'paper.pdf',
        byteSize: 1,
        sha256: '0'.repeat(64),
        extraction: 'ready',
        pageCount: sizes.pages,
      })),
    );
  }
  const page = () => {
    let text = '';
    while (text.length < PAGE_CHARS) text += `${pick(corpus.sentences)} `;
    return text;
  };
  // As a bulk load would: the GIN index is built once after the rows, not grown row by row.
  await db.execute(sql`drop index resource_pdf_documents_search_idx`);
  let batch: Array<{ resourceId: string; page: number; text: string }> = [];
  for (const resourceId of withPdf) {
    for (let n = 1; n <= sizes.pages; n++) {
      batch.push({ resourceId, page: n, text: page() });
      if (batch.length === 250) {
        await db.insert(resourcePdfPages).values(batch);
        batch = [];
      }
    }
  }
  if (batch.length) await db.insert(resourcePdfPages).values(batch);
  await db.execute(
    sql`create index resource_pdf_documents_search_idx on resource_pdf_documents using gin (search)`,
  );
  // As after a bulk load, or once autovacuum has passed: statistics, and the GIN indexes' pending
  // entries merged (a search reads those one by one).
  await db.execute(sql`vacuum analyze`);
}

export interface MixEntry {
  kind: QueryKind;
  /** The text as typed (the route reads it; the bare SQL gets it parsed). */
  q: string;
  search: Omit<LibrarySearch, 'readable'>;
}

/**
 * What a person types, 8 of each kind: words of real titles, alone, in pairs, quoted, half-typed,
 * with `or` and `-`, words found in few texts, and names typed without their accents and with them.
 */
export function queryMix(corpus: Corpus, workspaceIds: string[]): MixEntry[] {
  const rand = random(7);
  const titleWords = corpus.titles.map((title) => title.toLowerCase().split(/[^a-z]+/));
  const words = titleWords.flat().filter((word) => word.length >= 5);
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  // Rare in the whole corpus (titles, abstracts and the sentences pages are made of): in a title, and
  // in at most three texts of any kind, so in a few resources and a few dozen pages of the library.
  const everywhere = new Map<string, number>();
  for (const text of [...corpus.titles, ...corpus.abstracts, ...corpus.sentences]) {
    for (const word of new Set(text.toLowerCase().split(/[^a-z]+/)))
      everywhere.set(word, (everywhere.get(word) ?? 0) + 1);
  }
  const rare = [...counts].filter(([word]) => word.length >= 7 && (everywhere.get(word) ?? 0) <= 3);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)]!;
  const base = { sort: 'relevance' as const, limit: 20, offset: 0 };
  const entry = (kind: QueryKind, q: string, more: Partial<LibrarySearch> = {}): MixEntry => ({
    kind,
    q,
    search: { ...base, query: parseLibraryQuery(q), ...more },
  });
  const mix: MixEntry[] = [];
  const unaccented = ['muller', 'cwiklinski', 'lefevre', 'Muller', 'CWIKLINSKI', 'lefevre'];
  const accented = ['Müller', 'Ćwiklinski', 'Lefèvre', 'müller', 'LEFÈVRE', 'ćwiklinski'];
  for (let i = 0; i < 8; i++) {
    const title = pick(titleWords).filter((word) => word.length >= 4);
    const [a, b] = [pick(words), pick(words)];
    // The issue's own example first, then consecutive words of a real title.
    const phrase = i === 0 ? 'gene expression' : title.length >= 2 ? `${title[0]} ${title[1]}` : a;
    mix.push(
      // As the search box sends it: the last word with no space after it is matched as a prefix.
      entry('word', a),
      entry('prefix', a.slice(0, 4)),
      entry('phrase', `"${phrase}"`),
      entry('two words', `${a} ${b} `),
      entry('rare word', `${pick(rare)[0]} `),
      entry('or', `${a} or ${b}`),
      entry('-word', `${a} -${b}`),
      entry('one workspace', a, { workspaceId: pick(workspaceIds) }),
      entry('by date', b, { sort: 'date' }),
      entry('no accents', unaccented[i % unaccented.length]!),
      entry('accents', accented[i % accented.length]!),
    );
  }
  return mix;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)]! * 10) / 10;
}

function percentiles(times: number[]): Percentiles {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** Times by query kind, and all of them together. */
class Timings {
  readonly all: number[] = [];
  readonly byKind = new Map<QueryKind, number[]>();
  add(kind: QueryKind, ms: number): void {
    this.all.push(ms);
    const list = this.byKind.get(kind) ?? [];
    list.push(ms);
    this.byKind.set(kind, list);
  }
  of(kind: QueryKind): Percentiles {
    return percentiles(this.byKind.get(kind) ?? []);
  }
}

const BENCH_PASSWORD = 'tidal-quasar-42';
const READER_EMAIL = 'reader@bench.example';

/** Options of one store's measurement. */
export interface LibraryBenchOptions {
  /** PostgreSQL: a scratch database is made from this one's server, seeded, measured and dropped. */
  databaseUrl?: string;
  /** PostgreSQL: a database of your own, seeded at the first run and kept for the next ones. */
  keptDatabaseUrl?: string;
  redisUrl?: string;
  /** Environment of the measured service besides the store's (npm run bench's common settings). */
  serviceEnv?: Record<string, string>;
}

/** Milliseconds an EXPLAIN (ANALYZE, BUFFERS) reports: planning and execution. */
interface Explained {
  ms: number;
  sharedHit: number;
  sharedRead: number;
}

async function explainAnalyze(db: Db, statement: SQL): Promise<Explained> {
  const result: unknown = await db.execute(
    sql`explain (analyze, buffers, format json) ${statement}`,
  );
  const row = (result as { rows: Array<Record<string, unknown>> }).rows[0]!;
  const raw = Object.values(row)[0];
  const [plan] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
    'Planning Time': number;
    'Execution Time': number;
    Plan: { 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number };
  }>;
  return {
    ms: plan!['Planning Time'] + plan!['Execution Time'],
    sharedHit: plan!.Plan['Shared Hit Blocks'] ?? 0,
    sharedRead: plan!.Plan['Shared Read Blocks'] ?? 0,
  };
}

/** A GET of the measured service, its body read to the end; throws unless 200. */
async function get(origin: string, path: string, authorization?: string): Promise<void> {
  const res = await fetch(`${origin}${path}`, {
    headers: authorization ? { authorization } : {},
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 300)}`);
}

/** The slowest query of each kind by EXPLAIN, with its plan (for working on the SQL). */
async function logSlowestPlans(
  db: Db,
  mix: MixEntry[],
  readable: SQL,
  explained: Map<MixEntry, Explained>,
  log: (line: string) => void,
): Promise<void> {
  for (const kind of new Set(mix.map((entry) => entry.kind))) {
    const [slowest] = mix
      .filter((entry) => entry.kind === kind)
      .sort((a, b) => explained.get(b)!.ms - explained.get(a)!.ms);
    const analysed: unknown = await db.execute(
      sql`explain (analyze, buffers) ${librarySearchStatement({ ...slowest!.search, readable })}`,
    );
    log(`slowest ${kind}: ${Math.round(explained.get(slowest!)!.ms)} ms ${slowest!.q}`);
    log(
      (analysed as { rows: Array<Record<string, string>> }).rows
        .map((row) => Object.values(row).join(' '))
        .join('\n'),
    );
  }
}

interface StoreFacts {
  counts: { resources: number; pdfs: number; pages: number };
  /** The GIN indexes EXPLAIN shows the first query using. */
  indexesUsed: string[];
}

async function storeFacts(db: Db, mix: MixEntry[], readable: SQL): Promise<StoreFacts> {
  const plan: unknown = await db.execute(
    sql`explain ${librarySearchStatement({ ...mix[0]!.search, readable })}`,
  );
  const planText = (plan as { rows: Array<Record<string, string>> }).rows
    .map((row) => Object.values(row).join(' '))
    .join('\n');
  const indexesUsed = [
    'workspace_resources_search_idx',
    'annotations_search_idx',
    'resource_pdf_documents_search_idx',
  ].filter((index) => planText.includes(index));
  const count = async (
    table: typeof resourcePdfPages | typeof resourcePdfs | typeof workspaceResources,
  ) => (await db.select({ count: sql<number>`count(*)::int` }).from(table))[0]?.count ?? 0;
  return {
    counts: {
      resources: await count(workspaceResources),
      pdfs: await count(resourcePdfs),
      pages: await count(resourcePdfPages),
    },
    indexesUsed,
  };
}

async function measureStore(
  store: 'pglite' | 'postgres',
  corpus: Corpus,
  log: (line: string) => void,
  options: LibraryBenchOptions = {},
): Promise<LibraryStoreResult> {
  const sizes = {
    resources: setting('BENCH_LIBRARY_RESOURCES', 10_000),
    pdfs: setting('BENCH_LIBRARY_PDFS', 2_000),
    pages: setting('BENCH_LIBRARY_PAGES', 50),
  };
  const samples = setting('BENCH_LIBRARY_SAMPLES', 440);
  const clients = setting('BENCH_LIBRARY_CLIENTS', 10);
  const dataDir = mkdtempSync(join(tmpdir(), 'rw-bench-library-'));
  const { keptDatabaseUrl } = options;
  const scratch =
    store === 'postgres' && options.databaseUrl && !keptDatabaseUrl
      ? await createScratchDatabase(options.databaseUrl)
      : null;
  const url = store === 'postgres' ? (keptDatabaseUrl ?? scratch?.url) : undefined;
  const jwtSecret = randomBytes(32).toString('hex');
  const storeEnv: Record<string, string> = {
    DATA_DIR: dataDir,
    ...(url ? { DATABASE_URL: url } : {}),
    ...(url && options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
  };
  let service: Server | null = null;
  let bareDb: Database | null = null;
  try {
    // ---- seeding, in this process (the service's own migrations, sign-up; then direct SQL) ----
    const seeding = await buildApp(
      loadConfig({
        ...storeEnv,
        JWT_SECRET: jwtSecret,
        LOG_LEVEL: 'warn',
        ALERTS_ENABLED: 'false',
      }),
      { logger: false },
    );
    let seedSeconds = 0;
    let ownerId: string;
    let workspaceIds: string[];
    const explained = new Map<MixEntry, Explained>();
    const bareTimes = new Timings();
    let mix: MixEntry[];
    let readable: SQL;
    let facts: StoreFacts;
    try {
      const account = async (email: string) => {
        const res = await seeding.inject({
          method: 'POST',
          url: '/api/auth/signup',
          payload: { email, password: BENCH_PASSWORD, name: 'Bench Reader' },
        });
        if (res.statusCode !== 201) throw new Error(`signup failed: ${res.body}`);
        return res.json<{ user: { id: string } }>().user.id;
      };
      const db = seeding.ctx.db;
      // A kept database seeded by an earlier run has the reader already.
      const [reader] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, READER_EMAIL));
      ownerId = reader?.id ?? (await account(READER_EMAIL));
      if (!reader) {
        const strangerId = await account('stranger@bench.example');
        const seedStart = performance.now();
        log(
          `library (${store}): seeding ${sizes.resources} resources, ${sizes.pdfs} PDFs × ${sizes.pages} pages…`,
        );
        await seedLibrary(db, ownerId, strangerId, corpus, sizes);
        seedSeconds = Math.round((performance.now() - seedStart) / 1000);
        log(`library (${store}): seeded in ${seedSeconds} s`);
      }
      // What the service does at start-up to rows saved without a structured record (the year the
      // sort by date reads comes from it) or a citation key: done here, then vacuumed, so that no
      // upgrade runs while it is measured and no row it rewrote is read as a dead version.
      const upgraded = (await upgradeRecords(db)) + (await upgradeCitationKeys(db));
      if (upgraded > 0) await db.execute(sql`vacuum analyze workspace_resources`);
      workspaceIds = (
        await db
          .select({ id: workspaces.id })
          .from(workspaces)
          .where(eq(workspaces.ownerId, ownerId))
          .orderBy(workspaces.name)
      ).map((row) => row.id);
      mix = queryMix(corpus, workspaceIds);
      readable = readableWorkspaces({ id: ownerId });
      // EXPLAIN (ANALYZE, BUFFERS) of every query of the mix, while nothing else of the bench runs.
      for (const entry of mix) {
        await searchLibrary(db, { ...entry.search, readable });
        explained.set(
          entry,
          await explainAnalyze(db, librarySearchStatement({ ...entry.search, readable })),
        );
      }
      if (process.env.BENCH_LIBRARY_EXPLAIN)
        await logSlowestPlans(db, mix, readable, explained, log);
      facts = await storeFacts(db, mix, readable);
      if (store === 'pglite') {
        // One process owns the embedded database: its bare SQL is timed here, before the service takes it.
        for (let i = 0; i < samples; i++) {
          const entry = mix[i % mix.length]!;
          const start = performance.now();
          await searchLibrary(db, { ...entry.search, readable });
          bareTimes.add(entry.kind, performance.now() - start);
        }
      }
    } finally {
      await seeding.close();
    }

    // ---- the built service, measured from outside over HTTP ----
    service = await startService(
      `service (library, ${store})`,
      {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        APP_ORIGIN: 'http://app.bench.test',
        ALERTS_ENABLED: 'false',
        RATE_LIMIT_AUTHENTICATED_PER_HOUR: '1000000000',
        RATE_LIMIT_SIGNIN_PER_15MIN_PER_IP: '1000',
        RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL: '1000',
        ...options.serviceEnv,
        ...storeEnv,
        JWT_SECRET: jwtSecret,
      },
      join(dataDir, 'service.log'),
    );
    const origin = service.origin;
    const signIn = await fetch(`${origin}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: READER_EMAIL, password: BENCH_PASSWORD }),
    });
    if (signIn.status !== 200) throw new Error(`signin failed: ${await signIn.text()}`);
    const authorization = `Bearer ${((await signIn.json()) as { session: { access_token: string } }).session.access_token}`;
    if (url) bareDb = await openDatabase({ databaseUrl: url, poolSize: 1 });
    const pathOf = ({ q, search }: MixEntry) => {
      const params = new URLSearchParams({ q, sort: search.sort, limit: String(search.limit) });
      if (search.workspaceId) params.set('workspaceId', search.workspaceId);
      return `/api/library/search?${params.toString()}`;
    };
    const viaService = (entry: MixEntry) => get(origin, pathOf(entry), authorization);
    const health = () => get(origin, '/api/health');
    const bare = async ({ search }: MixEntry) =>
      void (await searchLibrary(bareDb!.db, { ...search, readable }));
    // Warm-up: every query once each way.
    for (const entry of mix) {
      await viaService(entry);
      if (bareDb) await bare(entry);
      await health();
    }
    const timed = async (record: (ms: number) => void, run: () => Promise<void>) => {
      const start = performance.now();
      await run();
      record(performance.now() - start);
    };
    // One at a time: each sample is the search, the health baseline and (PostgreSQL) the bare SQL, in
    // turn, so that all three share the machine's noise.
    const sequential = new Timings();
    const healthTimes: number[] = [];
    for (let i = 0; i < samples; i++) {
      const entry = mix[i % mix.length]!;
      const steps = [
        () =>
          timed(
            (ms) => sequential.add(entry.kind, ms),
            () => viaService(entry),
          ),
        () => timed((ms) => healthTimes.push(ms), health),
        ...(bareDb
          ? [
              () =>
                timed(
                  (ms) => bareTimes.add(entry.kind, ms),
                  () => bare(entry),
                ),
            ]
          : []),
      ];
      for (let s = 0; s < steps.length; s++) await steps[(s + i) % steps.length]!();
    }
    // Concurrent clients, each through the whole mix from its own starting point; then the health
    // baseline at as many clients.
    const concurrent = new Timings();
    const perClient = Math.max(mix.length, Math.ceil(samples / clients));
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let i = 0; i < perClient; i++) {
          const entry = mix[(client * 7 + i) % mix.length]!;
          await timed(
            (ms) => concurrent.add(entry.kind, ms),
            () => viaService(entry),
          );
        }
      }),
    );
    const concurrentHealth: number[] = [];
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = 0; i < perClient; i++) await timed((ms) => concurrentHealth.push(ms), health);
      }),
    );
    const kinds = [...new Set(mix.map((entry) => entry.kind))].map((kind): KindResult => {
      const ofKind = mix.filter((entry) => entry.kind === kind).map((e) => explained.get(e)!.ms);
      return {
        kind,
        service: sequential.of(kind),
        bare: bareTimes.of(kind),
        concurrent: concurrent.of(kind),
        explainMs: percentiles(ofKind),
      };
    });
    const result: LibraryStoreResult = {
      store,
      ...facts.counts,
      seedSeconds,
      samples,
      health: percentiles(healthTimes),
      service: percentiles(sequential.all),
      bare: percentiles(bareTimes.all),
      clients,
      concurrentHealth: percentiles(concurrentHealth),
      concurrent: percentiles(concurrent.all),
      explainMs: percentiles([...explained.values()].map((e) => e.ms)),
      kinds,
      indexesUsed: facts.indexesUsed,
      target: 50,
      concurrentTarget: 150,
      met: false,
    };
    result.met =
      kinds.every((k) => k.service.p95 <= result.target) &&
      kinds.every((k) => k.concurrent.p95 <= result.concurrentTarget);
    log(
      `library (${store}): over HTTP p50 ${result.service.p50} ms p95 ${result.service.p95} ms ` +
        `(GET /api/health p95 ${result.health.p95} ms); bare SQL p95 ${result.bare.p95} ms; ` +
        `${clients} clients p50 ${result.concurrent.p50} ms p95 ${result.concurrent.p95} ms ` +
        `(health p95 ${result.concurrentHealth.p95} ms); GIN indexes in the plan: ${facts.indexesUsed.join(', ') || 'none'}`,
    );
    log(libraryKindTable(result));
    return result;
  } finally {
    await service?.stop();
    await bareDb?.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * p50 / p95 of each query kind: over HTTP one at a time, the same SQL bare, its EXPLAIN ANALYZE time,
 * and over HTTP at N clients; the last rows are GET /api/health measured in the same run (the baseline).
 */
export function libraryKindTable(result: LibraryStoreResult): string {
  const cell = (p: Percentiles) => `${p.p50} / ${p.p95}`;
  return [
    `| ${result.store === 'pglite' ? 'PGlite' : 'PostgreSQL'}: query kind | ` +
      `HTTP p50 / p95 (ms) | bare SQL p50 / p95 | EXPLAIN ANALYZE p50 / max | ` +
      `${result.clients} clients p50 / p95 |`,
    '|---|--:|--:|--:|--:|',
    ...result.kinds.map(
      (k) =>
        `| ${k.kind} | ${cell(k.service)} | ${cell(k.bare)} | ${cell(k.explainMs)} | ${cell(k.concurrent)} |`,
    ),
    `| all | ${cell(result.service)} | ${cell(result.bare)} | ${cell(result.explainMs)} | ${cell(result.concurrent)} |`,
    `| baseline: GET /api/health | ${cell(result.health)} | – | – | ${cell(result.concurrentHealth)} |`,
  ].join('\n');
}

export async function measureLibrarySearch(
  options: { stores: Set<string> } & LibraryBenchOptions,
  log: (line: string) => void,
): Promise<LibraryStoreResult[]> {
  const corpus = readCorpus();
  const results: LibraryStoreResult[] = [];
  if (options.stores.has('pglite'))
    results.push(await measureStore('pglite', corpus, log, options));
  if (options.stores.has('postgres') && (options.databaseUrl || options.keptDatabaseUrl))
    results.push(await measureStore('postgres', corpus, log, options));
  return results;
}

/**
 * Run alone: `npm run build:service && tsx bench/library-search.ts` (BENCH_STORES, BENCH_DATABASE_URL,
 * BENCH_REDIS_URL as for npm run bench; BENCH_LIBRARY_DATABASE_URL for a kept database).
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const stores = new Set((process.env.BENCH_STORES ?? 'pglite,postgres').split(','));
  measureLibrarySearch(
    {
      stores,
      databaseUrl: process.env.BENCH_DATABASE_URL,
      keptDatabaseUrl: process.env.BENCH_LIBRARY_DATABASE_URL,
      redisUrl: process.env.BENCH_REDIS_URL,
    },
    (line) => process.stdout.write(`${line}\n`),
  )
    .then((results) => process.stdout.write(`${JSON.stringify(results, null, 2)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    });
}
