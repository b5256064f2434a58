/**
 * The JavaScript a first visit to the sign-in page and to the search page downloads before it can
 * draw: the entry chunk, the page's chunk and everything they import statically, from Vite's build
 * manifest, gzipped with node:zlib. Budget: 150 KB each; the analytics page, whose charts are plain
 * SVG (no chart library), gets a smaller one on top of the entry.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt } from '../support/web-browser.js';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const BUDGET_BYTES = 150 * 1024;
const ANALYTICS_BUDGET_BYTES = 20 * 1024;

/** The chunk keys loaded with `keys`: themselves and, transitively, their static imports. */
export function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

describe('initial JavaScript of the first pages (gzip)', () => {
  let dir: string;
  let manifest: Manifest;
  let entry: string;
  const gzipped = (key: string) =>
    gzipSync(readFileSync(join(dir, manifest[key]!.file)), { level: 9 }).length;
  const initial = (page: string) =>
    [...staticClosure(manifest, [entry, page])].filter((key) =>
      manifest[key]!.file.endsWith('.js'),
    );

  beforeAll(async () => {
    dir = await ensureWebBuilt();
    manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
    const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
    expect(entries).toHaveLength(1);
    entry = entries[0]![0];
  }, 240_000);

  it.each([
    ['sign-in', 'src/pages/auth/SignInPage.tsx'],
    ['search', 'src/pages/dashboard/DashboardPage.tsx'],
  ])('%s page: at most 150 KB', (name, page) => {
    const chunks = initial(page);
    const total = chunks.reduce((sum, key) => sum + gzipped(key), 0);
    console.log(
      `initial JS of the ${name} page: ${(total / 1024).toFixed(1)} KB gzipped in ${chunks.length} files`,
    );
    expect(total).toBeGreaterThan(10 * 1024); // React alone: a manifest read wrongly would pass the budget
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('ships a Brotli and a gzip copy of every initial chunk, each the same file once decompressed', () => {
    for (const key of initial('src/pages/dashboard/DashboardPage.tsx')) {
      const path = join(dir, manifest[key]!.file);
      const original = readFileSync(path);
      if (original.length < 1024) continue;
      expect(brotliDecompressSync(readFileSync(`${path}.br`)).equals(original)).toBe(true);
      expect(gunzipSync(readFileSync(`${path}.gz`)).equals(original)).toBe(true);
    }
  });

  it(`analytics page with its charts: at most ${ANALYTICS_BUDGET_BYTES / 1024} KB beyond the entry`, () => {
    const page = 'src/pages/analytics/AnalyticsPage.tsx';
    const beyondEntry = [...staticClosure(manifest, [page])].filter(
      (key) => !staticClosure(manifest, [entry]).has(key) && manifest[key]!.file.endsWith('.js'),
    );
    const total = beyondEntry.reduce((sum, key) => sum + gzipped(key), 0);
    console.log(
      `analytics page beyond the entry: ${(total / 1024).toFixed(1)} KB gzipped in ${beyondEntry.length} files`,
    );
    // A chart library (recharts was 116 KB gzipped) would not fit; the page's own code would.
    expect(total).toBeGreaterThan(1024);
    expect(total).toBeLessThanOrEqual(ANALYTICS_BUDGET_BYTES);
    // Nothing is left to load later for the charts.
    expect(manifest[page]?.dynamicImports ?? []).toEqual([]);
  });
});
