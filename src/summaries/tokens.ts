/**
 * Unicode-aware word tokens and the test for a "significant" term (one that can say what a text is
 * about): not a stopword or academic filler, not a number, not a fragment of a broken word.
 */
import { Buffer } from 'node:buffer';
import { stemmer } from 'stemmer';
import { STOPWORDS } from './stopwords.js';

/**
 * Word scanning by character codes (several times faster than a Unicode regular expression, which
 * matters at 20+ MB/s). A word is a run of letters, digits and combining marks, with inner
 * apostrophes ("don't"); hyphens and slashes separate words ("document-level" is two). Whitespace-
 * separated chunks that are URLs, e-mail addresses or DOIs are skipped whole, and so are markup-like
 * placeholders such as `<dig>` or `<cit>`, so that none of them counts as words.
 */
const WORD_CHAR_OUTSIDE_ASCII = /[\p{L}\p{N}\p{M}]/u;
/** 0 = not yet known, 1 = word character, 2 = not a word character (Basic Multilingual Plane). */
const wordCharTable = new Uint8Array(65_536);

const NOT_WORD_CLASS = 0;
const LOWER_CLASS = 1;
const UPPER_CLASS = 2;
const DIGIT_CLASS = 3;
/** ASCII code → what kind of word character it is (NOT_WORD_CLASS: none). */
const ASCII_WORD_CLASS = new Uint8Array(128).map((_, code) => {
  if (code >= 97 && code <= 122) return LOWER_CLASS;
  if (code >= 65 && code <= 90) return UPPER_CLASS;
  if (code >= 48 && code <= 57) return DIGIT_CLASS;
  return NOT_WORD_CLASS;
});

function isWordCode(code: number): boolean {
  if (code < 128) return ASCII_WORD_CLASS[code] !== NOT_WORD_CLASS;
  let known = wordCharTable[code] as number;
  if (known === 0) {
    known = WORD_CHAR_OUTSIDE_ASCII.test(String.fromCharCode(code)) ? 1 : 2;
    wordCharTable[code] = known;
  }
  return known === 1;
}

/**
 * What the sentence splitter flattens or splits at (`\s` but the plain space, and bullet marks): a
 * text holding one, or two spaces in a row, is not a single-spaced paragraph.
 */
export function isIrregularSpaceCode(code: number): boolean {
  if (code < 128) return code >= 9 && code <= 13;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff ||
    // • ▪ ● ◦ ■ ►
    code === 0x2022 ||
    code === 0x25aa ||
    code === 0x25cf ||
    code === 0x25e6 ||
    code === 0x25a0 ||
    code === 0x25ba
  );
}

function isWhitespaceCode(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x3000
  );
}

const APOSTROPHE = 39;
const RIGHT_SINGLE_QUOTE = 0x2019;

function isSkippedChunk(text: string, start: number, end: number): boolean {
  const chunk = text.slice(start, end);
  if (chunk.includes('://') || chunk.includes('@') || chunk.startsWith('www.')) return true;
  const doi = chunk.indexOf('10.');
  return doi !== -1 && /^10\.\d{4,9}\//.test(chunk.slice(doi));
}

/**
 * A reusable copy of a string's UTF-16 code units. `Buffer.write` copies a string in natively (many
 * times faster than charCodeAt in a loop), and the scans below read a typed array faster than they
 * read a string: sentences are slices of the document, and charCodeAt on a slice costs more.
 */
class CodeUnits {
  codes = new Uint16Array(1024);
  private bytes = Buffer.from(this.codes.buffer);

  /** The code units of `text` in `codes[0, text.length)`, valid until the next call. */
  write(text: string): Uint16Array {
    if (text.length > this.codes.length) {
      let capacity = this.codes.length;
      while (capacity < text.length) capacity *= 2;
      this.codes = new Uint16Array(capacity);
      this.bytes = Buffer.from(this.codes.buffer);
    }
    this.bytes.write(text, 0, 'utf16le');
    return this.codes;
  }
}

