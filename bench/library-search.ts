/**
 * Library search (BENCH_ONLY=library): one user's library of BENCH_LIBRARY_RESOURCES resources (10,000)
 * in 20 workspaces, BENCH_LIBRARY_PDFS of them (2,000) with a PDF of BENCH_LIBRARY_PAGES pages (50) of
 * extracted text, and a second user's 1,000 resources that must never be searched. The text is real:
 * titles, abstracts and sentences of the papers in /work/shared/eval/summarization (SciSummNet,
 * SciTLDR, SumPubMed), pages made of those sentences drawn at random (about 2,000 characters each).
 *
 * Per store (PGlite; PostgreSQL with BENCH_DATABASE_URL, a scratch database dropped at the end), in one
 * process: the service (buildApp, requests through `app.inject`, so its whole request chain, validation
 * and presenters) and, as the baseline, the same SQL run bare (`searchLibrary` on the same database
 * handle). A mix of queries a person types, 8 of each kind (a word, a prefix, a phrase, two words, a
 * rare word, `or`, `-word`, a workspace filter, by date, and a name typed without its accents): first
 * one at a time, BENCH_LIBRARY_SAMPLES of each side interleaved so both share the machine's noise;
 * then the service alone at BENCH_LIBRARY_CLIENTS (10) concurrent clients. p50 and p95 overall and
 * per kind. EXPLAIN of a query checks the GIN indexes are used.
 *
 * BENCH_LIBRARY_DATABASE_URL (PostgreSQL): a database of your own that is kept, seeded at the first
 * run and reused by the next ones (for working on the SQL: each run then takes seconds, not minutes).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { parseLibraryQuery } from '../src/library/query.js';
import { librarySearchStatement, searchLibrary, type LibrarySearch } from '../src/library/store.js';
import type { Db } from '../src/platform/db/client.js';
import {
  resourcePdfPages,
  resourcePdfs,
  users,
  workspaceResources,
  workspaces,
} from '../src/platform/db/schema.js';
import { readableWorkspaces } from '../src/workspaces/index.js';
import { createScratchDatabase } from '../test/support/app.js';

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
  | 'no accents';

export interface KindResult {
  kind: QueryKind;
  /** Sequential: the route, and the same SQL bare. */
  service: Percentiles;
  bare: Percentiles;
  /** The route at `clients` concurrent clients. */
  concurrent: Percentiles;
}

