/**
 * Sentence splitting for scholarly English. A full stop ends a sentence unless it belongs to an
 * abbreviation ("e.g.", "i.e.", "et al.", "Fig. 2", "Eq. (3)", "vs."), an initial ("J. R. Smith"),
 * a number ("3.14"), a URL or a DOI; a numbered citation after the full stop ("… shown.[12] Next",
 * "… shown.12 Next") stays with the sentence it supports. Blank lines always end a sentence.
 *
 * Text that is written entirely in lower case (some corpora are) has no capital letters to mark a
 * sentence start; it is detected and split on full stops with the same abbreviation rules.
 */
import { ENGLISH_STOPWORDS } from './stopwords.js';

export interface SentenceSplitOptions {
  /** Treat the text as lower-cased (no capitals at sentence starts). Detected when not given. */
  caseless?: boolean;
}

/** Abbreviations after which a full stop never ends a sentence. */
const ALWAYS_CONTINUE = new Set([
  'e.g',
  'i.e',
  'cf',
  'vs',
  'viz',
  'approx',
  'ca',
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'mt',
  'sp',
  'spp',
  'subsp',
  'ssp',
  'pv',
  'var',
  'cv',
  'aff',
  'nr',
  'a.k.a',
  'w.r.t',
  'i.i.d',
  'ibid',
  'op',
  'esp',
  'incl',
  'ph.d',
  'dept',
  'univ',
  'corp',
  'assoc',
  'proc',
  'conf',
  'trans',
  'intl',
  'natl',
  'vol',
  'vols',
  'pp',
]);

/** Abbreviations that are followed by a number or a bracket ("Fig. 2", "Eq. (3)", "No. 5", "Sec. IV"). */
const BEFORE_NUMBER = new Set([
  'fig',
  'figs',
  'eq',
  'eqs',
  'eqn',
  'eqns',
  'no',
  'nos',
  'sec',
  'secs',
  'sect',
  'ref',
  'refs',
  'tab',
  'tabs',
  'chap',
  'ch',
  'art',
  'thm',
  'lem',
  'prop',
  'def',
  'cor',
  'alg',
  'app',
  'appx',
  'ex',
  'p',
  'para',
  'suppl',
  'fn',
  'col',
  'cols',
  'ed',
  'eds',
  'rev',
  'ver',
]);

/**
 * Abbreviations that may also end a sentence ("… by Smith et al. The …", "… and so on, etc. We …"):
 * a break is made only when the next word is a typical sentence opener.
 */
const MAY_END_SENTENCE = new Set([
  'al',
  'etc',
  'resp',
  'inc',
  'ltd',
  'co',
  'jr',
  'sr',
  'min',
  'max',
  'sec',
  'hr',
  'hrs',
  'mins',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'st',
  'ave',
  'est',
  'gen',
  'u.s',
  'u.k',
  'e.u',
  'u.n',
  'a.m',
  'p.m',
]);

/** Capitalised words that typically open a sentence, used where a full stop is ambiguous. */
const SENTENCE_OPENERS = new Set([
  ...ENGLISH_STOPWORDS,
  'however',
  'moreover',
  'furthermore',
  'finally',
  'additionally',
  'similarly',
  'overall',
  'instead',
  'here',
  'thus',
  'hence',
  'therefore',
  'unlike',
  'using',
  'although',
  'table',
  'figure',
  'results',
  'our',
  'in',
  'next',
  'then',
  'consequently',
  'specifically',
  'importantly',
  'interestingly',
  'notably',
  'recently',
  'previous',
  'previously',
  'later',
  'one',
  'two',
  'both',
  'each',
  'all',
  'most',
  'some',
  'many',
  'such',
]);

const OPENING_PUNCTUATION = new Set(['(', '[', '"', '“', '‘', "'", '«']);
const BULLETS = /\s*[•▪●◦■►]\s+/;

const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\u00a0';
}

/** True when a text has (almost) no capital letters, i.e. was lower-cased as a whole. */
export function isCaselessText(text: string): boolean {
  let letters = 0;
  let upper = 0;
  const limit = Math.min(text.length, 20_000);
  // Past this many capitals the share is at least 0.004 however many letters follow: ordinary prose
  // is told within its first few thousand characters.
  const enoughCapitals = limit * 0.004;
  for (let i = 0; i < limit; i++) {
    const code = text.charCodeAt(i);
    if (code >= 97 && code <= 122) letters++;
    else if (code >= 65 && code <= 90) {
      letters++;
      upper++;
      if (upper >= enoughCapitals) return false;
    }
  }
  return letters >= 40 && upper / letters < 0.004;
}

