/**
 * Importing a 5,000-entry BibTeX file into an empty workspace (target ≤ 10 s on each store), beside
 * two baselines run in the same process on the same database: reading the file alone (the BibTeX
 * parser and the mapping to resources, no database), and the same 5,000 rows inserted bare, in the
 * same batches of 500, without the lock, the duplicate checks or the report. The import is the
 * command the route runs (workspaces/import/commands.ts); HTTP adds the upload of a 3 MB body.
 *
 * The file: 5,000 entries made from the shapes real exports have (Better BibTeX, JabRef, Mendeley):
 * 3 to 8 authors with accents and particles, a 1,000-character abstract, keywords, a DOI on most,
 * arXiv ids in `eprint` or `note` on some, `@string` journals, month macros, and 5 % repeated entries.
 *
 * Run alone: `tsx bench/import.ts` (PGlite), with BENCH_DATABASE_URL for PostgreSQL too.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openDatabase, type Database } from '../src/platform/db/client.js';
import { users, workspaceResources, workspaces } from '../src/platform/db/schema.js';
import { importCitations, readImportFile } from '../src/workspaces/import/commands.js';
import { resourceOf } from '../src/workspaces/import/to-resource.js';

const ENTRIES = 5_000;
const BATCH = 500;
const TARGET_SECONDS = 10;

const TEX_FAMILIES = [
  'M{\\"u}ller',
  'van der Berg',
  'de la Fontaine',
  "Garc{\\'i}a",
  '{\\O}stergaard',
  'Smith',
  'Nakamura',
  "Dvo{\\v{r}}{\\'a}k",
  "O'Neil",
  '{\\L}ukasiewicz',
];
const GIVEN = [
  'Anna',
  'Jan',
  'Jean',
  'Lucía',
  'Søren',
  'John',
  'Haruki',
  'Antonín',
  'Siobhan',
  'Jan',
];
const WORDS =
  'learning protein structure graph neural model inference causal network sparse attention genome climate ocean carbon retrieval language'.split(
    ' ',
  );
const ABSTRACT = (
  'We study how {transformer} language models use long contexts. ' +
  'Retrieval accuracy falls when the relevant passage sits in the middle ' +
  'of the input, and rises again near either end. '
)
  .repeat(5)
  .trim();

/** A BibTeX file of `count` entries as real exports write them. */
export function bibtexFile(count: number): string {
  const parts = [
    '@string{jml = "Journal of Machine Learning Research"}',
    '@string{nat = "Nature"}',
    '@preamble{"\\newcommand{\\noopsort}[1]{}"}',
    '',
  ];
  for (let i = 0; i < count; i++) {
    // 5 % of the entries repeat an earlier one (same DOI): duplicates within the file.
    const n = i > 20 && i % 20 === 0 ? i - 17 : i;
    const authors = Array.from(
      { length: 3 + (n % 6) },
      (_, a) => `${TEX_FAMILIES[(n + a) % 10]}, ${GIVEN[(n * 7 + a) % 10]}`,
    ).join(' and ');
    const title =
      `{${WORDS[n % WORDS.length]!.toUpperCase()}} ${WORDS[(n * 3) % WORDS.length]} ` +
      `for ${WORDS[(n * 5) % WORDS.length]} ${WORDS[(n * 7) % WORDS.length]}: study ${n}`;
    const fields = [
      `  author = {${authors}}`,
      `  title = {${title}}`,
      `  journal = ${n % 2 === 0 ? 'jml' : 'nat'}`,
      `  year = {${1990 + (n % 35)}}`,
      `  month = ${['jan', 'mar', 'jun', 'sep', 'dec'][n % 5]}`,
      `  volume = {${n % 60}}`,
      `  pages = {${n}--${n + 12}}`,
      `  abstract = {${ABSTRACT}}`,
      `  keywords = {${WORDS[n % WORDS.length]}, ${WORDS[(n + 4) % WORDS.length]}; ${WORDS[(n + 9) % WORDS.length]}}`,
      n % 10 === 3
        ? `  eprint = {${2100 + (n % 20)}.${String(10000 + n).slice(-5)}}, archivePrefix = {arXiv}`
        : n % 10 === 7
          ? `  note = {arXiv:${1900 + (n % 20)}.${String(20000 + n).slice(-5)}}`
          : `  doi = {10.1000/bench.${n}}`,
      n % 4 === 0 ? '  annote = {Read for the {lab} meeting -- see section 3.}' : '',
    ].filter(Boolean);
    parts.push(`@article{key${i},\n${fields.join(',\n')}\n}\n`);
  }
  return parts.join('\n');
}

