/**
 * Reading a citation file into CSL-like items, one per entry, each with where it sits in the file; an
 * entry that cannot be read is kept as such, with its position and the reason, so that the rest are
 * imported. Three formats:
 *
 * - BibTeX and BibLaTeX through citation-js's BibTeX plugin, chosen by testing on the real exports in
 *   test/fixtures/citations: it resolves `@string` macros, `crossref`, LaTeX accents and commands,
 *   month macros, name particles and braced corporate names, and reads 5,000 entries in about 3 s.
 *   @retorquere/bibtex-parser (Better BibTeX's) read them as well, but took about 40 ms per entry with
 *   an abstract (23 s for 500 of bench/import.ts's entries), far past the import's 10 s. citation-js fails a
 *   whole file on one bad entry, so the file is first cut into its entries here (bibtexChunks), and a
 *   bad one is reported and left out.
 *   Its output is then completed (bibtexItem): Mendeley's entry types and the LaTeX commands it
 *   lacks are added to its tables (bibtex-tables.ts), one-part names become `literal`, list fields
 *   CSL holds as one text are joined back, and the citation key and the title as written are kept.
 * - RIS split into tags by citation-js's RIS plugin (repeated tags, continuation lines), after tag
 *   lines with other spacing (`TY - JOUR`) are put in the spec's form, one record at a time so that a
 *   record's position is known and a bad one spoils nothing else; the tags are mapped to CSL as
 *   Zotero maps them (ris-fields.ts), not by the plugin's mapping.
 * - CSL-JSON (an array of items, or one item) through JSON.parse.
 */
import { Cite, plugins } from '@citation-js/core';
import '@citation-js/plugin-ris';
import './bibtex-tables.js';
import { ownValue } from '../../platform/own-key.js';
import { CREATOR_ROLES } from '../../records/index.js';
import { risItem, type RisRecord } from './ris-fields.js';

export type ImportFormat = 'bibtex' | 'ris' | 'csljson';

export interface CslName {
  family?: string;
  given?: string;
  literal?: string;
  'non-dropping-particle'?: string;
  'dropping-particle'?: string;
  suffix?: string;
}

/** The CSL fields import reads (BibTeX entries are turned into these too), plus the identifiers CSL lacks. */
export interface CslLike {
  type?: string;
  title?: string;
  author?: CslName[];
  editor?: CslName[];
  issued?: { 'date-parts'?: unknown[][]; raw?: string; literal?: string };
  'container-title'?: string;
  publisher?: string;
  volume?: string;
  issue?: string;
  page?: string;
  number?: string;
  DOI?: string;
  PMID?: string;
  URL?: string;
  abstract?: string;
  keyword?: string | string[];
  note?: string;
  /** An arXiv id named by the entry itself (BibTeX `eprint` with `archivePrefix = arXiv`). */
  arxivId?: string;
  /** Its primary category, BibTeX's `primaryClass` (BibLaTeX's `eprintclass`): `astro-ph`, `cs.LG`. */
  arxivPrimaryClass?: string;
  /** What else the entry says, where an identifier may hide (`howpublished`, `journal = {arXiv preprint …}`). */
  extra?: string[];
  /**
   * A BibTeX entry as written, where CSL has no place for it: its entry type (`article`,
   * `web_page`…) and its title between its outer braces, inner braces (case protection) and LaTeX
   * as in the file. The key is `citation-key`.
   */
  bibtex?: { entryType: string; title?: string };
  /**
   * A RIS record's type (`TY`) when it names a kind of work this reader knows, not RIS's generic
   * `GEN`: the record says what it is, as a CSL-JSON item's `type` does (an untitled work is kept).
   */
  ris?: { type: string };
  /** Files the record links to (RIS `L1` PDFs, `L2` full text, `L4` images), as Zotero attaches them. */
  attachments?: Array<{ url: string; mimeType?: string; title: string }>;
  /** Every other CSL 1.0.2 variable the entry carries (`translator`, `accessed`, `genre`…), as CSL names it. */
  [variable: string]: unknown;
}

export interface ReadEntry {
  index: number;
  /** 1-based line where the entry starts, when the format has lines. */
  line: number | null;
  /** The entry's citation key (BibTeX) or ID (RIS, CSL-JSON), when it has one. */
  key: string | null;
  item: CslLike;
}

export interface UnreadableEntry {
  index: number;
  line: number | null;
  key: string | null;
  reason: string;
}

export type ParsedEntry = ({ ok: true } & ReadEntry) | ({ ok: false } & UnreadableEntry);