/** Splits text into sentences, in order. Paragraph breaks (blank lines) and bullet marks always end one. */
export function splitSentences(text: string, options: SentenceSplitOptions = {}): string[] {
  const caseless = options.caseless ?? isCaselessText(text);
  const sentences: string[] = [];
  for (const paragraph of splitParagraphs(text)) splitBlock(paragraph, caseless, sentences);
  return sentences;
}

function isBlankLineSpaceCode(code: number): boolean {
  // [ \t\r\f\v]
  return code === 32 || code === 9 || code === 13 || code === 12 || code === 11;
}

/**
 * The blocks between blank lines: `text.split(/\n[ \t\r\f\v]*\n/)`, found with `indexOf` instead of
 * a regular expression (which tries a match at every character of the text).
 */
export function splitParagraphs(text: string): string[] {
  const blocks: string[] = [];
  let blockStart = 0;
  for (let at = text.indexOf('\n'); at !== -1;) {
    let j = at + 1;
    while (j < text.length && isBlankLineSpaceCode(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) === 10) {
      blocks.push(text.slice(blockStart, at));
      blockStart = j + 1;
      at = text.indexOf('\n', j + 1);
    } else {
      at = text.indexOf('\n', j);
    }
  }
  blocks.push(text.slice(blockStart));
  return blocks;
}

const HAS_BULLET = /[•▪●◦■►]/;
/** Runs of whitespace and whitespace other than a plain space (single spaces are left as they are: faster). */
const WHITESPACE_TO_FLATTEN = /\s{2,}|[^\S ]/g;
/** Any `\s` character but the plain space, or a bullet mark. */
const SPECIAL_SPACE_OR_BULLET =
  /[\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff•▪●◦■►]/;

/**
 * False when a text holds no bullet mark and no whitespace but single plain spaces (most paragraphs:
 * cleaned PDF text has one line per paragraph). One character-class test and one indexOf tell,
 * faster than the split and replace they spare (and than a loop over the characters).
 */
function mayNeedFlattening(text: string): boolean {
  return text.indexOf('  ') !== -1 || SPECIAL_SPACE_OR_BULLET.test(text);
}

/** `text.replace(/\s+/g, ' ')`: every run of whitespace made one plain space. */
export function collapseWhitespace(text: string): string {
  return mayNeedFlattening(text) ? text.replace(WHITESPACE_TO_FLATTEN, ' ') : text;
}

/**
 * `splitBlock` for a paragraph known to be single-spaced and free of bullet marks (no whitespace
 * but single plain spaces inside it): then nothing needs flattening, and the paragraph is not checked.
 */
export function splitSingleSpacedBlock(paragraph: string, caseless: boolean, out: string[]): void {
  const flat = paragraph.trim();
  if (flat) splitParagraph(flat, caseless, out);
}

/** Splits one paragraph (no blank lines inside) into sentences, appending them to `out`. */
export function splitBlock(paragraph: string, caseless: boolean, out: string[]): void {
  if (!mayNeedFlattening(paragraph)) {
    const flat = paragraph.trim();
    if (flat) splitParagraph(flat, caseless, out);
    return;
  }
  const items = HAS_BULLET.test(paragraph) ? paragraph.split(BULLETS) : [paragraph];
  for (const item of items) {
    const flat = item.replace(WHITESPACE_TO_FLATTEN, ' ').trim();
    if (flat) splitParagraph(flat, caseless, out);
  }
}

/** `isSpace` by character code. */
function isSpaceCode(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0;
}

/** Whether a character code is one of OPENING_PUNCTUATION. */
function isOpeningPunctuationCode(code: number): boolean {
  return (
    code === 40 ||
    code === 91 ||
    code === 34 ||
    code === 0x201c ||
    code === 0x2018 ||
    code === 39 ||
    code === 0xab
  );
}

/** Where the word before position `end` (exclusive) starts, opening brackets or quotes left out. */
function wordStartBefore(text: string, end: number): number {
  let start = end;
  while (start > 0 && !isSpaceCode(text.charCodeAt(start - 1))) start--;
  while (start < end && isOpeningPunctuationCode(text.charCodeAt(start))) start++;
  return start;
}

/** A bracketed numeric citation such as "[12]", "[3, 4]" or "[5–7]" starting at `at`, or -1. */
function citationEnd(text: string, at: number): number {
  if (text[at] !== '[') return -1;
  let i = at + 1;
  let sawDigit = false;
  while (i < text.length && i - at < 40) {
    const ch = text[i] as string;
    if (ch === ']') return sawDigit ? i + 1 : -1;
    if (DIGIT.test(ch)) sawDigit = true;
    else if (ch !== ',' && ch !== ' ' && ch !== '-' && ch !== '–' && ch !== ';') return -1;
    i++;
  }
  return -1;
}

