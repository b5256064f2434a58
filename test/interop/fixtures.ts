/**
 * Other projects' test data (test/fixtures/interop, SOURCES.md says where each file comes from), read
 * as the interop measurement uses it:
 * - CSL items: the CSL test suite's `processor-tests/humans` inputs (each distinct item once; items
 *   without a type are not CSL items and are left out), and the CSL items Zotero's own expectations
 *   turn into (zotero-csl.ts);
 * - RIS and BibTeX files with the Zotero items expected from them: Zotero's RIS and BibTeX
 *   translator test cases, Better BibTeX's import fixtures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { zoteroToCsl, type CslItem, type ZoteroItem } from './zotero-csl.js';

const FIXTURES = new URL('../fixtures/interop/', import.meta.url);

const readJson = <T>(path: string): T =>
  JSON.parse(readFileSync(new URL(path, FIXTURES), 'utf8')) as T;

/** A CSL item and where it comes from (`<set>:<file>#<n>`). */
export interface CslCase {
  source: string;
  item: CslItem;
  /**
   * A record as a user has one: a title, a creator and a date. Most of the CSL test suite's items
   * test one processor feature each ("Book A", no date): they are measured as CSL-JSON but not cited.
   */
  realShaped: boolean;
}

const realShaped = (item: CslItem): boolean =>
  Boolean(item.title && (item.author || item.editor) && item.issued);

/** A citation file and the Zotero items expected from it, in file order. */
export interface FileCase {
  /**
   * `zotero-ris-every-tag`: RIS.js's two cases that give every RIS tag of every type with its name as
   * its value (`TI  - Title`), kept apart from the realistic records of `zotero-ris`.
   */
  set: 'zotero-ris' | 'zotero-ris-every-tag' | 'zotero-bibtex' | 'better-bibtex';
  source: string;
  format: 'ris' | 'bibtex';
  input: string;
  expected: ZoteroItem[];
}

export interface InteropFixtures {
  cslItems: CslCase[];
  files: FileCase[];
}

/** How many of each set to take (the test takes a few; the script all). */
export interface FixtureSubset {
  humans?: number;
  zoteroRis?: number;
  zoteroBibtex?: number;
  betterBibtex?: number;
}

/** Zotero items that are not references (standalone notes and attachments). */
const isReference = (item: ZoteroItem) =>
  item.itemType !== 'note' && item.itemType !== 'attachment';

function humansItems(limit: number): CslCase[] {
  const tests = readJson<Record<string, { items: CslItem[] }>>('csl-test-suite/humans-input.json');
  const seen = new Set<string>();
  const cases: CslCase[] = [];
  for (const [file, { items }] of Object.entries(tests)) {
    items.forEach((item, n) => {
      const { id: _id, ...content } = item;
      const key = JSON.stringify(content);
      if (!item.type || seen.has(key) || cases.length >= limit) return;
      seen.add(key);
      cases.push({
        source: `csl-humans:${file}#${n}`,
        item: { ...item, id: `humans-${cases.length}` },
        realShaped: realShaped(item),
      });
    });
  }
  return cases;
}

/** RIS.js's every-tag cases list dozens of items (one per type); its realistic cases one or two. */
const EVERY_TAG_ITEMS = 10;

function zoteroTranslatorCases(translator: 'RIS' | 'BibTeX', limit: number): FileCase[] {
  const cases = readJson<Array<{ type: string; input: string; items: ZoteroItem[] }>>(
    `zotero-translators/${translator}.testCases.json`,
  );
  return cases
    .filter((c) => c.type === 'import' && c.items.some(isReference))
    .slice(0, limit)
    .map((c, n) => ({
      set:
        translator === 'BibTeX'
          ? 'zotero-bibtex'
          : c.items.length > EVERY_TAG_ITEMS
            ? 'zotero-ris-every-tag'
            : 'zotero-ris',
      source: `zotero-translators:${translator}.js#${n}`,
      format: translator === 'RIS' ? 'ris' : 'bibtex',
      input: c.input,
      expected: c.items.filter(isReference),
    }));
}

function betterBibtexCases(limit: number): FileCase[] {
  const folder = new URL('better-bibtex/', FIXTURES);
  return readdirSync(folder)
    .filter((file) => file.endsWith('.bib'))
    .sort()
    .map((file): FileCase => {
      const expected = readJson<{ items: ZoteroItem[] }>(
        `better-bibtex/${file.replace(/\.bib$/, '.json')}`,
      );
      return {
        set: 'better-bibtex',
        source: `better-bibtex:${file}`,
        format: 'bibtex',
        input: readFileSync(new URL(file, folder), 'utf8'),
        expected: expected.items.filter(isReference),
      };
    })
    .filter((c) => c.expected.length > 0)
    .slice(0, limit);
}

export function loadInteropFixtures(subset: FixtureSubset = {}): InteropFixtures {
  const all = Number.POSITIVE_INFINITY;
  const files = [
    ...zoteroTranslatorCases('RIS', subset.zoteroRis ?? all),
    ...zoteroTranslatorCases('BibTeX', subset.zoteroBibtex ?? all),
    ...betterBibtexCases(subset.betterBibtex ?? all),
  ];
  const fromZotero = files
    .filter((file) => file.set !== 'zotero-ris-every-tag')
    .flatMap((file) =>
      file.expected.map((item, n) => ({ source: `${file.source}/item ${n}`, item })),
    )
    .map(({ source, item }, n) => {
      const csl = zoteroToCsl(item, `zotero-${n}`);
      return { source, item: csl, realShaped: realShaped(csl) };
    });
  return { cslItems: [...humansItems(subset.humans ?? all), ...fromZotero], files };
}
