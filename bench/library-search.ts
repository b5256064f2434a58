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
 * handle). A mix of queries a person types (one word, two, a phrase, a prefix being typed, `or`,
 * `-word`, a workspace filter, by date), BENCH_LIBRARY_SAMPLES of each side, interleaved so both
 * share the machine's noise; p50 and p95 of each. EXPLAIN of a query checks the GIN indexes are used.
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

export interface LibraryStoreResult {
  store: 'pglite' | 'postgres';
  resources: number;
  pdfs: number;
  pages: number;
  seedSeconds: number;
  samples: number;
  service: { p50: number; p95: number };
  bare: { p50: number; p95: number };
  /** The GIN indexes EXPLAIN shows the query using. */
  indexesUsed: string[];
  target: number;
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
  // As a bulk load would: the GIN indexes are built once after the rows, not grown row by row.
  await db.execute(sql`drop index resource_pdf_documents_search_idx`);
  await db.execute(sql`drop index resource_pdf_pages_search_idx`);
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
  await db.execute(
    sql`create index resource_pdf_pages_search_idx on resource_pdf_pages using gin (search)`,
  );
  await db.execute(sql`analyze`);
}

/** What a person types: words of real titles, alone, in pairs, quoted, half-typed, with `or` and `-`. */
function queryMix(corpus: Corpus, workspaceIds: string[]): Array<Omit<LibrarySearch, 'readable'>> {
  const rand = random(7);
  const words = corpus.titles
    .flatMap((title) => title.toLowerCase().split(/[^a-z]+/))
    .filter((word) => word.length >= 5);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)]!;
  const base = { sort: 'relevance' as const, limit: 20, offset: 0 };
  const mix: Array<Omit<LibrarySearch, 'readable'>> = [];
  for (let i = 0; i < 8; i++) {
    const title = pick(corpus.titles)
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((word) => word.length >= 4);
    const [a, b] = [pick(words), pick(words)];
    mix.push(
      { ...base, query: parseLibraryQuery(a) },
      { ...base, query: parseLibraryQuery(`${a} ${b} `) },
      { ...base, query: parseLibraryQuery(title.length >= 2 ? `"${title[0]} ${title[1]}"` : a) },
      { ...base, query: parseLibraryQuery(`${b} ${a.slice(0, 4)}`) },
      { ...base, query: parseLibraryQuery(`${a} or ${b}`) },
      { ...base, query: parseLibraryQuery(`${a} -${b}`) },
      { ...base, query: parseLibraryQuery(a), workspaceId: pick(workspaceIds) },
      { ...base, query: parseLibraryQuery(b), sort: 'date' },
    );
  }
  return mix;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)]! * 10) / 10;
}