/**
 * `canStartSentence(nextWord(text, at), caseless)`, without making the word when its first letter (a
 * capital or a digit) already tells.
 */
function canStartSentenceAt(text: string, at: number, caseless: boolean): boolean {
  let start = at;
  while (start < text.length && isOpeningPunctuationCode(text.charCodeAt(start))) start++;
  const code = text.charCodeAt(start);
  if ((code >= 65 && code <= 90) || (code >= 48 && code <= 57)) return true;
  return canStartSentence(nextWord(text, at), caseless);
}

function nextWord(text: string, at: number): string {
  let end = at;
  while (end < text.length && !isSpace(text[end])) end++;
  let word = text.slice(at, end);
  while (word.length > 0 && OPENING_PUNCTUATION.has(word[0] as string)) word = word.slice(1);
  return word;
}

function isOpener(word: string, caseless: boolean): boolean {
  const first = word[0];
  if (first === undefined) return false;
  if (!caseless && !UPPER.test(first)) return false;
  // The next word is itself an initial ("J. A. Smith"): a name goes on.
  if (/^\p{L}\.$/u.test(word)) return false;
  const bare = withoutTrailingNonLetters(word).toLowerCase();
  return SENTENCE_OPENERS.has(bare);
}

/**
 * `word.replace(/[^\p{L}]+$/u, '')` in one backward pass: the pattern retries from every character of a
 * long run of non-letters that does not end the word (quadratic on "A111…1b", and PDF text comes from
 * anyone).
 */
function withoutTrailingNonLetters(word: string): string {
  let end = word.length;
  while (end > 0) {
    // A surrogate pair is one character: test the code point that ends at `end`.
    const start =
      end >= 2 &&
      /[\uDC00-\uDFFF]/.test(word[end - 1] as string) &&
      /[\uD800-\uDBFF]/.test(word[end - 2] as string)
        ? end - 2
        : end - 1;
    if (LETTER.test(word.slice(start, end))) break;
    end = start;
  }
  return word.slice(0, end);
}

