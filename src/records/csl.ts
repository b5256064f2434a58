/**
 * Records to and from CSL-JSON items (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html):
 * every CSL 1.0.2 variable an item brings is kept, and comes back out under its CSL name.
 */
import { ownValue } from '../platform/own-key.js';
import type { BibRecord, Creator, RecordDate } from './record.js';
import {
  CREATOR_ROLES,
  CSL_ALIASES,
  DATE_VARIABLES,
  LEGACY_TYPES,
  RECORD_TYPES,
  TEXT_VARIABLES,
  type RecordType,
} from './vocabulary.js';

export interface CslName {
  family?: string;
  given?: string;
  literal?: string;
  'dropping-particle'?: string;
  'non-dropping-particle'?: string;
  suffix?: string;
}

export interface CslDate {
  'date-parts'?: unknown[][];
  season?: unknown;
  circa?: unknown;
  literal?: string;
  raw?: string;
}

/** A CSL item as read from a file: anything may be missing or of the wrong kind. */
export type CslInput = Record<string, unknown>;

/** How text read from a file is kept: the importer's cleaning (plain text, bounded), or none. */
export type Clean = (
  value: unknown,
  max: number,
  options?: { multiline?: boolean },
) => string | undefined;

/** The longest text a record keeps in one field; the abstract may be longer. */
export const RECORD_TEXT_MAX = 2_000;
export const ABSTRACT_MAX = 10_000;
export const NAME_PART_MAX = 200;
export const CREATORS_MAX = 500;

const TYPES: ReadonlySet<string> = new Set(RECORD_TYPES);

/** A record type from a CSL type (`article` is a preprint), an older name of this service, or undefined. */
export function recordTypeOf(value: unknown): RecordType | undefined {
  if (typeof value !== 'string') return undefined;
  const type = value.trim().toLowerCase();
  if (type === 'article') return 'preprint';
  if (TYPES.has(type)) return type as RecordType;
  return ownValue(LEGACY_TYPES, type);
}

/** The CSL type of a record type. */
export function cslTypeOf(type: RecordType): string {
  return type === 'preprint' ? 'article' : type;
}

const plain: Clean = (value, max) => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, max) : undefined;
};

function creatorOf(
  role: (typeof CREATOR_ROLES)[number],
  name: unknown,
  clean: Clean,
): Creator | null {
  if (!name || typeof name !== 'object') return null;
  const parts = name as Record<string, unknown>;
  const literal = clean(parts.literal, NAME_PART_MAX);
  if (literal) return { role, literal };
  const creator: Creator = { role };
  const family = clean(parts.family, NAME_PART_MAX);
  const given = clean(parts.given, NAME_PART_MAX);
  if (family) creator.family = family;
  if (given) creator.given = given;
  const dropping = clean(parts['dropping-particle'], NAME_PART_MAX);
  const nonDropping = clean(parts['non-dropping-particle'], NAME_PART_MAX);
  const suffix = clean(parts.suffix, NAME_PART_MAX);
  if (dropping) creator.droppingParticle = dropping;
  if (nonDropping) creator.nonDroppingParticle = nonDropping;
  if (suffix) creator.suffix = suffix;
  if (!family && !given) return null;
  return creator;
}

function numberOf(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}

/**
 * A CSL date's parts. A month of 13 to 24 is a season, as citeproc-js reads it (13–16 and 21–24 are
 * spring to winter, 17–20 too): a season has no day. Another month out of range is no month.
 */
function datePartsOf(
  parts: unknown,
): { year: number; month?: number; day?: number; season?: number } | undefined {
  if (!Array.isArray(parts)) return undefined;
  const [year, month, day] = parts.map(numberOf);
  if (year === undefined || year < -9999 || year > 9999 || year === 0) return undefined;
  const date: { year: number; month?: number; day?: number; season?: number } = { year };
  if (month !== undefined && month >= 1 && month <= 12) {
    date.month = month;
    if (day !== undefined && day >= 1 && day <= 31) date.day = day;
  } else if (month !== undefined && month >= 13 && month <= 24) {
    date.season = ((month - 13) % 4) + 1;
  }
  return date;
}

