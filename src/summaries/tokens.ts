/**
 * Unicode-aware word tokens and the test for a "significant" term (one that can say what a text is
 * about): not a stopword or academic filler, not a number, not a fragment of a broken word.
 */
import { porterStem } from './porter-stemmer.js';
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

function isWordCode(code: number): boolean {
  if (code < 128) {
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  }
  let known = wordCharTable[code] as number;
  if (known === 0) {
    known = WORD_CHAR_OUTSIDE_ASCII.test(String.fromCharCode(code)) ? 1 : 2;
    wordCharTable[code] = known;
  }
  return known === 1;
}

function isWhitespaceCode(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || (code >= 0x2000 && code <= 0x200a) || code === 0x3000;
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
 * Offsets of the words found by the last `scanWordOffsets` call: word k spans [starts[k], ends[k]) and
 * `apostrophes[k]` is 1 when it holds an inner apostrophe (its token then needs more than
 * lower-casing). The buffers are reused from call to call (no allocation per sentence): read them
 * before scanning again.
 */
export interface WordSpans {
  starts: Int32Array;
  ends: Int32Array;
  apostrophes: Uint8Array;
  count: number;
}

const spans: WordSpans = {
  starts: new Int32Array(1024),
  ends: new Int32Array(1024),
  apostrophes: new Uint8Array(1024),
  count: 0,
};

function pushSpan(start: number, end: number, apostrophe: boolean): void {
  if (spans.count === spans.starts.length) {
    const capacity = spans.starts.length * 2;
    const starts = new Int32Array(capacity);
    const ends = new Int32Array(capacity);
    const apostrophes = new Uint8Array(capacity);
    starts.set(spans.starts);
    ends.set(spans.ends);
    apostrophes.set(spans.apostrophes);
    spans.starts = starts;
    spans.ends = ends;
    spans.apostrophes = apostrophes;
  }
  spans.starts[spans.count] = start;
  spans.ends[spans.count] = end;
  spans.apostrophes[spans.count] = apostrophe ? 1 : 0;
  spans.count++;
}

/** Finds the words of a text; see `WordSpans` for where they are and for how long. */
export function scanWordOffsets(text: string): WordSpans {
  spans.count = 0;
  // Most sentences hold no URL, e-mail address or DOI: then there are no chunks to look at.
  const mayHoldSkippedChunk =
    text.indexOf('@') !== -1 || text.indexOf('://') !== -1 || text.indexOf('www.') !== -1 || text.indexOf('10.') !== -1;
  if (!mayHoldSkippedChunk) {
    scanWordsInRange(text, 0, text.length);
    return spans;
  }
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && isWhitespaceCode(text.charCodeAt(i))) i++;
    let chunkEnd = i;
    while (chunkEnd < n && !isWhitespaceCode(text.charCodeAt(chunkEnd))) chunkEnd++;
    if (chunkEnd - i <= 6 || !isSkippedChunk(text, i, chunkEnd)) scanWordsInRange(text, i, chunkEnd);
    i = chunkEnd;
  }
  return spans;
}

function scanWordsInRange(text: string, from: number, to: number): void {
  let i = from;
  while (i < to) {
    const code = text.charCodeAt(i);
    if (code === 60 /* < */) {
      // `<dig>`-style placeholder
      let j = i + 1;
      if (text.charCodeAt(j) === 47) j++;
      const nameStart = j;
      while (j < to && isWordCode(text.charCodeAt(j))) j++;
      if (j > nameStart && j < to && text.charCodeAt(j) === 62 /* > */) {
        i = j + 1;
        continue;
      }
      i++;
      continue;
    }
    if (!isWordCode(code)) {
      i++;
      continue;
    }
    const start = i;
    let apostrophe = false;
    i++;
    while (i < to) {
      const c = text.charCodeAt(i);
      if (isWordCode(c)) {
        i++;
      } else if ((c === APOSTROPHE || c === RIGHT_SINGLE_QUOTE) && i + 1 < to && isWordCode(text.charCodeAt(i + 1))) {
        apostrophe = true;
        i += 2;
      } else {
        break;
      }
    }
    pushSpan(start, i, apostrophe);
  }
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
  'tion', 'tions', 'sion', 'sions', 'ment', 'ments', 'ness', 'ing', 'ings', 'ity', 'ities', 'ies', 'ally',
  'ance', 'ances', 'ence', 'ences', 'ical', 'ised', 'ized', 'ize', 'ise', 'able', 'ible', 'ous', 'ive', 'ively',
  'ation', 'ations', 'ational', 'ture', 'tures', 'ial', 'ially', 'ism', 'isms', 'ist', 'ists', 'eous', 'ious',
  'cal', 'ted', 'ses', 'ers', 'est', 'ful', 'less', 'ly', 'ed', 'er', 'ent', 'tive', 'tic', 'tics',
]);

/** True for a token that cannot be a term: too short, mostly digits, a broken-word piece, no vowel. */
export function looksLikeFragment(token: string): boolean {
  if (token.length < 3) return true;
  if (SUFFIX_FRAGMENTS.has(token)) return true;
  if (DIGIT.test(token)) {
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