/** Whether the word at a position can begin a sentence at all (capital, digit, or lower case in caseless text). */
function canStartSentence(word: string, caseless: boolean): boolean {
  const first = word[0];
  if (first === undefined) return false;
  const code = first.charCodeAt(0);
  if (code < 128) {
    const upperOrDigit = (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
    if (caseless) return upperOrDigit || (code >= 97 && code <= 122);
    if (upperOrDigit) return true;
    return code >= 97 && code <= 122 && /^\p{Ll}+\p{Lu}/u.test(word);
  }
  if (caseless) return LETTER_OR_DIGIT.test(first);
  if (UPPER.test(first) || DIGIT.test(first)) return true;
  // camelCase names open sentences in lower case: "iCaRL is …", "eBay …".
  return LOWER.test(first) && /^\p{Ll}+\p{Lu}/u.test(word);
}

function stripLeadingPunctuation(word: string): string {
  let start = 0;
  while (start < word.length && !LETTER_OR_DIGIT.test(word[start] as string)) start++;
  return start === 0 ? word : word.slice(start);
}

/** Longest abbreviation in the lists above; a longer word before a full stop is an ordinary word. */
const LONGEST_ABBREVIATION = 7;

function isBoundaryAfterFullStop(prevWord: string, next: string, caseless: boolean): boolean {
  if (prevWord.length > LONGEST_ABBREVIATION + 2 && !prevWord.includes('.'))
    return canStartSentence(next, caseless);
  const bare = stripLeadingPunctuation(prevWord).toLowerCase();
  if (ALWAYS_CONTINUE.has(bare)) return false;
  if (BEFORE_NUMBER.has(bare)) {
    const first = next[0] ?? '';
    if (DIGIT.test(first) || first === '(' || /^[IVXivx]+\b/.test(next)) return false;
    return isOpener(next, caseless);
  }
  if (MAY_END_SENTENCE.has(bare)) return isOpener(next, caseless);
  // An initial ("J. Smith", "p. syringae") or a dotted abbreviation ("U.S.") unless a sentence clearly starts.
  if (bare.length === 1 && LETTER.test(bare)) return isOpener(next, caseless);
  if (
    bare.length <= LONGEST_ABBREVIATION &&
    bare.includes('.') &&
    /^(?:\p{L}\.)+\p{L}$/u.test(bare)
  ) {
    return isOpener(next, caseless);
  }
  return canStartSentence(next, caseless);
}

const SPACE = 32;

function isTerminatorCode(code: number): boolean {
  return code === 46 || code === 33 || code === 63 || code === 0x2026;
}

function isClosingCode(code: number): boolean {
  return (
    code === 41 ||
    code === 93 ||
    code === 34 ||
    code === 39 ||
    code === 0x201d ||
    code === 0x2019 ||
    code === 0xbb
  );
}

function isAsciiDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The first index of `character` at or after `from`, reusing `known` (an earlier answer) while it still holds. */
function nextAt(text: string, character: string, known: number, from: number): number {
  return known === -1 || known >= from ? known : text.indexOf(character, from);
}

/** Splits a paragraph whose whitespace is already single spaces. */
function splitParagraph(text: string, caseless: boolean, out: string[]): void {
  let sentenceStart = 0;
  let i = 0;
  const n = text.length;
  // Where each terminator next occurs at or after i (-1: nowhere; -2: not looked for yet), found
  // with indexOf and kept until passed: terminators are sparse, so this reads few characters.
  let dot = -2;
  let question = -2;
  let exclamation = -2;
  let ellipsis = -2;
  while (i < n) {
    dot = nextAt(text, '.', dot, i);
    question = nextAt(text, '?', question, i);
    exclamation = nextAt(text, '!', exclamation, i);
    ellipsis = nextAt(text, '…', ellipsis, i);
    let found = dot;
    if (question !== -1 && (found === -1 || question < found)) found = question;
    if (exclamation !== -1 && (found === -1 || exclamation < found)) found = exclamation;
    if (ellipsis !== -1 && (found === -1 || ellipsis < found)) found = ellipsis;
    if (found === -1) break;
    i = found;
    const punctStart = i;
    let fullStopOnly = true;
    while (i < n && isTerminatorCode(text.charCodeAt(i))) {
      if (text.charCodeAt(i) !== 46) fullStopOnly = false;
      i++;
    }
    while (i < n && isClosingCode(text.charCodeAt(i))) i++;
    let end = i;
    // A bracketed citation glued to the full stop: "… shown.[12] Next".
    if (end < n && text.charCodeAt(end) === 91) {
      const cited = citationEnd(text, end);
      if (cited > 0) end = cited;
    }
    // A superscript-style numeric citation glued to the full stop: "… shown.12 Next".
    if (!caseless && end < n && isAsciiDigitCode(text.charCodeAt(end)) && punctStart > 0) {
      const before = text[punctStart - 1] as string;
      if (LOWER.test(before) || before === ')') {
        let j = end;
        while (j < n && /[\d,–-]/u.test(text[j] as string) && j - end < 12) j++;
        if (j < n && text.charCodeAt(j) === SPACE && UPPER.test(text[j + 1] ?? '')) end = j;
      }
    }
    if (end < n && text.charCodeAt(end) !== SPACE) continue; // "3.14", "www.example.org", "e.g.," …
    let nextStart = end;
    while (nextStart < n && text.charCodeAt(nextStart) === SPACE) nextStart++;
    if (nextStart >= n) break;
    // "… shown. [12] Next": the citation belongs to the sentence before it.
    let citationStop = -1;
    if (text.charCodeAt(nextStart) === 91) {
      const cited = citationEnd(text, nextStart);
      if (cited > 0) {
        citationStop = cited;
        nextStart = cited;
        while (nextStart < n && text.charCodeAt(nextStart) === SPACE) nextStart++;
        if (nextStart >= n) break;
      }
    }
    let boundary: boolean;
    if (!fullStopOnly) {
      boundary = canStartSentenceAt(text, nextStart, caseless);
    } else {
      const previousStart = wordStartBefore(text, punctStart);
      // A long word with no full stop of its own is no abbreviation: only the next word decides.
      const ordinaryWord =
        punctStart - previousStart > LONGEST_ABBREVIATION + 2 &&
        text.indexOf('.', previousStart) === punctStart;
      boundary = ordinaryWord
        ? canStartSentenceAt(text, nextStart, caseless)
        : isBoundaryAfterFullStop(
            text.slice(previousStart, punctStart),
            nextWord(text, nextStart),
            caseless,
          );
    }
    if (!boundary) {
      i = end;
      continue;
    }
    const stop = citationStop > 0 ? citationStop : end;
    const sentence = text.slice(sentenceStart, stop).trim();
    if (sentence) out.push(sentence);
    sentenceStart = nextStart;
    i = nextStart;
  }
  const rest = text.slice(sentenceStart).trim();
  if (rest) out.push(rest);
}