export interface LibraryStoreResult {
  store: 'pglite' | 'postgres';
  resources: number;
  pdfs: number;
  pages: number;
  seedSeconds: number;
  samples: number;
  service: Percentiles;
  bare: Percentiles;
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

function readCorpus(): Corpus {
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

interface MixEntry {
  kind: QueryKind;
  /** The text as typed (the route reads it; the bare SQL gets it parsed). */
  q: string;
  search: Omit<LibrarySearch, 'readable'>;
}

/**
 * What a person types, 8 of each kind: words of real titles, alone, in pairs, quoted, half-typed,
 * with `or` and `-`, words found in few titles, and names typed without their accents.
 */
function queryMix(corpus: Corpus, workspaceIds: string[]): MixEntry[] {
  const rand = random(7);
  const titleWords = corpus.titles.map((title) => title.toLowerCase().split(/[^a-z]+/));
  const words = titleWords.flat().filter((word) => word.length >= 5);
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  // In two or three titles of the corpus (the library draws its titles from it).
  const rare = [...counts].filter(([word, n]) => n >= 2 && n <= 3 && word.length >= 7);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)]!;
  const base = { sort: 'relevance' as const, limit: 20, offset: 0 };
  const entry = (kind: QueryKind, q: string, more: Partial<LibrarySearch> = {}): MixEntry => ({
    kind,
    q,
    search: { ...base, query: parseLibraryQuery(q), ...more },
  });
  const mix: MixEntry[] = [];
  const unaccented = ['muller', 'cwiklinski', 'lefevre', 'Muller', 'CWIKLINSKI', 'lefevre'];
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

async function measureStore(
  store: 'pglite' | 'postgres',
  corpus: Corpus,
  log: (line: string) => void,
  databaseUrl?: string,
  keptDatabaseUrl?: string,
): Promise<LibraryStoreResult> {
  const sizes = {
    resources: setting('BENCH_LIBRARY_RESOURCES', 10_000),
    pdfs: setting('BENCH_LIBRARY_PDFS', 2_000),
    pages: setting('BENCH_LIBRARY_PAGES', 50),
  };
  const samples = setting('BENCH_LIBRARY_SAMPLES', 400);
  const clients = setting('BENCH_LIBRARY_CLIENTS', 10);
  const dataDir = mkdtempSync(join(tmpdir(), 'rw-bench-library-'));
  const scratch = databaseUrl && !keptDatabaseUrl ? await createScratchDatabase(databaseUrl) : null;
  const url = keptDatabaseUrl ?? scratch?.url;
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_AUTHENTICATED_PER_HOUR: '1000000000',
      ...(url ? { DATABASE_URL: url } : {}),
    }),
    { logger: false },
  );
  try {
    /** Signs the user in, after signing them up when `create`. */
    const account = async (email: string, create: boolean) => {
      if (create) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          payload: { email, password: BENCH_PASSWORD, name: 'Bench Reader' },
        });
        if (res.statusCode !== 201) throw new Error(`signup failed: ${res.body}`);
      }
      const signIn = await app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email, password: BENCH_PASSWORD },
      });
      if (signIn.statusCode !== 200) throw new Error(`signin failed: ${signIn.body}`);
      const body = signIn.json<{ user: { id: string }; session: { access_token: string } }>();
      return { id: body.user.id, authorization: `Bearer ${body.session.access_token}` };
    };
    const db = app.ctx.db;
    // A kept database seeded by an earlier run has the reader already.
    const readers =
      keptDatabaseUrl === undefined
        ? []
        : await db.select({ id: users.id }).from(users).where(eq(users.email, READER_EMAIL));
    const seeded = readers.length > 0;
    const owner = await account(READER_EMAIL, !seeded);
    let seedSeconds = 0;
    if (!seeded) {
      const stranger = await account('stranger@bench.example', true);
      const seedStart = performance.now();
      log(
        `library (${store}): seeding ${sizes.resources} resources, ${sizes.pdfs} PDFs × ${sizes.pages} pages…`,
      );
      await seedLibrary(db, owner.id, stranger.id, corpus, sizes);
      seedSeconds = Math.round((performance.now() - seedStart) / 1000);
      log(`library (${store}): seeded in ${seedSeconds} s`);
    }
    const workspaceIds = (
      await db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(eq(workspaces.ownerId, owner.id))
        .orderBy(workspaces.name)
    ).map((row) => row.id);
    const mix = queryMix(corpus, workspaceIds);
    const readable = readableWorkspaces({ id: owner.id });
    const urlOf = ({ q, search }: MixEntry) => {
      const params = new URLSearchParams({ q, sort: search.sort, limit: String(search.limit) });
      if (search.workspaceId) params.set('workspaceId', search.workspaceId);
      return `/api/library/search?${params.toString()}`;
    };
    const viaService = async (entry: MixEntry) => {
      const res = await app.inject({
        method: 'GET',
        url: urlOf(entry),
        headers: { authorization: owner.authorization },
      });
      if (res.statusCode !== 200)
        throw new Error(`library search failed: ${res.statusCode} ${res.body}`);
    };
    const bare = async ({ search }: MixEntry) =>
      void (await searchLibrary(db, { ...search, readable }));
    // Warm-up: every query once each way.
    for (const entry of mix) {
      await viaService(entry);
      await bare(entry);
    }
    const timed = async (
      timings: Timings,
      entry: MixEntry,
      run: (entry: MixEntry) => Promise<void>,
    ) => {
      const start = performance.now();
      await run(entry);
      timings.add(entry.kind, performance.now() - start);
    };
    const service = new Timings();
    const bareTimes = new Timings();
    for (let i = 0; i < samples; i++) {
      const entry = mix[i % mix.length]!;
      if (i % 2 === 0) {
        await timed(service, entry, viaService);
        await timed(bareTimes, entry, bare);
      } else {
        await timed(bareTimes, entry, bare);
        await timed(service, entry, viaService);
      }
    }
    // Concurrent clients, each through the whole mix from its own starting point.
    const concurrent = new Timings();
    const perClient = Math.max(mix.length, Math.ceil(samples / clients));
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let i = 0; i < perClient; i++) {
          await timed(concurrent, mix[(client * 7 + i) % mix.length]!, viaService);
        }
      }),
    );
    if (process.env.BENCH_LIBRARY_EXPLAIN) {
      // The slowest query of the mix, with its plan and timings (for working on the SQL).
      const byTime: Array<[number, MixEntry]> = [];
      for (const entry of mix) {
        const start = performance.now();
        await bare(entry);
        byTime.push([performance.now() - start, entry]);
      }
      const [slowest] = byTime.sort((a, b) => b[0] - a[0]);
      const analysed: unknown = await db.execute(
        sql`explain (analyze, buffers) ${librarySearchStatement({ ...slowest![1].search, readable })}`,
      );
      log(`slowest: ${Math.round(slowest![0])} ms ${slowest![1].kind} ${slowest![1].q}`);
      log(
        (analysed as { rows: Array<Record<string, string>> }).rows
          .map((row) => Object.values(row).join(' '))
          .join('\n'),
      );
    }
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
    const [pages] = (
      await db.select({ count: sql<number>`count(*)::int` }).from(resourcePdfPages)
    ).map((row) => row.count);
    const [pdfs] = (await db.select({ count: sql<number>`count(*)::int` }).from(resourcePdfs)).map(
      (row) => row.count,
    );
    const [resources] = (
      await db.select({ count: sql<number>`count(*)::int` }).from(workspaceResources)
    ).map((row) => row.count);
    const kinds = [...new Set(mix.map((entry) => entry.kind))].map((kind): KindResult => ({
      kind,
      service: service.of(kind),
      bare: bareTimes.of(kind),
      concurrent: concurrent.of(kind),
    }));
    const result: LibraryStoreResult = {
      store,
      resources: resources ?? 0,
      pdfs: pdfs ?? 0,
      pages: pages ?? 0,
      seedSeconds,
      samples,
      service: percentiles(service.all),
      bare: percentiles(bareTimes.all),
      clients,
      concurrent: percentiles(concurrent.all),
      kinds,
      indexesUsed,
      target: 50,
      concurrentTarget: 150,
      met: false,
    };
    result.met =
      kinds.every((k) => k.service.p95 <= result.target) &&
      kinds.every((k) => k.concurrent.p95 <= result.concurrentTarget);
    log(
      `library (${store}): service p50 ${result.service.p50} ms ` +
        `p95 ${result.service.p95} ms; bare SQL p50 ${result.bare.p50} ms ` +
        `p95 ${result.bare.p95} ms; ${clients} clients p50 ${result.concurrent.p50} ms ` +
        `p95 ${result.concurrent.p95} ms; GIN indexes in the plan: ${indexesUsed.join(', ') || 'none'}`,
    );
    log(libraryKindTable(result));
    return result;
  } finally {
    await app.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** p50 / p95 of each query kind, one at a time (the route and bare SQL) and at N clients (the route). */
export function libraryKindTable(result: LibraryStoreResult): string {
  const cell = (p: Percentiles) => `${p.p50} / ${p.p95}`;
  return [
    `| ${result.store === 'pglite' ? 'PGlite' : 'PostgreSQL'}: query kind | ` +
      `route p50 / p95 (ms) | bare SQL p50 / p95 | ${result.clients} clients p50 / p95 |`,
    '|---|--:|--:|--:|',
    ...result.kinds.map(
      (k) => `| ${k.kind} | ${cell(k.service)} | ${cell(k.bare)} | ${cell(k.concurrent)} |`,
    ),
    `| all | ${cell(result.service)} | ${cell(result.bare)} | ${cell(result.concurrent)} |`,
  ].join('\n');
}

export async function measureLibrarySearch(
  options: { stores: Set<string>; databaseUrl?: string; keptDatabaseUrl?: string },
  log: (line: string) => void,
): Promise<LibraryStoreResult[]> {
  const corpus = readCorpus();
  const results: LibraryStoreResult[] = [];
  if (options.stores.has('pglite')) results.push(await measureStore('pglite', corpus, log));
  if (options.stores.has('postgres') && (options.databaseUrl || options.keptDatabaseUrl))
    results.push(
      await measureStore('postgres', corpus, log, options.databaseUrl, options.keptDatabaseUrl),
    );
  return results;
}

/** Run alone: `tsx bench/library-search.ts` (BENCH_STORES, BENCH_DATABASE_URL as for npm run bench). */
if (import.meta.url === `file://${process.argv[1]}`) {
  const stores = new Set((process.env.BENCH_STORES ?? 'pglite,postgres').split(','));
  measureLibrarySearch(
    {
      stores,
      databaseUrl: process.env.BENCH_DATABASE_URL,
      keptDatabaseUrl: process.env.BENCH_LIBRARY_DATABASE_URL,
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
