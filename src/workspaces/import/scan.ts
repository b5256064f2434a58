/**
 * What the request thread learns of an imported file before a worker reads it (STYLE.md rule 12): the
 * format its text holds, and how many entries it has at least, by one linear scan each, so that a file
 * past the entry limit is refused before anything parses it. No parser is loaded here.
 */
import type { ImportFormat } from './formats.js';

/** The format a generic content type (text/plain, application/octet-stream, application/json) holds, judged by its text. */
export function detectFormat(text: string): ImportFormat | null {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('[') || start.startsWith('{')) return 'csljson';
  // `TY  - ` as the spec writes it, or with one space or none around the dash, as some tools do.
  if (/^[ \t]*TY[ \t]*-[ \t]?[A-Z]/m.test(start.slice(0, 4096))) return 'ris';
  // Spaces and tabs only before the `@` (not `\s*`, which spans lines and made this quadratic on a
  // file of blank lines).
  if (/^[ \t]*@[a-zA-Z][\w-]*[ \t]*[{(]/m.test(start)) return 'bibtex';
  return null;
}

/** An entry head from its `@` on (sticky, tried at each `@`): not `@string`, `@comment` or `@preamble`. */
const BIBTEX_ENTRY_HEAD =
  /@[ \t]*(?!(?:string|comment|preamble)[ \t]*[{(])[a-zA-Z][\w-]*[ \t]*[{(]/iy;

/** Whether only spaces and tabs stand between the line's start and `at`. */
function startsLine(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029) return true;
    if (code !== 32 && code !== 9) return false;
  }
  return true;
}

/** BibTeX entry heads at a line's start: each `@` found by indexOf, the head matched there. */
function countBibtexHeads(text: string): number {
  let count = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (!startsLine(text, at)) continue;
    BIBTEX_ENTRY_HEAD.lastIndex = at;
    if (BIBTEX_ENTRY_HEAD.test(text)) count++;
  }
  return count;
}

/** RIS `TY  - ` at a line's start (after a line break, as a multiline `^` takes it, or the file's start). */
function countRisHeads(text: string): number {
  let count = text.startsWith('TY  - ') ? 1 : 0;
  for (let at = text.indexOf('TY  - ', 1); at !== -1; at = text.indexOf('TY  - ', at + 1)) {
    const before = text.charCodeAt(at - 1);
    if (before === 10 || before === 13 || before === 0x2028 || before === 0x2029) count++;
  }
  return count;
}

/**
 * How many entries the file holds at least (null for CSL-JSON, which only parsing counts): BibTeX
 * entries whose `@type{` starts a line (the reader cuts an entry at such a line, so each is one entry
 * of its own) and RIS `TY  - ` lines.
 */
export function countEntriesAtLeast(text: string, format: ImportFormat): number | null {
  if (format === 'csljson') return null;
  // By indexOf rather than one multiline regex over the text: on the request thread, 10 MB in a few
  // milliseconds per 1,000s of heads instead of a regex step per line (docs/performance.md, Import on
  // the request thread).
  return format === 'ris' ? countRisHeads(text) : countBibtexHeads(text);
}
