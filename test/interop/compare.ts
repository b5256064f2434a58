/**
 * How two CSL items are compared, variable by variable, "normalised": strings in Unicode NFC with
 * white space collapsed; numbers and numeric strings alike; dates by their date-parts (else their
 * literal or raw text); names as family (with its particles), given (with its dropping particle) and
 * suffix, whichever way the parts were given (`Michael, III` as given is given "Michael", suffix "III";
 * a literal is its own text). Page ranges compare with any dash; ISBN and ISSN without hyphens and
 * spaces; DOIs in any case.
 */
import { CREATOR_ROLES } from '../../src/records/index.js';
import type { CslDate, CslItem, CslName } from './zotero-csl.js';

/** Variables that say which record it is, not what it holds. */
const IDENTITY_VARIABLES = new Set(['id', 'citation-key']);

/** CSL's name variables (CSL 1.0.2 and the ones citeproc-js reads besides). */
const NAME_VARIABLES: ReadonlySet<string> = new Set(CREATOR_ROLES);
const DATE_VARIABLES = new Set([
  'accessed',
  'available-date',
  'event-date',
  'issued',
  'original-date',
  'submitted',
]);

export function normaliseText(value: unknown): string {
  return String(value).normalize('NFC').replace(/\s+/g, ' ').trim();
}

const SUFFIX = /^(jr\.?|sr\.?|[ivx]+|[ivx]+\.)$/i;

/** One name as "family|given|suffix" (particles joined to the part they belong to), or its literal. */
export function normaliseName(name: CslName): string {
  if (name.literal !== undefined && !name.family) return `=${normaliseText(name.literal)}`;
  let given = [name.given, name['dropping-particle']].filter(Boolean).join(' ');
  let suffix = name.suffix ?? '';
  const comma = /^(.*?),\s*([^,]+)$/.exec(given);
  if (!suffix && comma && SUFFIX.test(comma[2]!.trim())) {
    given = comma[1]!;
    suffix = comma[2]!;
  }
  const family = [name['non-dropping-particle'], name.family].filter(Boolean).join(' ');
  return [family, given, suffix].map(normaliseText).join('|');
}

export function normaliseNames(names: unknown): string {
  return Array.isArray(names) ? (names as CslName[]).map(normaliseName).join('; ') : '';
}

/**
 * One date's parts as citeproc-js reads them: an empty or zero part is none; a month of 13 to 24 is a
 * season (13–16, 17–20 and 21–24 each spring to winter), which has no day; another month out of
 * range is none, with its day.
 */
function normaliseParts(parts: unknown[], seasonKey?: number): string {
  const [year, month, day] = parts.map((part) =>
    /^\s*-?\d+\s*$/.test(String(part)) ? Number(part) : 0,
  );
  let text = String(year);
  let season = seasonKey;
  if (month! >= 1 && month! <= 12) text += `-${month}${day! >= 1 ? `-${day}` : ''}`;
  else if (month! >= 13 && month! <= 24) season = ((month! - 13) % 4) + 1;
  return season ? `${text} season ${season}` : text;
}

/** A date by its parts (a range's both ends, `season` as a month of 21–24 is), else its literal or raw text. */
function normaliseDate(date: unknown): string {
  const value = date as (CslDate & { season?: unknown }) | string | undefined;
  if (typeof value === 'string') return normaliseText(value);
  const seasonKey = Number(value?.season);
  const season = seasonKey >= 1 && seasonKey <= 4 ? seasonKey : undefined;
  const [start, end] = (value?.['date-parts'] ?? []).filter((parts) => parts?.length);
  if (start) {
    const [from, to] = [normaliseParts(start, season), end ? normaliseParts(end) : undefined];
    return to && to !== from ? `${from}/${to}` : from;
  }
  return normaliseText(value?.literal ?? value?.raw ?? '');
}

/** The normalised form of a variable's value, for comparing. */
export function normaliseValue(variable: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (NAME_VARIABLES.has(variable)) return normaliseNames(value);
  if (DATE_VARIABLES.has(variable)) return normaliseDate(value);
  const text = normaliseText(value);
  if (variable === 'page') return text.replace(/\s*[-‐‑–—]+\s*/g, '-');
  if (variable === 'ISBN' || variable === 'ISSN') return text.replace(/[\s-]/g, '').toUpperCase();
  if (variable === 'DOI') return text.toLowerCase();
  return text;
}

export interface VariableDifference {
  variable: string;
  kind: 'lost' | 'changed' | 'added';
  expected: string;
  actual: string;
}

/**
 * Every variable that differs between what went in and what came out: lost (in, not out), changed,
 * or added (out, not in); identity variables (id, citation-key) aside.
 */
export function differences(input: CslItem, output: CslItem | undefined): VariableDifference[] {
  const found: VariableDifference[] = [];
  const variables = new Set([...Object.keys(input), ...Object.keys(output ?? {})]);
  for (const variable of variables) {
    if (IDENTITY_VARIABLES.has(variable)) continue;
    const expected = normaliseValue(variable, input[variable]);
    const actual = normaliseValue(variable, output?.[variable]);
    if (expected === actual) continue;
    const kind = !actual ? 'lost' : !expected ? 'added' : 'changed';
    found.push({ variable, kind, expected, actual });
  }
  return found;
}
