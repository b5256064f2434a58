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
 * - RIS through citation-js's RIS plugin (repeated tags, continuation lines), one record at a time so
 *   that a record's position is known and a bad one spoils nothing else.
 * - CSL-JSON (an array of items, or one item) through JSON.parse.
 */
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-ris';
import '@citation-js/plugin-bibtex';

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
  const start = /@\s*([a-zA-Z]+)\s*([{(])/g;
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
      if (character === '\n' && /^\s*@\s*[a-zA-Z]+\s*[{(]/.test(text.slice(at + 1, at + 200))) {
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
      : (/^@\s*[a-zA-Z]+\s*[{(]\s*([^,\s}]+)\s*,/.exec(chunk)?.[1] ?? null);
    // An entry without a key (JabRef writes `@Article{,` until one is generated) gets one the file
    // cannot hold, for the parser, which refuses an empty key; the entry is still reported keyless.
    if (!NOT_ENTRIES.has(type) && key === null)
      chunk = chunk.replace(/^(@\s*[a-zA-Z]+\s*[{(])\s*,/, `$1rw-keyless-${chunks.length + 1},`);
    chunks.push({ type, key, text: chunk, line: lineOf(from), ...(error ? { error } : {}) });
    start.lastIndex = at;
  }
  return chunks;
}

/** The arXiv id of an entry's `eprint` field (with `archivePrefix` or `eprinttype` arXiv, or none), which CSL has no field for. */
function eprintOf(chunk: string): string | undefined {
  const eprint = /\beprint\s*=\s*[{"]\s*([^}"\s]+)\s*[}"]/i.exec(chunk)?.[1];
  if (!eprint) return undefined;
  const archive = /\b(?:archiveprefix|eprinttype)\s*=\s*[{"]?\s*([A-Za-z]+)/i.exec(chunk)?.[1];
  return !archive || archive.toLowerCase() === 'arxiv' ? eprint : undefined;
}

type CslWithExtras = CslLike & { annote?: string; 'citation-key'?: string; id?: string };

function bibtexItem(item: CslWithExtras, chunk: BibtexChunk): CslLike {
  const notes = [item.annote, item.note].filter(
    (note): note is string => typeof note === 'string' && !!note.trim(),
  );
  const eprint = eprintOf(chunk.text);
  return {
    ...item,
    note: notes.length ? notes.join('\n\n') : undefined,
    ...(eprint ? { arxivId: eprint } : {}),
  };
}

function attempt<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** BibTeX's crossref rule: the child's own fields first, the parent's for the rest; the parent's title is the child's container. */
function inherit(child: CslWithExtras, parent: CslWithExtras): CslWithExtras {
  const merged: CslWithExtras = { ...child };
  for (const field of ['issued', 'publisher', 'volume', 'editor', 'container-title'] as const) {
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
  values: Array<{ from: number; to: number }>;
  words: Array<{ word: string; named: boolean; afterComma: boolean }>;
}

const WORD_END = /[\s,={}"#()]/;

/** One linear walk over a chunk (`@type{…}`), outside its values: their spans, and the bare words between them. */
function chunkParts(text: string): ChunkParts {
  const parts: ChunkParts = { values: [], words: [] };
  let at = text.search(/[{(]/) + 1;
  let seenComma = false;
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
      parts.values.push({ from: at + 1, to: end - 1 });
      at = end;
    } else if (character === '"') {
      let depth = 0;
      let end = at + 1;
      for (; end < text.length && !(text[end] === '"' && depth === 0); end++) {
        if (text[end] === '\\') end++;
        else if (text[end] === '{') depth++;
        else if (text[end] === '}') depth--;
      }
      parts.values.push({ from: at + 1, to: end });
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
      parts.words.push({
        word: text.slice(at, end),
        named: text[next] === '=',
        afterComma: seenComma,
      });
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
  return new Cite(text, { forceType: '@biblatex/text', generateGraph: false }).data;
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
      : { ...chunk, text: escapeLoneDollars(chunk.text) },
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
  if (current)
    records.push({
      line: (current as { line: number }).line,
      text: (current as { lines: string[] }).lines.join('\n'),
    });
  return records.map(({ line, text: record }, index): ParsedEntry => {
    const key = /^ID {2}- (.+)$/m.exec(record)?.[1]?.trim() || null;
    if (!/^ER {2}-/m.test(record))
      return { ok: false, index, line, key, reason: 'The record has no end (ER  - )' };
    try {
      const [item] = new Cite(record, { forceType: '@ris/file', generateGraph: false })
        .data as CslLike[];
      if (!item)
        return { ok: false, index, line, key, reason: 'The record holds nothing RIS names' };
      // citation-js reads no PB of a journal article (Zotero does, and export.ts writes one).
      const publisher = item.publisher ?? /^PB {2}- (.+)$/m.exec(record)?.[1]?.trim();
      // Nor, for some types (CHAP), the DA line's month and day beside PY's year.
      const day = /^DA {2}- (\d{4})\/(\d{2})?\/?(\d{2})?/m.exec(record);
      const parts =
        day
          ?.slice(1)
          .filter((part): part is string => !!part)
          .map(Number) ?? [];
      const issued =
        parts.length > (item.issued?.['date-parts']?.[0]?.length ?? 0)
          ? { 'date-parts': [parts] }
          : item.issued;
      // Nor a conference paper's T2 (the proceedings), which export.ts writes as its container.
      const container =
        item['container-title'] ??
        (item.type === 'paper-conference'
          ? /^T2 {2}- (.+)$/m.exec(record)?.[1]?.trim()
          : undefined);
      return {
        ok: true,
        index,
        line,
        key,
        item: {
          ...item,
          ...(publisher ? { publisher } : {}),
          ...(issued ? { issued } : {}),
          ...(container ? { 'container-title': container } : {}),
        },
      };
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