/**
 * The words found by the last `scanWordOffsets` call: word k spans [starts[k], ends[k]); `flags[k]`
 * has APOSTROPHE_WORD when it holds an inner apostrophe (its token then needs more than
 * lower-casing) and NON_ASCII_WORD when it has a character outside ASCII. `letters`, `digits` (0–9) and `upper` (A–Z)
 * count the characters of all the words; an apostrophe or any other non-digit counts as a letter.
 * `codes` holds the text's code units. `irregularSpacing` tells that the text holds two spaces in a
 * row or a character `isIrregularSpaceCode` names (noticed on the way, for the sentence splitter: see
 * parseRecords in sections.ts). The buffers are reused from call to call (no allocation per
 * sentence): read them before scanning again.
 */
export interface WordSpans {
  starts: Int32Array;
  ends: Int32Array;
  flags: Uint8Array;
  count: number;
  letters: number;
  digits: number;
  upper: number;
  codes: Uint16Array;
  irregularSpacing: boolean;
}

export const APOSTROPHE_WORD = 1;
export const NON_ASCII_WORD = 2;

const scanned = new CodeUnits();

const spans: WordSpans = {
  starts: new Int32Array(1024),
  ends: new Int32Array(1024),
  flags: new Uint8Array(1024),
  count: 0,
  letters: 0,
  digits: 0,
  upper: 0,
  codes: scanned.codes,
  irregularSpacing: false,
};

function growSpans(): void {
  const capacity = spans.starts.length * 2;
  const starts = new Int32Array(capacity);
  const ends = new Int32Array(capacity);
  const flags = new Uint8Array(capacity);
  starts.set(spans.starts);
  ends.set(spans.ends);
  flags.set(spans.flags);
  spans.starts = starts;
  spans.ends = ends;
  spans.flags = flags;
}

function isAsciiDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Whether the character at `at` (an "@", ":" or ".", as `code`) may belong to a chunk that
 * `isSkippedChunk` skips: an "@", "://", "www." or a DOI ("10." then 4–9 digits and "/"). Years
 * before a full stop ("in 2010.") end in "10." but are not DOIs, hence the closer look.
 */
function mayBeInSkippedChunk(
  codes: Uint16Array,
  length: number,
  at: number,
  code: number,
): boolean {
  if (code === 64 /* @ */) return true;
  if (code === 58 /* : */) return at + 2 < length && codes[at + 1] === 47 && codes[at + 2] === 47;
  if (at >= 3 && codes[at - 3] === 119 && codes[at - 2] === 119 && codes[at - 1] === 119)
    return true; // www.
  if (at < 2 || codes[at - 2] !== 49 || codes[at - 1] !== 48) return false; // 10.
  let i = at + 1;
  while (i < length && i - at - 1 < 9 && isAsciiDigitCode(codes[i] as number)) i++;
  return i - at - 1 >= 4 && i < length && codes[i] === 47; /* / */
}

/** Finds the words of a text; see `WordSpans` for where they are and for how long. */
export function scanWordOffsets(text: string): WordSpans {
  const codes = scanned.write(text);
  const n = text.length;
  spans.codes = codes;
  spans.count = 0;
  spans.letters = 0;
  spans.digits = 0;
  spans.upper = 0;
  spans.irregularSpacing = false;
  // Most sentences hold no URL, e-mail address or DOI: scanned whole, they are watched for a
  // character that may start one, and only then scanned again chunk by chunk.
  if (scanWordsInRange(codes, n, 0, n, true)) return spans;
  spans.count = 0;
  spans.irregularSpacing = false;
  let i = 0;
  while (i < n) {
    const spaceStart = i;
    while (i < n && isWhitespaceCode(codes[i] as number)) i++;
    if (i - spaceStart > 1 || (i > spaceStart && codes[spaceStart] !== 32))
      spans.irregularSpacing = true;
    let chunkEnd = i;
    while (chunkEnd < n && !isWhitespaceCode(codes[chunkEnd] as number)) chunkEnd++;
    if (chunkEnd - i <= 6 || !isSkippedChunk(text, i, chunkEnd)) {
      scanWordsInRange(codes, n, i, chunkEnd, false);
    } else {
      for (let j = i; j < chunkEnd; j++)
        if (isIrregularSpaceCode(codes[j] as number)) spans.irregularSpacing = true;
    }
    i = chunkEnd;
  }
  return spans;
}