/** An end of a range that says the range is open (`[0]`, `[""]`: "1987–"), as citeproc-js reads it. */
function isOpenEnd(parts: unknown): boolean {
  return Array.isArray(parts) && parts.length > 0 && [0, '0', ''].includes(parts[0] as never);
}

/** A CSL date as a record's date; `raw` text is read as ISO 8601 when it is one, else kept as a literal. */
function dateFromCsl(value: unknown, clean: Clean = plain): RecordDate | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const csl = value as CslDate;
  const parts = Array.isArray(csl['date-parts']) ? csl['date-parts'] : [];
  const start = datePartsOf(parts[0]);
  const date: RecordDate = {};
  if (start) {
    Object.assign(date, start);
    // A range's end keeps its year, month and day, or its season; an end of year 0 is an open range.
    const end = datePartsOf(parts[1]);
    if (end) {
      if (
        end.year !== start.year ||
        end.month !== start.month ||
        end.day !== start.day ||
        end.season !== start.season
      )
        date.end = end;
    } else if (isOpenEnd(parts[1])) date.openEnd = true;
  }
  const season = numberOf(csl.season);
  if (season !== undefined && season >= 1 && season <= 4) date.season = season;
  if (csl.circa === true || csl.circa === 1 || csl.circa === 'true') date.circa = true;
  if (!start) {
    const raw = clean(csl.raw, 100);
    const iso = raw ? /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(raw) : null;
    if (iso) {
      const parsed = datePartsOf(iso.slice(1).filter(Boolean));
      if (parsed) Object.assign(date, parsed);
    }
    const literal = clean(csl.literal, 100) ?? (date.year ? undefined : raw);
    if (literal) date.literal = literal;
  }
  return Object.keys(date).length > 0 ? date : undefined;
}

/**
 * A record's date as CSL writes it. A range's seasons are months 21–24 of its ends (CSL's `season`
 * is the start's only), an open range ends in `[0]`; a single date's season is `season`.
 */
function dateToCsl(date: RecordDate): CslDate & { season?: number; circa?: boolean } {
  const csl: CslDate & { season?: number; circa?: boolean } = {};
  const range = date.end !== undefined || date.openEnd === true;
  let season = date.season;
  if (date.year !== undefined) {
    const partsOf = (d: { year: number; month?: number; day?: number; season?: number }) =>
      d.month
        ? d.day
          ? [d.year, d.month, d.day]
          : [d.year, d.month]
        : d.season
          ? [d.year, 20 + d.season]
          : [d.year];
    const start = { year: date.year, month: date.month, day: date.day };
    csl['date-parts'] = [partsOf(range && !date.month ? { ...start, season } : start)];
    if (range && !date.month) season = undefined;
    if (date.end) csl['date-parts'].push(partsOf(date.end));
    else if (date.openEnd) csl['date-parts'].push([0]);
  } else if (date.literal) {
    csl.literal = date.literal;
  }
  if (season) csl.season = season;
  if (date.circa) csl.circa = true;
  return csl;
}

/** The creators an item names, role by role (authors first, as CSL lists its name variables). */
function creatorsFromCsl(item: CslInput, clean: Clean = plain): Creator[] {
  const creators: Creator[] = [];
  for (const role of CREATOR_ROLES) {
    const names = ownValue(item, role);
    if (!Array.isArray(names)) continue;
    for (const name of names) {
      const creator = creatorOf(role, name, clean);
      if (creator && creators.length < CREATORS_MAX) creators.push(creator);
    }
  }
  return creators;
}

/**
 * The record of a CSL item: names, dates and every text and number variable. The item's `title`,
 * `URL`, `type`, `keyword` and `note` are the resource's own fields, read by the caller.
 */
