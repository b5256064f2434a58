/**
 * Interop figures: how faithfully records survive import → store → export and cite, measured with
 * other projects' test data (test/fixtures/interop/SOURCES.md) through the HTTP API of the app,
 * started here in-process on the embedded database in a temporary data directory.
 *
 *   npm run interop                  prints the figures, writes test-artifacts/interop.json
 *   npm run interop -- --causes 30   prints the 30 largest causes of differences (default 15)
 *   npm run interop -- --cite-all    cites every CSL item, not only the real-shaped ones (slow)
 *
 * docs/testing.md ("Interop figures") says what each figure means; test/interop/measure.ts measures.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { loadInteropFixtures } from '../test/interop/fixtures.js';
import { measureInterop, type InteropFigures, type Share } from '../test/interop/measure.js';

const ROOT = new URL('..', import.meta.url);

const causesArg = process.argv.indexOf('--causes');
const causesShown = causesArg > 0 ? Number(process.argv[causesArg + 1]) : 15;

const line = (label: string, s: Share) =>
  `  ${label.padEnd(58)} ${`${s.right} / ${s.total}`.padStart(13)}  ${s.percent.toFixed(1).padStart(5)}%`;

function print(figures: InteropFigures, seconds: number): void {
  const { cite, cslRoundTrip, zotero, reimport } = figures;
  const out = [
    `Interop figures (${seconds.toFixed(0)} s)`,
    '(a) CSL items: references equal to citeproc-js on the original item',
    line(`all six styles (${figures.styles.join(', ')})`, cite.references),
    ...Object.entries(cite.perStyle).map(([style, s]) => line(`  ${style}`, s)),
    line('items right in all six', cite.itemsRightInAllStyles),
    line('check: citeproc on our CSL-JSON export gives …/cite', cite.citeEqualsOwnExport),
    '(b) CSL-JSON in → out',
    line('items unchanged (every CSL variable)', cslRoundTrip.itemsUnchanged),
    line('variables unchanged', cslRoundTrip.variablesKept),
    `  of the changed items, changed only as documented (docs/testing.md): ${cslRoundTrip.itemsChangedAsDocumented}`,
    "(c) RIS and BibTeX against Zotero's expected items",
    ...Object.entries(zotero).flatMap(([set, t]) => [
      line(`${set}: expected fields right`, t.fields),
      line(`${set}: items fully right`, t.itemsFullyRight),
    ]),
    '(d) exports imported again: author lists changed',
    ...Object.entries(reimport).map(
      ([format, r]) =>
        `  ${format.padEnd(8)} ${r.authorListsChanged} of ${r.items} changed ` +
        `(${r.authorListsChangedAsDocumented} as documented), ${r.notReimported} not imported again`,
    ),
    'Entries not imported: ' +
      (Object.entries(figures.notImported)
        .map(([outcome, n]) => `${n} ${outcome}`)
        .join('; ') || 'none'),
    `Largest causes of differences (${causesShown} of ${figures.causes.length}):`,
    ...figures.causes
      .slice(0, causesShown)
      .map((c) => `  ${String(c.count).padStart(5)}  ${c.cause}\n         e.g. ${c.example}`),
  ];
  console.log(out.join('\n'));
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rw-interop-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    APP_ORIGIN: 'http://app.test',
    PUBLIC_URL: 'http://api.test',
    ALERTS_ENABLED: 'false',
    // Thousands of requests from one user in a few minutes: past the hourly bound a real user has.
    RATE_LIMIT_AUTHENTICATED_PER_HOUR: '1000000',
    // One request at a time: one worker warms the styles' engines once, not once per worker.
    WORKER_THREADS: '1',
  });
  const app = await buildApp(config, { logger: false });
  const started = performance.now();
  try {
    await app.ready();
    const figures = await measureInterop(app, loadInteropFixtures(), {
      citeAll: process.argv.includes('--cite-all'),
      progress: (text) => process.stderr.write(`\r${text.slice(0, 100).padEnd(100)}`),
    });
    process.stderr.write('\n');
    print(figures, (performance.now() - started) / 1000);
    const artifacts = new URL('test-artifacts/', ROOT);
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(new URL('interop.json', artifacts), `${JSON.stringify(figures, null, 2)}\n`);
    console.log('Written: test-artifacts/interop.json');
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
