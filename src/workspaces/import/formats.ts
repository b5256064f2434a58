/**
 * Reading a citation file into CSL-like items, one per entry, each with where it sits in the file; an
 * entry that cannot be read is kept as such, with its position and the reason, so that the rest are
 * imported. Three formats:
 *
 * - BibTeX and BibLaTeX through @retorquere/bibtex-parser, the parser behind Better BibTeX's imports:
 *   on the Zotero, JabRef and Mendeley exports in test/fixtures/citations it resolves `@string` macros,
 *   `crossref` inheritance, LaTeX accents and commands to Unicode, month macros, name particles and
 *   braced corporate names, and reports a broken entry without losing the others (citation-js's BibTeX
 *   plugin, tried on the same files, dropped the whole file on one bad entry).
 * - RIS through citation-js's RIS plugin (repeated tags, continuation lines), one record at a time so
 *   that a record's position is known and a bad one spoils nothing else.
 * - CSL-JSON (an array of items, or one item) through JSON.parse.
 */
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-ris';
import { parse as parseBibtex, type Creator, type Entry as BibtexEntry } from '@retorquere/bibtex-parser';

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
  /** What else the entry says, where an identifier may hide (`howpublished`, `journal = {arXiv preprint …}`). */
  extra?: string[];
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

// ---- detection ----

/** The format a generic content type (text/plain, application/octet-stream, application/json) holds, judged by its text. */
export function detectFormat(text: string): ImportFormat | null {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('[') || start.startsWith('{')) return 'csljson';
  if (/^TY {2}- /m.test(start.slice(0, 4096))) return 'ris';
  if (/^\s*@[a-zA-Z]+\s*[{(]/m.test(start)) return 'bibtex';
  return null;
}

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

const BIBTEX_TO_CSL: Record<string, string> = {
  article: 'article-journal',
  inproceedings: 'paper-conference',
  conference: 'paper-conference',
  proceedings: 'book',
  book: 'book',
  mvbook: 'book',
  booklet: 'book',
  inbook: 'chapter',
  incollection: 'chapter',
  bookinbook: 'chapter',
  phdthesis: 'thesis',
  mastersthesis: 'thesis',
  thesis: 'thesis',
  techreport: 'report',
  report: 'report',
  online: 'webpage',
  www: 'webpage',
  electronic: 'webpage',
  dataset: 'dataset',
  software: 'software',
  unpublished: 'manuscript',
  manual: 'report',
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function monthOf(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const number = Number(value.trim());
  if (Number.isInteger(number) && number >= 1 && number <= 12) return number;
  const index = MONTHS.indexOf(value.trim().slice(0, 3).toLowerCase());
  return index === -1 ? undefined : index + 1;
}

function bibtexName(creator: Creator): CslName {
  if (creator.name !== undefined) return { literal: creator.name };
  const name: CslName = {};
  if (creator.lastName) name.family = creator.lastName;
  if (creator.firstName) name.given = creator.firstName;
  if (creator.prefix) name['non-dropping-particle'] = creator.prefix;
  if (creator.suffix) name.suffix = creator.suffix;
  return name;
}

/** BibLaTeX `date` (ISO 8601, `2019-03-02`, or a range `2019/2020`), else `year`, `month` and `day`. */
function bibtexIssued(fields: Record<string, string | undefined>): CslLike['issued'] {
  const iso = /^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?/.exec(fields.date?.trim() ?? '');
  if (iso) return { 'date-parts': [iso.slice(1).filter((part) => part !== undefined).map(Number)] };
  const year = /\d{4}/.exec(fields.year ?? '')?.[0];
  if (!year) return fields.year ? { literal: fields.year } : undefined;
  const month = monthOf(fields.month);
  const day = month !== undefined && /^\d{1,2}$/.test(fields.day?.trim() ?? '') ? Number(fields.day) : undefined;
  return { 'date-parts': [[Number(year), ...(month === undefined ? [] : [month]), ...(day === undefined ? [] : [day])]] };
}

function bibtexItem(entry: BibtexEntry): CslLike {
  const fields = entry.fields as Record<string, unknown>;
  const string = (name: string) => (typeof fields[name] === 'string' ? (fields[name]) : undefined);
  const list = (name: string) => (Array.isArray(fields[name]) ? (fields[name] as string[]).join(' and ') : string(name));
  const type = BIBTEX_TO_CSL[entry.type.toLowerCase()];
  const isPart = type === 'paper-conference' || type === 'chapter';
  const eprint = string('eprint');
  const archive = (string('archiveprefix') ?? string('eprinttype') ?? '').toLowerCase();
  const notes = [string('annote'), string('annotation'), string('note')].filter((note): note is string => !!note?.trim());
  const item: CslLike = {
    ...(type ? { type } : {}),
    title: string('title'),
    author: (fields.author as Creator[] | undefined)?.map(bibtexName),
    editor: (fields.editor as Creator[] | undefined)?.map(bibtexName),
    issued: bibtexIssued({ date: string('date'), year: string('year'), month: string('month'), day: string('day') }),
    'container-title': (isPart ? string('booktitle') : undefined) ?? string('journal') ?? string('journaltitle') ?? string('booktitle') ?? string('series'),
    publisher: list('publisher') ?? list('institution') ?? list('school') ?? list('organization'),
    volume: string('volume'),
    issue: string('number') ?? string('issue'),
    page: string('pages'),
    DOI: string('doi'),
    PMID: string('pmid'),
    URL: string('url'),
    abstract: string('abstract'),
    keyword: fields.keywords as string[] | undefined,
    note: notes.length ? notes.join('\n\n') : undefined,
    arxivId: eprint && (archive === 'arxiv' || archive === '') ? eprint : undefined,
    extra: [string('howpublished'), string('journal'), eprint].filter((value): value is string => !!value),
  };
  return item;
}

/** The first line of a parser error, without the input it quotes. */
function bibtexReason(message: string): string {
  return message.split('\n')[0]!.replace(/\s+at line \d+, column \d+.*$/, '').slice(0, 300);
}

function readBibtex(text: string): ParsedEntry[] {
  const library = parseBibtex(text, { english: false, applyCrossRef: true, unsupported: 'ignore' });
  const lineOf = lineCounter(text);
  const errors = [...library.errors];
  let cursor = 0;
  const locate = (input: string): number | null => {
    if (!input) return null;
    const at = text.indexOf(input, cursor);
    if (at === -1) return null;
    cursor = at + input.length;
    return lineOf(at);
  };
  return library.entries.map((entry, index): ParsedEntry => {
    // An entry the parser could not finish comes with no input of its own; its error, in the same order, says where and why.
    if (!entry.input) {
      const error = errors.shift();
      const line = error ? locate(error.input ?? '') : null;
      return { ok: false, index, line, key: entry.key || null, reason: error ? bibtexReason(error.error) : 'The entry could not be read' };
    }
    return { ok: true, index, line: locate(entry.input), key: entry.key || null, item: bibtexItem(entry) };
  }).concat(
    // Errors the parser reported without an entry (garbage between entries): unreadable too, after the entries.
    errors.map((error, at): ParsedEntry => ({ ok: false, index: library.entries.length + at, line: locate(error.input ?? ''), key: null, reason: bibtexReason(error.error) })),
  ).sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity)).map((entry, index) => ({ ...entry, index }));
}