export function recordFromCsl(item: CslInput, clean: Clean = plain): BibRecord {
  const record: BibRecord = {};
  const creators = creatorsFromCsl(item, clean);
  if (creators.length > 0) record.creators = creators;
  for (const [field, variable] of Object.entries(DATE_VARIABLES)) {
    const date = dateFromCsl(ownValue(item, variable), clean);
    if (date) record[field as keyof typeof DATE_VARIABLES] = date;
  }
  const aliases = Object.entries(CSL_ALIASES);
  for (const [field, variable] of Object.entries(TEXT_VARIABLES)) {
    const max = field === 'abstract' ? ABSTRACT_MAX : RECORD_TEXT_MAX;
    const alias = aliases.find(([, name]) => name === variable)?.[0];
    const value =
      clean(ownValue(item, variable), max) ??
      (alias ? clean(ownValue(item, alias), max) : undefined);
    if (value) record[field as keyof typeof TEXT_VARIABLES] = value;
  }
  return record;
}

/** The variables a record reads (by their CSL names), and the item's own fields a resource keeps. */
const READ_VARIABLES: ReadonlySet<string> = new Set([
  ...Object.values(TEXT_VARIABLES),
  ...Object.values(DATE_VARIABLES),
  ...CREATOR_ROLES,
  ...['id', 'type', 'title', 'URL', 'keyword', 'note'],
]);

/** The most JSON a record keeps of an item's other variables (a tool's own data can be large). */
const OTHER_VARIABLES_MAX = 8_000;

/**
 * A CSL-JSON item's variables that a record has no field for (`journalAbbreviation`, `multi`,
 * `key`…), as they came, or none when there are none or they are past OTHER_VARIABLES_MAX as JSON.
 */
export function otherVariablesOf(item: CslInput): Record<string, unknown> | undefined {
  const other = Object.fromEntries(
    Object.entries(item).filter(
      ([variable, value]) =>
        // An older name (`event`) is kept as it came unless the item gives the variable itself.
        (Object.hasOwn(CSL_ALIASES, variable)
          ? ownValue(item, CSL_ALIASES[variable]!) === undefined
          : !READ_VARIABLES.has(variable)) &&
        !['__proto__', 'constructor', 'prototype'].includes(variable) &&
        value !== undefined &&
        value !== null &&
        value !== '',
    ),
  );
  if (Object.keys(other).length === 0) return undefined;
  return JSON.stringify(other).length <= OTHER_VARIABLES_MAX ? other : undefined;
}

/**
 * A CSL item as written from a record's variables and the other variables it kept: a variable that
 * came under its older name (`event`, otherVariablesOf) is written under that name alone while the
 * record's field still holds its text, so that an item comes back as it went in.
 */
export function withOlderNames(item: Record<string, unknown>): Record<string, unknown> {
  const written = { ...item };
  for (const [older, variable] of Object.entries(CSL_ALIASES)) {
    const [was, is] = [written[older], written[variable]];
    if (typeof was === 'string' && typeof is === 'string' && plain(was, 100_000) === is)
      delete written[variable];
  }
  return written;
}

/** A creator as a CSL name. */
export function nameToCsl(creator: Creator): CslName {
  if (creator.literal) return { literal: creator.literal };
  const name: CslName = {};
  if (creator.family) name.family = creator.family;
  if (creator.given) name.given = creator.given;
  if (creator.droppingParticle) name['dropping-particle'] = creator.droppingParticle;
  if (creator.nonDroppingParticle) name['non-dropping-particle'] = creator.nonDroppingParticle;
  if (creator.suffix) name.suffix = creator.suffix;
  return name;
}

/** A record's names, dates and variables under their CSL names (no id, type, title, URL, keyword or note). */
export function recordToCsl(record: BibRecord): Record<string, unknown> {
  const csl: Record<string, unknown> = {};
  for (const creator of record.creators ?? []) {
    const names = (csl[creator.role] as CslName[] | undefined) ?? [];
    names.push(nameToCsl(creator));
    csl[creator.role] = names;
  }
  for (const [field, variable] of Object.entries(DATE_VARIABLES)) {
    const date = record[field as keyof typeof DATE_VARIABLES];
    if (date) csl[variable] = dateToCsl(date);
  }
  for (const [field, variable] of Object.entries(TEXT_VARIABLES)) {
    const value = record[field as keyof typeof TEXT_VARIABLES];
    if (value) csl[variable] = value;
  }
  return csl;
}