/**
 * Appends the words of `codes[from, to)` to `spans` (`length`: of the whole text). With `watch`,
 * gives up (returning false, the spans then partial) at the first character that may belong to a
 * skipped chunk.
 */
function scanWordsInRange(
  codes: Uint16Array,
  length: number,
  from: number,
  to: number,
  watch: boolean,
): boolean {
  let { starts, ends, flags: wordFlags, count } = spans;
  let letters = 0;
  let digits = 0;
  let upper = 0;
  let irregularSpacing = false;
  let i = from;
  while (i < to) {
    let code = codes[i] as number;
    if (code === 60 /* < */) {
      // `<dig>`-style placeholder
      let j = i + 1;
      if (j < to && codes[j] === 47) j++;
      const nameStart = j;
      while (j < to && isWordCode(codes[j] as number)) j++;
      if (j > nameStart && j < to && codes[j] === 62 /* > */) {
        i = j + 1;
        continue;
      }
      i++;
      continue;
    }
    if (!isWordCode(code)) {
      if (code === 32) {
        if (i > from && codes[i - 1] === 32) irregularSpacing = true;
      } else if (isIrregularSpaceCode(code)) {
        irregularSpacing = true;
      } else if (
        watch &&
        (code === 46 || code === 58 || code === 64) &&
        mayBeInSkippedChunk(codes, length, i, code)
      ) {
        return false;
      }
      i++;
      continue;
    }
    // One pass per word: find its end and count its characters.
    const start = i;
    let flags = 0;
    for (;;) {
      if (code < 128) {
        const kind = ASCII_WORD_CLASS[code] as number;
        if (kind === DIGIT_CLASS) {
          digits++;
        } else {
          letters++;
          if (kind === UPPER_CLASS) upper++;
        }
      } else {
        letters++;
        flags |= NON_ASCII_WORD;
      }
      i++;
      if (i >= to) break;
      code = codes[i] as number;
      if (isWordCode(code)) continue;
      if (
        (code === APOSTROPHE || code === RIGHT_SINGLE_QUOTE) &&
        i + 1 < to &&
        isWordCode(codes[i + 1] as number)
      ) {
        flags |= APOSTROPHE_WORD;
        continue;
      }
      break;
    }
    if (count === starts.length) {
      growSpans();
      ({ starts, ends, flags: wordFlags } = spans);
    }
    starts[count] = start;
    ends[count] = i;
    wordFlags[count] = flags;
    count++;
  }
  spans.count = count;
  spans.letters += letters;
  spans.digits += digits;
  spans.upper += upper;
  if (irregularSpacing) spans.irregularSpacing = true;
  return true;
}

/** The words of a text as written (case kept), in order. */
export function scanWords(text: string): string[] {
  const found = scanWordOffsets(text);
  const words: string[] = new Array<string>(found.count);
  for (let k = 0; k < found.count; k++) words[k] = text.slice(found.starts[k], found.ends[k]);
  return words;
}

/** Lower-case word tokens of a text, possessive "'s" removed, placeholders like `<dig>` skipped. */
export function wordTokens(text: string): string[] {
  return scanWords(text).map(normaliseToken);
}

/** Counts the words of a text the way a reader would (URLs, placeholders and punctuation excluded). */
export function countWords(text: string): number {
  return scanWordOffsets(text).count;
}