// ---- RIS ----

const RIS_RECORD_START = /^TY {2}- /;

function readRis(text: string): ParsedEntry[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const records: Array<{ line: number; text: string }> = [];
  let current: { line: number; lines: string[] } | null = null;
  lines.forEach((line, at) => {
    if (RIS_RECORD_START.test(line)) {
      if (current) records.push({ line: current.line, text: current.lines.join('\n') });
      current = { line: at + 1, lines: [line] };
      return;
    }
    if (!current) return;
    current.lines.push(line);
    if (/^ER {2}-/.test(line)) {
      records.push({ line: current.line, text: current.lines.join('\n') });
      current = null;
    }
  });
  if (current) records.push({ line: (current as { line: number }).line, text: (current as { lines: string[] }).lines.join('\n') });
  return records.map(({ line, text: record }, index): ParsedEntry => {
    const key = /^ID {2}- (.+)$/m.exec(record)?.[1]?.trim() || null;
    if (!/^ER {2}-/m.test(record)) return { ok: false, index, line, key, reason: 'The record has no end (ER  - )' };
    try {
      const [item] = new Cite(record, { forceType: '@ris/file', generateGraph: false }).data as CslLike[];
      if (!item) return { ok: false, index, line, key, reason: 'The record holds nothing RIS names' };
      // citation-js reads no PB of a journal article (Zotero does, and export.ts writes one).
      const publisher = item.publisher ?? /^PB {2}- (.+)$/m.exec(record)?.[1]?.trim();
      // Nor, for some types (CHAP), the DA line's month and day beside PY's year.
      const day = /^DA {2}- (\d{4})\/(\d{2})?\/?(\d{2})?/m.exec(record);
      const parts = day?.slice(1).filter((part): part is string => !!part).map(Number) ?? [];
      const issued = parts.length > (item.issued?.['date-parts']?.[0]?.length ?? 0) ? { 'date-parts': [parts] } : item.issued;
      // Nor a conference paper's T2 (the proceedings), which export.ts writes as its container.
      const container = item['container-title'] ?? (item.type === 'paper-conference' ? /^T2 {2}- (.+)$/m.exec(record)?.[1]?.trim() : undefined);
      return {
        ok: true,
        index,
        line,
        key,
        item: { ...item, ...(publisher ? { publisher } : {}), ...(issued ? { issued } : {}), ...(container ? { 'container-title': container } : {}) },
      };
    } catch (error) {
      return { ok: false, index, line, key, reason: `The record could not be read: ${(error as Error).message.slice(0, 200)}` };
    }
  });
}

// ---- CSL-JSON ----

function readCslJson(text: string): ParsedEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UnreadableFile(`The file is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  return items.map((item, index): ParsedEntry => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return { ok: false, index, line: null, key: null, reason: 'The item is not a JSON object' };
    const record = item as Record<string, unknown>;
    const key = typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : null;
    return { ok: true, index, line: null, key, item: record };
  });
}

/** The file's entries in order; UnreadableFile when it is not the format at all. */
export function readCitations(text: string, format: ImportFormat): ParsedEntry[] {
  switch (format) {
    case 'bibtex':
      return readBibtex(text);
    case 'ris':
      return readRis(text);
    case 'csljson':
      return readCslJson(text);
  }
}
