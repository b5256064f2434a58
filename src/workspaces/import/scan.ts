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
  if (/^TY {2}- /m.test(start.slice(0, 4096))) return 'ris';
  // Spaces and tabs only before the `@` (not `\s*`, which spans lines and made this quadratic on a
  // file of blank lines).
  if (/^[ \t]*@[a-zA-Z]+[ \t]*[{(]/m.test(start)) return 'bibtex';
  return null;
}

/** Entry heads at a line's start that are not `@string`, `@comment` or `@preamble`. */
const BIBTEX_ENTRY_HEAD =
  /^[ \t]*@[ \t]*(?!(?:string|comment|preamble)[ \t]*[{(])[a-zA-Z]+[ \t]*[{(]/gim;
const RIS_RECORD_HEAD = /^TY {2}- /gm;

/**
 * How many entries the file holds at least (null for CSL-JSON, which only parsing counts): BibTeX
 * entries whose `@type{` starts a line (the reader cuts an entry at such a line, so each is one entry
 * of its own) and RIS `TY  - ` lines.
 */
export function countEntriesAtLeast(text: string, format: ImportFormat): number | null {
  if (format === 'csljson') return null;
  const head = format === 'ris' ? RIS_RECORD_HEAD : BIBTEX_ENTRY_HEAD;
  head.lastIndex = 0;
  let count = 0;
  while (head.exec(text)) count++;
  return count;
}