/** The lower-case token of a word as written: apostrophes and a possessive "'s" removed. */
export function normaliseToken(raw: string): string {
  let token = raw.toLowerCase();
  if (token.includes('’')) token = token.replace(/’/g, "'");
  if (token.endsWith("'s")) token = token.slice(0, -2);
  if (token.includes("'")) token = token.replace(/'/g, '');
  return token;
}

const DIGIT = /\p{N}/u;
const LETTER = /\p{L}/gu;

/**
 * Common word endings that show up alone when a PDF breaks a word ("representa tion", "docu ment").
 * A token that is one of them is a fragment, not a term.
 */
const SUFFIX_FRAGMENTS = new Set([
  'tion',
  'tions',
  'sion',
  'sions',
  'ment',
  'ments',
  'ness',
  'ing',
  'ings',
  'ity',
  'ities',
  'ies',
  'ally',
  'ance',
  'ances',
  'ence',
  'ences',
  'ical',
  'ised',
  'ized',
  'ize',
  'ise',
  'able',
  'ible',
  'ous',
  'ive',
  'ively',
  'ation',
  'ations',
  'ational',
  'ture',
  'tures',
  'ial',
  'ially',
  'ism',
  'isms',
  'ist',
  'ists',
  'eous',
  'ious',
  'cal',
  'ted',
  'ses',
  'ers',
  'est',
  'ful',
  'less',
  'ly',
  'ed',
  'er',
  'ent',
  'tive',
  'tic',
  'tics',
]);

/** Tokens shorter than this are never terms (`looksLikeFragment`). */
export const MIN_TERM_LENGTH = 3;

/** DIGIT.test(token), the pattern run only on tokens with characters outside ASCII. */
function hasNumber(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    if (code >= 48 && code <= 57) return true;
    if (code >= 128) return DIGIT.test(token);
  }
  return false;
}

/** True for a token that cannot be a term: too short, mostly digits, a broken-word piece, no vowel. */
export function looksLikeFragment(token: string): boolean {
  if (token.length < MIN_TERM_LENGTH) return true;
  if (SUFFIX_FRAGMENTS.has(token)) return true;
  if (hasNumber(token)) {
    const letters = token.match(LETTER)?.length ?? 0;
    if (letters < 2 || letters < token.length - letters) return true;
  }
  return false;
}

/** True when a lower-case token can carry meaning: not a stopword or filler, not a number, not a fragment. */
export function isSignificantToken(token: string): boolean {
  if (STOPWORDS.has(token)) return false;
  return !looksLikeFragment(token);
}

const LOWER_CASE_ENGLISH_WORD = /^[a-z]+$/;

/**
 * The Porter (1980) stem of a lower-case a–z word (the `stemmer` package); any other token (digits,
 * accents, other scripts: words the algorithm was not written for) as it is.
 */
export function porterStem(token: string): string {
  return LOWER_CASE_ENGLISH_WORD.test(token) ? stemmer(token) : token;
}

const stemCache = new Map<string, string>();
/** Token → its term, or '' for a token that is not significant. */
const significantTermCache = new Map<string, string>();
const CACHE_LIMIT = 100_000;

/** The stem under which a token is counted (Porter for a–z words, the token itself otherwise). */
export function termOf(token: string): string {
  let stem = stemCache.get(token);
  if (stem === undefined) {
    stem = porterStem(token);
    if (stemCache.size >= CACHE_LIMIT) stemCache.clear();
    stemCache.set(token, stem);
  }
  return stem;
}

/** The term of a significant lower-case token, or undefined when the token is not significant. */
export function significantTermOf(token: string): string | undefined {
  let term = significantTermCache.get(token);
  if (term === undefined) {
    term = isSignificantToken(token) ? termOf(token) : '';
    if (significantTermCache.size >= CACHE_LIMIT) significantTermCache.clear();
    significantTermCache.set(token, term);
  }
  return term === '' ? undefined : term;
}

/** The significant terms (stems) of a text, in order, repeats kept. */
export function significantTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of wordTokens(text)) {
    const term = significantTermOf(token);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}