interface StoreResult {
  store: 'pglite' | 'postgres';
  entries: number;
  imported: number;
  duplicates: number;
  /** Reading the file alone: parse and map, no database. */
  parseSeconds: number;
  /** The same rows inserted bare, in batches of 500. */
  bareInsertSeconds: number;
  /** The import: read, judge, write under the lock in batches, report. */
  importSeconds: number;
  target: number;
  met: boolean;
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const round = (value: number) => Math.round(value * 100) / 100;

async function workspaceIn(database: Database): Promise<string> {
  const [user] = await database.db
    .insert(users)
    .values({ email: `bench-${randomUUID()}@example.org`, name: 'Bench' })
    .returning({ id: users.id });
  const [workspace] = await database.db
    .insert(workspaces)
    .values({ ownerId: user!.id, name: 'Import bench' })
    .returning({ id: workspaces.id });
  return workspace!.id;
}

async function measure(
  store: StoreResult['store'],
  database: Database,
  text: string,
): Promise<StoreResult> {
  // Warm: the parsers load on the first import (a few hundred ms), which a running service pays once.
  await readImportFile(bibtexFile(5), 'bibtex');

  let start = process.hrtime.bigint();
  const file = await readImportFile(text, 'bibtex');
  const rows = file.entries
    .flatMap((entry) =>
      entry.ok ? [resourceOf('00000000-0000-4000-8000-000000000000', entry.item)] : [],
    )
    .flatMap((made) => ('values' in made ? [made.values] : []));
  const parseSeconds = seconds(start);

  const bareWorkspace = await workspaceIn(database);
  start = process.hrtime.bigint();
  for (let at = 0; at < rows.length; at += BATCH) {
    const batch = rows
      .slice(at, at + BATCH)
      .map((row) => ({ ...row, workspaceId: bareWorkspace, workKey: null }));
    await database.db.transaction(async (tx) => {
      await tx.insert(workspaceResources).values(batch);
    });
  }
  const bareInsertSeconds = seconds(start);

  const workspaceId = await workspaceIn(database);
  start = process.hrtime.bigint();
  const report = await importCitations(
    database.db,
    workspaceId,
    null,
    await readImportFile(text, 'bibtex'),
    { dryRun: false },
  );
  const importSeconds = seconds(start);
  return {
    store,
    entries: report.counts.entries,
    imported: report.counts.imported,
    duplicates: report.counts.duplicates,
    parseSeconds: round(parseSeconds),
    bareInsertSeconds: round(bareInsertSeconds),
    importSeconds: round(importSeconds),
    target: TARGET_SECONDS,
    met: importSeconds <= TARGET_SECONDS,
  };
}

export async function benchImport(
  options: { databaseUrl?: string; stores?: Set<string> } = {},
): Promise<StoreResult[]> {
  const stores = options.stores ?? new Set(['pglite', 'postgres']);
  const text = bibtexFile(ENTRIES);
  const results: StoreResult[] = [];
  if (stores.has('pglite')) {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    try {
      results.push(await measure('pglite', database, text));
    } finally {
      await database.close();
    }
  }
  if (stores.has('postgres') && options.databaseUrl) {
    const name = `rw_bench_import_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(options.databaseUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString() });
    try {
      results.push(await measure('postgres', database, text));
    } finally {
      await database.close();
      await admin(`DROP DATABASE IF EXISTS ${name}`);
    }
  }
  return results;
}

/** The lines the benchmark prints and docs/performance.md holds. */
export function importTable(results: StoreResult[]): string {
  const lines = [
    `| store | entries (imported + duplicates) | read alone | ${BATCH}-row batches inserted bare | import | target | met |`,
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.store} | ${r.entries.toLocaleString('en-US')} ` +
        `(${r.imported.toLocaleString('en-US')} + ${r.duplicates}) ` +
        `| ${r.parseSeconds} s | ${r.bareInsertSeconds} s | ${r.importSeconds} s ` +
        `| ≤ ${r.target} s | ${r.met ? 'yes' : 'no'} |`,
    ),
  ];
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchImport({ databaseUrl: process.env.BENCH_DATABASE_URL })
    .then((results) => {
      process.stdout.write(`${importTable(results)}\n`);
      process.exit(0);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}