/** The whole file could not be read as the format (not one entry in it). */
export class UnreadableFile extends Error {}

// ---- positions ----

/** Line numbers of offsets in a text, counted once. */
function lineCounter(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

// ---- BibTeX ----

interface BibtexChunk {
  /** Lower-cased entry type: `article`, `string`, `comment`… */
  type: string;
  key: string | null;
  text: string;
  line: number;
  /** Why the chunk is not a whole entry, when it is not. */
  error?: string;
}

/**
 * The file cut into its top-level `@type{…}` (or `@type(…)`) chunks, braces and quotes balanced, as
 * BibTeX itself reads it: text outside a chunk is a comment. An entry still open where a line starts
 * with a new `@type{` is cut there and reported unreadable, so that one unclosed brace costs one entry.
 */
const NOT_ENTRIES = new Set(['string', 'comment', 'preamble']);

function bibtexChunks(text: string): BibtexChunk[] {
  const lineOf = lineCounter(text);
  const chunks: BibtexChunk[] = [];
  const start = /@\s*([a-zA-Z][\w-]*)\s*([{(])/g;
  let match: RegExpExecArray | null;
  while ((match = start.exec(text))) {
    const type = match[1]!.toLowerCase();
    const open = match[2]!;
    const close = open === '{' ? '}' : ')';
    const from = match.index;
    let depth = 1;
    let inQuote = false;
    let at = start.lastIndex;
    let error: string | undefined;
    for (; at < text.length && depth > 0; at++) {
      const character = text[at]!;
      if (
        character === '\n' &&
        /^\s*@\s*[a-zA-Z][\w-]*\s*[{(]/.test(text.slice(at + 1, at + 200))
      ) {
        error = inQuote
          ? 'A quoted value is not closed before the next entry'
          : 'A brace is not closed before the next entry';
        break;
      }
      // A quote delimits a value only between fields (depth 1); inside braces it is a character.
      if (character === '\\') at++;
      else if (character === '"' && depth === 1 && type !== 'comment') inQuote = !inQuote;
      else if (character === '{') depth++;
      else if (character === '}' || (character === close && depth === 1 && !inQuote)) depth--;
    }
    if (!error && depth > 0) error = 'The entry is not closed before the end of the file';
    let chunk = text.slice(from, at);
    const key = NOT_ENTRIES.has(type)
      ? null
      : (/^@\s*[a-zA-Z][\w-]*\s*[{(]\s*([^,\s}]+)\s*,/.exec(chunk)?.[1] ?? null);
    // An entry without a key (JabRef writes `@Article{,` until one is generated) gets one the file
    // cannot hold, for the parser, which refuses an empty key; the entry is still reported keyless.
    if (!NOT_ENTRIES.has(type) && key === null)
      chunk = chunk.replace(
        /^(@\s*[a-zA-Z][\w-]*\s*[{(])\s*,/,
        `$1rw-keyless-${chunks.length + 1},`,
      );
    chunks.push({ type, key, text: chunk, line: lineOf(from), ...(error ? { error } : {}) });
    start.lastIndex = at;
  }
  return chunks;
}

/** The fields of a chunk as written between their braces or quotes (first value of each), by lower-case name. */
function fieldsAsWritten(chunk: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const { from, to, field } of chunkParts(chunk).values)
    if (field && !fields.has(field)) fields.set(field, chunk.slice(from, to));
  return fields;
}

/** The arXiv id of an entry's `eprint` field (with `archivePrefix` or `eprinttype` arXiv, or none), which CSL has no field for. */
function eprintOf(fields: Map<string, string>): string | undefined {
  const eprint = fields.get('eprint')?.trim();
  if (!eprint || /\s/.test(eprint)) return undefined;
  const archive = (fields.get('archiveprefix') ?? fields.get('eprinttype'))?.trim();
  return !archive || archive.toLowerCase() === 'arxiv' ? eprint : undefined;
}

type CslWithExtras = CslLike & { annote?: string; 'citation-key'?: string; id?: string };

/** CSL variables that hold one text though biblatex reads their field as a list (`publisher = {Taylor and Francis}`). */
const ONE_TEXT = ['publisher', 'publisher-place', 'original-publisher', 'original-publisher-place'];

/** biblatex's type keys (`type = {phdthesis}`, or the entry type when there is no `type`), as Zotero words them. */
const GENRE_OF_TYPE_KEY: Record<string, string> = {
  phdthesis: 'PhD Thesis',
  mathesis: "Master's Thesis",
  mastersthesis: "Master's Thesis",
};

/**
 * Text as a reader types it: a LaTeX accent on a dotless i or j (`{\'\i}`) is the accented letter
 * (`í`, not `ı́`), `$^\circ$` a degree sign, combining marks composed (NFC).
 */
function tidyText(text: string): string {
  if (!/[ıȷ∘]/.test(text)) return text;
  return text
    .replace(
      /[ıȷ](\p{M})/gu,
      (letter: string, mark: string) => (letter[0] === 'ı' ? 'i' : 'j') + mark,
    )
    .replace(/<sup>∘<\/sup>/g, '°')
    .normalize('NFC');
}

function tidyValues(value: unknown): unknown {
  if (typeof value === 'string') return tidyText(value);
  if (Array.isArray(value)) return value.map(tidyValues);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, tidyValues(inner)]),
    );
  return value;
}

/** CSL's name variables (1.0.2), each a list of names. */
const NAME_VARIABLES = CREATOR_ROLES;

/** A name list as written (`A and {B and C} and D`): the names, split on `and` outside braces. */
function namesAsWritten(value: string): Array<{ text: string; comma: boolean }> {
  const names: Array<{ text: string; comma: boolean }> = [];
  let depth = 0;
  let start = 0;
  let comma = false;
  for (let at = 0; at < value.length; at++) {
    const character = value[at]!;
    if (character === '{') depth++;
    else if (character === '}') depth--;
    else if (depth === 0 && character === ',') comma = true;
    else if (depth === 0 && /\s/.test(character) && /^\s+and\s/i.test(value.slice(at))) {
      names.push({ text: value.slice(start, at).trim(), comma });
      start = at + /^\s+and\s+/i.exec(value.slice(at))![0].length;
      at = start - 1;
      comma = false;
    }
  }
  names.push({ text: value.slice(start).trim(), comma });
  return names;
}

/**
 * The names written as a family name alone with its comma (`Doe Co.,`, `{Blevins},`), braces
 * gone: in Zotero's reading, and this service's BibTeX export, a person's family name without given
 * names, where `{Doe Co.}` without the comma is an organisation.
 */
function familyOnlyNames(fields: Map<string, string>): Set<string> {
  const found = new Set<string>();
  for (const value of fields.values()) {
    if (!value.includes(',')) continue;
    for (const { text } of namesAsWritten(value)) {
      const match = /^([^,]+),$/.exec(text);
      if (match) found.add(match[1]!.replace(/[{}]/g, '').replace(/\s+/g, ' ').trim());
    }
  }
  return found;
}

/** The name fields whose names are matched with how they were written (the rest keep citation-js's reading). */
const WRITTEN_NAME_FIELDS = ['author', 'editor', 'translator'] as const;

/**
 * A "von" part written in the `First von Last` form ("American Rights at Work", "Ludwig van
 * Beethoven") is printed with the given names and not sorted on: CSL's dropping particle, as
 * Zotero reads it (its given name holds it). In the comma form (`van Gogh, Vincent`) it is part of
 * the family name, CSL's non-dropping particle, as citation-js reads it.
 */
function droppingParticles(item: Record<string, unknown>, fields: Map<string, string>): void {
  for (const field of WRITTEN_NAME_FIELDS) {
    const names = item[field];
    const written = fields.get(field);
    if (!Array.isArray(names) || written === undefined) continue;
    const asWritten = namesAsWritten(written);
    if (asWritten.length !== names.length) continue;
    item[field] = names.map((name: CslName, at) => {
      const particle = name?.['non-dropping-particle'];
      if (!particle || asWritten[at]!.comma) return name;
      const { 'non-dropping-particle': _moved, ...rest } = name;
      return { ...rest, 'dropping-particle': particle };
    });
  }
}

/**
 * A name BibTeX reads as one part (`{Beijing Zoo}`, `{IBM}`, `Aristotle`) is a name that is not
 * split, CSL's `literal`, as Zotero keeps it in one field: citation-js makes it a family name alone,
 * which a style would cut into initials ("Zoo, B.") once it is stored as text. A family name
 * written with its comma (`Doe Co.,`) stays a family name.
 */
function wholeNames(item: Record<string, unknown>, familyOnly: Set<string>): void {
  for (const variable of NAME_VARIABLES) {
    const names = item[variable];
    if (!Array.isArray(names)) continue;
    item[variable] = names.map((name: CslName) =>
      name &&
      typeof name.family === 'string' &&
      Object.keys(name).every((part) => part === 'family') &&
      !familyOnly.has(name.family.replace(/\s+/g, ' ').trim())
        ? { literal: name.family }
        : name,
    );
  }
}

function bibtexItem(read: CslWithExtras, chunk: BibtexChunk): CslLike {
  // Only what LaTeX wrote (`{\'\i}`, `$^\circ$`): a dotless ı typed in the file stays as typed.
  const latex = /\\[ij](?![a-zA-Z])|\\circ\b/.test(chunk.text);
  const unmarked = withoutProtectionMarks(read) as CslWithExtras;
  const item = (latex ? tidyValues(unmarked) : unmarked) as CslWithExtras & Record<string, unknown>;
  const protectedTitle = nocaseTitle(read.title);
  if (protectedTitle !== undefined) item.title = latex ? tidyText(protectedTitle) : protectedTitle;
  const fields = fieldsAsWritten(withoutProtectionMarks(chunk.text) as string);
  const notes = [item.annote, item.note].filter(
    (note): note is string => typeof note === 'string' && !!note.trim(),
  );
  delete item.annote;
  // citation-js looks the entry type up in a plain object: `@constructor{` would find a function.
  if (typeof item.type !== 'string') item.type = 'document';
  wholeNames(item, familyOnlyNames(fields));
  droppingParticles(item, fields);
  for (const variable of ONE_TEXT) {
    const value = item[variable];
    if (Array.isArray(value)) item[variable] = value.join(' and ');
  }
  if (typeof item.genre === 'string') {
    const key = item.genre.trim().toLowerCase();
    const genre = ownValue(GENRE_OF_TYPE_KEY, key);
    if (genre) item.genre = genre;
    // citation-js names a report's kind by its entry type when it has no `type` field.
    else if (key === 'techreport' && !fields.has('type')) delete item.genre;
  }
  // biblatex's @article with `entrysubtype = {magazine}` or `{newspaper}`.
  const subtype = fields.get('entrysubtype')?.trim().toLowerCase();
  if (chunk.type === 'article' && (subtype === 'magazine' || subtype === 'newspaper')) {
    item.type = subtype === 'magazine' ? 'article-magazine' : 'article-newspaper';
    delete item.genre;
  }
  const eprint = eprintOf(fields);
  const primaryClass = (fields.get('primaryclass') ?? fields.get('eprintclass'))?.trim();
  const archivePrefix = (fields.get('archiveprefix') ?? fields.get('eprinttype'))?.trim();
  // Zotero's Rights, CSL's license: `copyright` (as Zotero's BibTeX translator reads it) or `rights`.
  const rights = (fields.get('copyright') ?? fields.get('rights'))?.trim();
  if (rights && item.license === undefined) item.license = rights;
  const archive = fields.get('archive')?.trim();
  if (archive && item.archive === undefined) item.archive = archive;
  const eprintId = fields.get('eprint')?.trim();
  if (eprintId && archivePrefix && item.archive === undefined) {
    item.archive = /^arxiv$/i.test(archivePrefix) ? 'arXiv' : archivePrefix;
    item.archive_location ??= eprintId;
  }
  if (chunk.key === null) {
    delete item['citation-key'];
    delete item.id;
  } else item['citation-key'] = chunk.key;
  const title = fields.get('title');
  return {
    ...item,
    note: notes.length ? notes.join('\n\n') : undefined,
    ...(eprint ? { arxivId: eprint } : {}),
    ...(eprint && primaryClass ? { arxivPrimaryClass: primaryClass } : {}),
    bibtex: { entryType: chunk.type, ...(title !== undefined ? { title } : {}) },
  };
}

// ---- case protection ----

/**
 * Private-use characters put around each case-protected part of an entry's title before citation-js
 * reads it, so that its braces are known in the title citation-js decodes (which drops them): a
 * brace group at the title's top level that is neither a LaTeX command's argument (`\\textit{…}`,
 * decoded as `<i>`) nor, as BibTeX has it, a special character (`{\\"u}`, a group starting with a
 * backslash, whose letters BibTeX does change). `{BERT}`, `t-{SNE}`, `{{Whole title}}`.
 */
const PROTECT_OPEN = '\uE000';
const PROTECT_CLOSE = '\uE001';
const PROTECT_MARKS = /[\uE000\uE001]/g;

/** The chunk with its title's protected parts marked (PROTECT_OPEN…PROTECT_CLOSE), or as it is. */
function markProtectedTitle(text: string): string {
  if (/[\uE000\uE001]/.test(text)) return text;
  const value = chunkParts(text).values.find(({ field }) => field === 'title');
  if (!value) return text;
  const inserts: Array<[number, string]> = [];
  let at = value.from;
  while (at < value.to) {
    const character = text[at]!;
    if (character === '\\') {
      // A command (its name, and then the braced argument that follows it, if any) or an escaped character.
      const name = /^\\(?:[a-zA-Z]+\s*|.)/.exec(text.slice(at, value.to))?.[0] ?? '\\';
      at += name.length;
      // A command's argument: after a named command (`\textit{…}`) or an accent (`\'{E}`), which is no protection.
      if (/^\\(?:[a-zA-Z]|['"`^~=.])/.test(name) && text[at] === '{')
        at = groupEnd(text, at, value.to);
    } else if (character === '$') {
      const close = text.indexOf('$', at + 1);
      at = close === -1 || close >= value.to ? value.to : close + 1;
    } else if (character === '{') {
      const end = groupEnd(text, at, value.to);
      if (text[at + 1] !== '\\' && end - at > 2 && text[end - 1] === '}') {
        inserts.push([at + 1, PROTECT_OPEN], [end - 1, PROTECT_CLOSE]);
      }
      at = end;
    } else at++;
  }
  let marked = text;
  for (const [position, mark] of inserts.reverse())
    marked = `${marked.slice(0, position)}${mark}${marked.slice(position)}`;
  return marked;
}

/** Where the brace group opening at `from` ends (just past its `}`), or `limit`. */
function groupEnd(text: string, from: number, limit: number): number {
  let depth = 0;
  for (let at = from; at < limit; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '{') depth++;
    else if (text[at] === '}' && --depth === 0) return at + 1;
  }
  return limit;
}

/** Every string of a value without the protection marks. */
function withoutProtectionMarks(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(PROTECT_MARKS, '');
  if (Array.isArray(value)) return value.map(withoutProtectionMarks);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, withoutProtectionMarks(inner)]),
    );
  return value;
}

/**
 * The decoded title with its protected parts as CSL `nocase` spans (what citeproc and a CSL-JSON
 * export read as "keep this case"; the import keeps them as the title's rich text, `markup.title`),
 * or without marks when they do not pair up; empty spans are dropped.
 */
function nocaseTitle(title: unknown): string | undefined {
  if (typeof title !== 'string') return undefined;
  const marks = title.replace(/[^\uE000\uE001]/g, '');
  if (!/^(?:\uE000\uE001)*$/.test(marks)) return title.replace(PROTECT_MARKS, '');
  return title
    .replace(/\uE000(\s*)\uE001/g, '$1')
    .replace(/\uE000/g, '<span class="nocase">')
    .replace(/\uE001/g, '</span>');
}

function attempt<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/**
 * The fields a child inherits from its crossref parent: what describes the book or proceedings it
 * is part of. Not the parent's identifiers (DOI, URL): they name the parent, and the child would
 * be a duplicate of it.
 */
const INHERITED = [
  'issued',
  'publisher',
  'publisher-place',
  'volume',
  'edition',
  'editor',
  'container-title',
  'collection-title',
  'collection-number',
  'ISBN',
] as const;

/** BibTeX's crossref rule: the child's own fields first, the parent's for the rest; the parent's title is the child's container. */
function inherit(child: CslWithExtras, parent: CslWithExtras): CslWithExtras {
  const merged: CslWithExtras = { ...child };
  for (const field of INHERITED) {
    if (merged[field] === undefined && parent[field] !== undefined)
      (merged as Record<string, unknown>)[field] = parent[field];
  }
  if (merged['container-title'] === undefined && parent.title)
    merged['container-title'] = parent.title;
  return merged;
}

// ---- macros and dollar signs ----

/**
 * Bounds of `@string` macro expansion: a macro may refer to earlier ones (`a1 = a0 # a0`), so 21
 * doublings of a few bytes grow to gigabytes inside the parser. A real macro is a journal's or a
 * publisher's name; every use of one in the entries is counted against the total.
 */
export const MACRO_LIMITS = { perMacro: 65_536, total: 4 * 1024 * 1024 } as const;

/** A macro (or the file's use of one) would grow past MACRO_LIMITS; `macro` names it. */
export class MacroTooLarge extends Error {
  constructor(
    readonly macro: string,
    message: string,
  ) {
    super(message);
    this.name = 'MacroTooLarge';
  }
}

/** What the top level of a chunk's body holds: each braced or quoted value's span, and each bare word and whether `=` follows it. */
interface ChunkParts {
  /** Each value's span, and the field it is (part of) the value of, lower case. */
  values: Array<{ from: number; to: number; field: string | null }>;
  words: Array<{ word: string; at: number; named: boolean; afterComma: boolean }>;
}

const WORD_END = /[\s,={}"#()]/;

/** One linear walk over a chunk (`@type{…}`), outside its values: their spans, and the bare words between them. */
function chunkParts(text: string): ChunkParts {
  const parts: ChunkParts = { values: [], words: [] };
  let at = text.search(/[{(]/) + 1;
  let seenComma = false;
  let field: string | null = null;
  while (at > 0 && at < text.length) {
    const character = text[at]!;
    if (character === '{') {
      let depth = 1;
      let end = at + 1;
      for (; end < text.length && depth > 0; end++) {
        if (text[end] === '\\') end++;
        else if (text[end] === '{') depth++;
        else if (text[end] === '}') depth--;
      }
      parts.values.push({ from: at + 1, to: end - 1, field });
      at = end;
    } else if (character === '"') {
      let depth = 0;
      let end = at + 1;
      for (; end < text.length && !(text[end] === '"' && depth === 0); end++) {
        if (text[end] === '\\') end++;
        else if (text[end] === '{') depth++;
        else if (text[end] === '}') depth--;
      }
      parts.values.push({ from: at + 1, to: end, field });
      at = end + 1;
    } else if (character === '}' || character === ')') {
      break;
    } else if (character === ',') {
      seenComma = true;
      at++;
    } else if (WORD_END.test(character)) {
      at++;
    } else {
      let end = at;
      while (end < text.length && !WORD_END.test(text[end]!)) end++;
      let next = end;
      while (next < text.length && /\s/.test(text[next]!)) next++;
      const word = text.slice(at, end);
      parts.words.push({ word, at, named: text[next] === '=', afterComma: seenComma });
      if (text[next] === '=') field = word.toLowerCase();
      at = end;
    }
  }
  return parts;
}

/**
 * The expanded size of each `@string` macro, in file order, and refuses (MacroTooLarge) a macro past
 * MACRO_LIMITS.perMacro or entries whose macro uses add up past MACRO_LIMITS.total, naming the macro.
 */
function boundMacros(strings: BibtexChunk[], entries: BibtexChunk[]): void {
  const size = new Map<string, number>();
  const sizeOf = (word: string) => (/^\d/.test(word) ? word.length : (size.get(word) ?? 0));
  for (const chunk of strings) {
    const { values, words } = chunkParts(chunk.text);
    const name = words.find((word) => word.named)?.word.toLowerCase();
    if (!name) continue;
    let total = values.reduce((sum, value) => sum + (value.to - value.from), 0);
    for (const { word, named } of words) if (!named) total += sizeOf(word.toLowerCase());
    if (total > MACRO_LIMITS.perMacro)
      throw new MacroTooLarge(
        name,
        `The @string macro "${name.slice(0, 100)}" (line ${chunk.line}) expands to more than ${MACRO_LIMITS.perMacro.toLocaleString('en-US')} characters`,
      );
    size.set(name, total);
  }
  if (size.size === 0) return;
  const used = new Map<string, number>();
  let total = 0;
  for (const chunk of entries) {
    for (const { word, named, afterComma } of chunkParts(chunk.text).words) {
      // The citation key comes before the first comma; a field's name before its `=`.
      if (named || !afterComma) continue;
      const grows = sizeOf(word.toLowerCase());
      if (!grows) continue;
      total += grows;
      used.set(word.toLowerCase(), (used.get(word.toLowerCase()) ?? 0) + grows);
      if (total > MACRO_LIMITS.total) {
        const [largest] = [...used].sort((a, b) => b[1] - a[1])[0]!;
        throw new MacroTooLarge(
          largest,
          `The entries' uses of @string macros expand to more ` +
            `than ${MACRO_LIMITS.total.toLocaleString('en-US')} characters; the ` +
            `largest share is the macro "${largest.slice(0, 100)}"`,
        );
      }
    }
  }
}

/**
 * A `$` without its closing one (`title = {a $ b}`) is a literal dollar sign, as biber reads it;
 * citation-js takes it for the start of math and fails the entry. In a value with an odd number of
 * unescaped `$`, the last one is escaped; pairs stay math.
 */
/**
 * Fields renamed before citation-js reads the entry, where exporters use them otherwise than biblatex:
 * ACM writes the conference's `location` beside the publisher's `address` (biblatex would take the
 * location as the publisher's place); MathSciNet writes the journal's full name in `fjournal` and
 * its abbreviation in `journal`. As Zotero reads them.
 */
function renameFields(text: string): string {
  const { words } = chunkParts(text);
  const named = new Map<string, number>();
  for (const { word, at, named: isField } of words)
    if (isField && !named.has(word.toLowerCase())) named.set(word.toLowerCase(), at);
  const renames: Array<[string, string]> = [];
  if (named.has('location') && named.has('address') && !named.has('venue'))
    renames.push(['location', 'venue']);
  if (named.has('fjournal') && !named.has('journaltitle')) {
    if (!named.has('shortjournal')) renames.push(['journal', 'shortjournal']);
    renames.push(['fjournal', 'journaltitle']);
  }
  let renamed = text;
  for (const [from, to] of renames
    .filter(([from]) => named.has(from))
    .sort((a, b) => named.get(b[0])! - named.get(a[0])!)) {
    const at = named.get(from)!;
    renamed = `${renamed.slice(0, at)}${to}${renamed.slice(at + from.length)}`;
  }
  return renamed;
}

/**
 * A field whose value ends a line without its comma, the next line starting the next field
 * (`title = {A}` then `file = {…}`), gets the comma: a common slip of hand-edited files that Zotero
 * reads through, and that would otherwise cost the whole entry.
 */
function addMissingCommas(text: string): string {
  const { values, words } = chunkParts(text);
  const ends = [
    ...values.map(({ to }) => (text[to] === '}' || text[to] === '"' ? to + 1 : to)),
    ...words.filter((word) => !word.named && word.afterComma).map((w) => w.at + w.word.length),
  ].sort((a, b) => a - b);
  const missing: number[] = [];
  for (const { at, named, afterComma } of words) {
    if (!named || !afterComma) continue;
    const end = ends.filter((position) => position <= at).at(-1);
    if (end === undefined) continue;
    const between = text.slice(end, at);
    if (/^[^\S\n]*\n\s*$/.test(between)) missing.push(end);
  }
  let fixed = text;
  for (const at of missing.reverse()) fixed = `${fixed.slice(0, at)},${fixed.slice(at)}`;
  return fixed;
}

function escapeLoneDollars(text: string): string {
  if (!text.includes('$')) return text;
  const lone: number[] = [];
  for (const { from, to } of chunkParts(text).values) {
    const dollars: number[] = [];
    for (let at = from; at < to; at++) {
      if (text[at] === '\\') at++;
      else if (text[at] === '$') dollars.push(at);
    }
    if (dollars.length % 2 === 1) lone.push(dollars[dollars.length - 1]!);
  }
  let escaped = text;
  for (const at of lone.reverse()) escaped = `${escaped.slice(0, at)}\\${escaped.slice(at)}`;
  return escaped;
}

function citeBibtex(text: string): CslWithExtras[] {
  return new Cite(text, { forceType: '@biblatex/text', generateGraph: false })
    .data as CslWithExtras[];
}

/**
 * BibTeX through citation-js's BibTeX plugin, which reads the whole file at once (`@string`
 * macros, `crossref` parents) but fails it all on one bad entry: the chunks that are not whole
 * entries are reported and left out first, and should the rest still fail, each entry is read on its
 * own (with the file's macros and its crossref parent), so that only the bad ones are lost.
 */
function readBibtex(text: string): ParsedEntry[] {
  const chunks = bibtexChunks(text).map((chunk) =>
    chunk.error || chunk.type === 'comment'
      ? chunk
      : {
          ...chunk,
          text: markProtectedTitle(renameFields(escapeLoneDollars(addMissingCommas(chunk.text)))),
        },
  );
  const strings = chunks.filter((chunk) => chunk.type === 'string' && !chunk.error);
  const prelude = strings.map((chunk) => chunk.text).join('\n');
  const entries = chunks.filter((chunk) => !NOT_ENTRIES.has(chunk.type));
  boundMacros(
    strings,
    entries.filter((chunk) => !chunk.error),
  );
  const whole = entries.filter((chunk) => !chunk.error);
  let items: CslWithExtras[] | null = null;
  try {
    items = citeBibtex(`${prelude}\n${whole.map((chunk) => chunk.text).join('\n')}`);
    if (items.length !== whole.length) items = null;
  } catch {
    items = null;
  }
  const byKey = new Map(whole.map((chunk) => [chunk.key?.toLowerCase(), chunk]));
  const itemOf = new Map<BibtexChunk, CslWithExtras | string>();
  whole.forEach((chunk, at) => {
    if (items) {
      itemOf.set(chunk, items[at]!);
      return;
    }
    const parentKey = /\bcrossref\s*=\s*[{"]\s*([^}"\s]+)\s*[}"]/i
      .exec(chunk.text)?.[1]
      ?.toLowerCase();
    const parent = parentKey ? byKey.get(parentKey) : undefined;
    try {
      const [own] = citeBibtex(
        `${prelude}\n${chunk.text.replace(/\bcrossref\s*=\s*[{"][^}"]*[}"]\s*,?/i, '')}`,
      );
      if (!own) return void itemOf.set(chunk, 'The entry holds no fields');
      // Its crossref parent read on its own too (citation-js fails some pairs, e.g. a chapter of an edited book), its fields inherited.
      const [inherited] =
        parent && parent !== chunk
          ? (attempt(() => citeBibtex(`${prelude}\n${parent.text}`)) ?? [])
          : [];
      itemOf.set(chunk, inherited ? inherit(own, inherited) : own);
    } catch (error) {
      itemOf.set(
        chunk,
        `The entry could not be read: ${(error as Error).message.split('\n')[0]!.slice(0, 200)}`,
      );
    }
  });
  return entries.map((chunk, index): ParsedEntry => {
    const position = { index, line: chunk.line, key: chunk.key };
    if (chunk.error) return { ok: false, ...position, reason: chunk.error };
    const item = itemOf.get(chunk);
    if (!item || typeof item === 'string')
      return { ok: false, ...position, reason: item ?? 'The entry could not be read' };
    return { ok: true, ...position, item: bibtexItem(item, chunk) };
  });
}

// ---- RIS ----

/**
 * A tag line as written by any tool: `TY  - JOUR` (the spec's two spaces), `TY - JOUR`, `TY -JOUR`,
 * `ER  -` with nothing after it. Other lines continue the tag before them.
 */
const RIS_TAG_LINE = /^\s*([A-Z][A-Z0-9])\s*-(?: ?)(.*)$/;

/** A record's lines with their tags in the spec's form, which citation-js's RIS reader requires. */
function risLine(line: string): string {
  const match = RIS_TAG_LINE.exec(line);
  return match ? `${match[1]}  - ${match[2]!.trim()}` : line;
}

/** citation-js's RIS reader, for its splitting only: tags and their (repeated, continued) values. */
function risRecords(text: string): RisRecord[] {
  return plugins.input.data(text, '@ris/file') as RisRecord[];
}

function readRis(text: string): ParsedEntry[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const records: Array<{ line: number; text: string; closed: boolean }> = [];
  let current: { line: number; lines: string[] } | null = null;
  const close = (closed: boolean) => {
    if (current) records.push({ line: current.line, text: current.lines.join('\n'), closed });
    current = null;
  };
  lines.forEach((raw, at) => {
    const line = risLine(raw);
    if (line.startsWith('TY  - ')) {
      close(false);
      current = { line: at + 1, lines: [line] };
      return;
    }
    if (!current) return;
    (current as { lines: string[] }).lines.push(line);
    if (line.startsWith('ER  -')) close(true);
  });
  close(false);
  return records.map(({ line, text: record, closed }, index): ParsedEntry => {
    const key = /^ID {2}- (.+)$/m.exec(record)?.[1]?.trim() || null;
    if (!closed) return { ok: false, index, line, key, reason: 'The record has no end (ER  - )' };
    try {
      const [fields] = risRecords(record);
      if (!fields)
        return { ok: false, index, line, key, reason: 'The record holds nothing RIS names' };
      return { ok: true, index, line, key, item: risItem(fields, record.split('\n')) };
    } catch (error) {
      return {
        ok: false,
        index,
        line,
        key,
        reason: `The record could not be read: ${(error as Error).message.slice(0, 200)}`,
      };
    }
  });
}

// ---- CSL-JSON ----

function readCslJson(text: string): ParsedEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UnreadableFile(
      `The file is not valid JSON: ${(error as Error).message.slice(0, 200)}`,
    );
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  return items.map((item, index): ParsedEntry => {
    if (!item || typeof item !== 'object' || Array.isArray(item))
      return { ok: false, index, line: null, key: null, reason: 'The item is not a JSON object' };
    const record = item as Record<string, unknown>;
    const key =
      typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : null;
    return { ok: true, index, line: null, key, item: record };
  });
}

/** The file's entries in order; UnreadableFile when it is not the format at all. */
export function readCitations(text: string, format: ImportFormat): ParsedEntry[] {
  switch (format) {
    case 'bibtex':
      // Lines may end in CR alone (classic Mac OS files, JabRef's UTF-16 ones): as LF, for line numbers and the parser.
      return readBibtex(text.replace(/\r\n?/g, '\n'));
    case 'ris':
      return readRis(text);
    case 'csljson':
      return readCslJson(text);
  }
}