async function measureStore(
  store: 'pglite' | 'postgres',
  corpus: Corpus,
  log: (line: string) => void,
  databaseUrl?: string,
): Promise<LibraryStoreResult> {
  const sizes = {
    resources: setting('BENCH_LIBRARY_RESOURCES', 10_000),
    pdfs: setting('BENCH_LIBRARY_PDFS', 2_000),
    pages: setting('BENCH_LIBRARY_PAGES', 50),
  };
  const samples = setting('BENCH_LIBRARY_SAMPLES', 200);
  const dataDir = mkdtempSync(join(tmpdir(), 'rw-bench-library-'));
  const scratch = databaseUrl ? await createScratchDatabase(databaseUrl) : null;
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_AUTHENTICATED_PER_HOUR: '1000000000',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    }),
    { logger: false },
  );
  try {
    const signUp = async (email: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { email, password: 'tidal-quasar-42', name: 'Bench Reader' },
      });
      if (res.statusCode !== 201) throw new Error(`signup failed: ${res.body}`);
      const signIn = await app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email, password: 'tidal-quasar-42' },
      });
      const body = signIn.json<{ user: { id: string }; session: { access_token: string } }>();
      return { id: body.user.id, authorization: `Bearer ${body.session.access_token}` };
    };
    const owner = await signUp('reader@bench.example');
    const stranger = await signUp('stranger@bench.example');
    const db = app.ctx.db;
    const seedStart = performance.now();
    log(
      `library (${store}): seeding ${sizes.resources} resources, ${sizes.pdfs} PDFs × ${sizes.pages} pages…`,
    );
    await seedLibrary(db, owner.id, stranger.id, corpus, sizes);
    const seedSeconds = Math.round((performance.now() - seedStart) / 1000);
    log(`library (${store}): seeded in ${seedSeconds} s`);
    const workspaceIds = (
      await db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(eq(workspaces.ownerId, owner.id))
    ).map((row) => row.id);
    const mix = queryMix(corpus, workspaceIds);
    const readable = readableWorkspaces({ id: owner.id });
    const urlOf = (search: Omit<LibrarySearch, 'readable'>) => {
      const params = new URLSearchParams({
        q: search.query?.text ?? '',
        sort: search.sort,
        limit: String(search.limit),
      });
      if (search.workspaceId) params.set('workspaceId', search.workspaceId);
      return `/api/library/search?${params.toString()}`;
    };
    const viaService = async (search: Omit<LibrarySearch, 'readable'>) => {
      const res = await app.inject({
        method: 'GET',
        url: urlOf(search),
        headers: { authorization: owner.authorization },
      });
      if (res.statusCode !== 200)
        throw new Error(`library search failed: ${res.statusCode} ${res.body}`);
    };
    const bare = async (search: Omit<LibrarySearch, 'readable'>) =>
      void (await searchLibrary(db, { ...search, readable }));
    // Warm-up: every query once each way.
    for (const search of mix) {
      await viaService(search);
      await bare(search);
    }
    const times = { service: [] as number[], bare: [] as number[] };
    for (let i = 0; i < samples; i++) {
      const search = mix[i % mix.length]!;
      for (const [side, run] of i % 2 === 0
        ? ([
            ['service', viaService],
            ['bare', bare],
          ] as const)
        : ([
            ['bare', bare],
            ['service', viaService],
          ] as const)) {
        const start = performance.now();
        await run(search);
        times[side].push(performance.now() - start);
      }
    }
    if (process.env.BENCH_LIBRARY_EXPLAIN) {
      // The slowest query of the mix, with its plan and timings (for working on the SQL).
      const timed: Array<[number, Omit<LibrarySearch, 'readable'>]> = [];
      for (const search of mix) {
        const start = performance.now();
        await bare(search);
        timed.push([performance.now() - start, search]);
      }
      const [slowest] = timed.sort((a, b) => b[0] - a[0]);
      const analysed: unknown = await db.execute(
        sql`explain (analyze, buffers) ${librarySearchStatement({ ...slowest![1], readable })}`,
      );
      log(`slowest: ${Math.round(slowest![0])} ms ${JSON.stringify(slowest![1])}`);
      log(
        (analysed as { rows: Array<Record<string, string>> }).rows
          .map((row) => Object.values(row).join(' '))
          .join('\n'),
      );
    }
    const plan: unknown = await db.execute(
      sql`explain ${librarySearchStatement({ ...mix[0]!, readable })}`,
    );
    const planText = (plan as { rows: Array<Record<string, string>> }).rows
      .map((row) => Object.values(row).join(' '))
      .join('\n');
    const indexesUsed = [
      'workspace_resources_search_idx',
      'annotations_search_idx',
      'resource_pdf_documents_search_idx',
    ].filter((index) => planText.includes(index));
    const [service, bareTimes] = [
      times.service.sort((a, b) => a - b),
      times.bare.sort((a, b) => a - b),
    ];
    const [pages] = (
      await db.select({ count: sql<number>`count(*)::int` }).from(resourcePdfPages)
    ).map((row) => row.count);
    const result: LibraryStoreResult = {
      store,
      resources: sizes.resources + STRANGER_RESOURCES,
      pdfs: sizes.pdfs,
      pages: pages ?? 0,
      seedSeconds,
      samples,
      service: { p50: percentile(service, 50), p95: percentile(service, 95) },
      bare: { p50: percentile(bareTimes, 50), p95: percentile(bareTimes, 95) },
      indexesUsed,
      target: 50,
      met: percentile(service, 95) <= 50,
    };
    log(
      `library (${store}): service p50 ${result.service.p50} ms ` +
        `p95 ${result.service.p95} ms; bare SQL p50 ${result.bare.p50} ms ` +
        `p95 ${result.bare.p95} ms; GIN indexes in the ` +
        `plan: ${indexesUsed.join(', ') || 'none'}`,
    );
    return result;
  } finally {
    await app.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function measureLibrarySearch(
  options: { stores: Set<string>; databaseUrl?: string },
  log: (line: string) => void,
): Promise<LibraryStoreResult[]> {
  const corpus = readCorpus();
  const results: LibraryStoreResult[] = [];
  if (options.stores.has('pglite')) results.push(await measureStore('pglite', corpus, log));
  if (options.stores.has('postgres') && options.databaseUrl)
    results.push(await measureStore('postgres', corpus, log, options.databaseUrl));
  return results;
}

/** Run alone: `tsx bench/library-search.ts` (BENCH_STORES, BENCH_DATABASE_URL as for npm run bench). */
if (import.meta.url === `file://${process.argv[1]}`) {
  const stores = new Set((process.env.BENCH_STORES ?? 'pglite,postgres').split(','));
  measureLibrarySearch({ stores, databaseUrl: process.env.BENCH_DATABASE_URL }, (line) =>
    process.stdout.write(`${line}\n`),
  )
    .then((results) => process.stdout.write(`${JSON.stringify(results, null, 2)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    });
}
