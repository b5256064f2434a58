/**
 * A Zotero item (as Zotero's translator tests and Better BibTeX's fixtures expect it) as a CSL item,
 * through Zotero's own mapping: the `csl` section of Zotero's schema (test/fixtures/interop/zotero-schema,
 * the file api.zotero.org/schema serves). An item type's field maps to its base field first
 * (`bookTitle` → `publicationTitle`), then to the CSL variable the schema names (`container-title`);
 * a type's primary creator type is `author`, the others map by the schema's `names`. Dates become
 * date-parts (what Zotero's strToDate reads: ISO dates, "March 2, 2005", "2 March 2005", a year; a
 * date Zotero could not read, "0000 Year Date", is the literal "Year Date").
 * Zotero-only fields (attachments, notes, tags, seeAlso, libraryCatalog, itemID) have no CSL variable.
 */
import { readFileSync } from 'node:fs';

export interface CslName {
  family?: string;
  given?: string;
  literal?: string;
  suffix?: string;
  'non-dropping-particle'?: string;
  'dropping-particle'?: string;
}
export interface CslDate {
  'date-parts'?: Array<Array<number | string>>;
  literal?: string;
  raw?: string;
}
export type CslItem = Record<string, unknown> & { id: string; type: string };

export interface ZoteroCreator {
  creatorType: string;
  firstName?: string;
  lastName?: string;
  name?: string;
  fieldMode?: number;
}
export type ZoteroItem = Record<string, unknown> & {
  itemType: string;
  creators?: ZoteroCreator[];
};

interface ZoteroSchema {
  itemTypes: Array<{
    itemType: string;
    fields: Array<{ field: string; baseField?: string }>;
    creatorTypes: Array<{ creatorType: string; primary?: boolean }>;
  }>;
  csl: {
    types: Record<string, string[]>;
    fields: { text: Record<string, string[]>; date: Record<string, string> };
    names: Record<string, string>;
  };
}

const SCHEMA = JSON.parse(
  readFileSync(
    new URL('../fixtures/interop/zotero-schema/schema-csl.json', import.meta.url),
    'utf8',
  ),
) as ZoteroSchema;

function invert(map: Record<string, string[]>): Map<string, string> {
  const inverted = new Map<string, string>();
  for (const [csl, zoteroNames] of Object.entries(map))
    for (const name of zoteroNames) if (!inverted.has(name)) inverted.set(name, csl);
  return inverted;
}
const CSL_TYPE = invert(SCHEMA.csl.types);
const CSL_TEXT = invert(SCHEMA.csl.fields.text);
const CSL_DATE = new Map(Object.entries(SCHEMA.csl.fields.date).map(([csl, z]) => [z, csl]));
const TYPES = new Map(SCHEMA.itemTypes.map((type) => [type.itemType, type]));

/** Zotero fields with no place in a CSL item, or not a field at all. */
const NOT_CSL = new Set([
  'itemType',
  'creators',
  'attachments',
  'notes',
  'tags',
  'seeAlso',
  'itemID',
  'libraryCatalog',
  'key',
  'version',
  'relations',
  'collections',
  'dateAdded',
  'dateModified',
  'uri',
  'citekey',
]);

/** The CSL variable a field of an item type is, or null (schema: field → base field → CSL). */
function cslVariableOf(itemType: string, field: string): string | null {
  if (NOT_CSL.has(field)) return null;
  const base = TYPES.get(itemType)?.fields.find((f) => f.field === field)?.baseField ?? field;
  if (base === 'shortTitle') return 'title-short';
  if (base === 'journalAbbreviation') return 'container-title-short';
  return CSL_TEXT.get(base) ?? CSL_DATE.get(base) ?? null;
}

/** The CSL name role of a creator type of an item type: the primary one is `author`. */
function cslRoleOf(itemType: string, creatorType: string): string {
  const primary = TYPES.get(itemType)?.creatorTypes.find((type) => type.primary)?.creatorType;
  if (creatorType === primary) return 'author';
  return SCHEMA.csl.names[creatorType] ?? creatorType;
}

function cslTypeOf(itemType: string): string {
  return CSL_TYPE.get(itemType) ?? 'document';
}

const MONTHS = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
] as const;

/** Date-parts of a Zotero date string, or a literal when no year can be read. */
export function zoteroDate(value: string): CslDate {
  // Zotero's multipart form of a date it could not read: "0000 <the text>".
  const unread = /^0000(?:-00-00)? (.*)$/.exec(value.trim());
  if (unread) return { literal: unread[1]! };
  const iso = /^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?(?:[ T].*)?$/.exec(value.trim());
  if (iso) {
    const parts = [Number(iso[1])];
    if (iso[2] && Number(iso[2]) > 0) {
      parts.push(Number(iso[2]));
      if (iso[3] && Number(iso[3]) > 0) parts.push(Number(iso[3]));
    }
    return { 'date-parts': [parts] };
  }
  const year = /\b(\d{4})\b/.exec(value)?.[1];
  if (!year) return { literal: value };
  const lower = value.toLowerCase();
  const monthIndex = MONTHS.findIndex((month) => new RegExp(`\\b${month}`).test(lower));
  const parts = [Number(year)];
  if (monthIndex >= 0) {
    parts.push(monthIndex + 1);
    const day = /\b(\d{1,2})\b/.exec(value.replace(year, ''))?.[1];
    if (day && Number(day) <= 31) parts.push(Number(day));
  }
  return { 'date-parts': [parts] };
}

function cslName(creator: ZoteroCreator): CslName {
  if (creator.name !== undefined) return { literal: creator.name };
  if (creator.fieldMode === 1) return { literal: creator.lastName ?? '' };
  return creator.firstName
    ? { family: creator.lastName, given: creator.firstName }
    : { family: creator.lastName };
}

/** Zotero's `extra` is one string, or (Better BibTeX's fixtures) an array of lines. */
function extraText(value: unknown): string {
  return Array.isArray(value) ? value.join('\n') : String(value);
}

/** The CSL item of a Zotero item (id given by the caller). */
export function zoteroToCsl(item: ZoteroItem, id: string): CslItem {
  const csl: CslItem = { id, type: cslTypeOf(item.itemType) };
  for (const [field, value] of Object.entries(item)) {
    if (value === undefined || value === null || value === '') continue;
    const variable = cslVariableOf(item.itemType, field);
    if (!variable || variable in csl) continue;
    if (CSL_DATE.has(field) || variable === 'issued' || variable === 'accessed')
      csl[variable] = zoteroDate(String(value));
    else csl[variable] = field === 'extra' ? extraText(value) : String(value);
  }
  for (const creator of item.creators ?? []) {
    const role = cslRoleOf(item.itemType, creator.creatorType);
    const names = (csl[role] as CslName[] | undefined) ?? [];
    names.push(cslName(creator));
    csl[role] = names;
  }
  return csl;
}
