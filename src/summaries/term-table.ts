/**
 * The words of one document, interned: each significant term gets a small integer id, and every word
 * of every sentence is recorded (offsets in its sentence, term id) in flat typed arrays, so that
 * counting, weighting and comparing sentences works on numbers, and a word seen before is looked up
 * straight from its characters, without making a string for it.
 */
import {
  APOSTROPHE_WORD,
  CodeUnits,
  isSignificantToken,
  MIN_TERM_LENGTH,
  normaliseToken,
  scanWordOffsets,
  termOf,
} from './tokens.js';

/** FNV-1a over the code units codes[start, end). */
function hashCodes(codes: Uint16Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (codes[i] as number), 0x01000193);
  return hash;
}

/**
 * An open-addressing table of lower-case words, each with an integer value. A word's characters live
 * in one character pool and are compared there directly (faster than through string objects), so a
 * word is looked up straight from the code units of the text it is in: `codes[start, end)` with A–Z
 * folded to lower case (other characters must already be lower case), `hash` being that of the
 * lower-case word.
 */
class WordIndex {
  private pool: Uint16Array;
  private poolLength = 0;
  /** Per slot: where the word starts in the pool (-1: free), its length, hash and value. */
  private slotStart: Int32Array;
  private slotLength: Int32Array;
  private slotHash: Int32Array;
  private slotValue: Int32Array;
  private used = 0;

  /** `expectedWords`: how many words it will likely hold (sizes it, to spare growing). */
  constructor(expectedWords: number) {
    let slots = 1024;
    while (slots < expectedWords * 2) slots *= 2;
    this.pool = new Uint16Array(slots * 4);
    this.slotStart = new Int32Array(slots).fill(-1);
    this.slotLength = new Int32Array(slots);
    this.slotHash = new Int32Array(slots);
    this.slotValue = new Int32Array(slots);
  }

  get size(): number {
    return this.used;
  }

  /** The slot holding the word, or `-1 - slot` for the free slot where it would go. */
  find(codes: Uint16Array, start: number, end: number, hash: number): number {
    const mask = this.slotStart.length - 1;
    const length = end - start;
    const pool = this.pool;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = this.slotStart[slot] as number;
      if (at < 0) return -1 - slot;
      if (this.slotHash[slot] !== hash || this.slotLength[slot] !== length) continue;
      let same = true;
      for (let i = 0; i < length; i++) {
        let code = codes[start + i] as number;
        if (code >= 65 && code <= 90) code += 32;
        if (pool[at + i] !== code) {
          same = false;
          break;
        }
      }
      if (same) return slot;
    }
  }

  valueAt(slot: number): number {
    return this.slotValue[slot] as number;
  }

  /** Adds a word at the free slot `find` gave for it (no other word added since). */
  add(freeSlot: number, codes: Uint16Array, start: number, end: number, hash: number, value: number): void {
    const length = end - start;
    if (this.poolLength + length > this.pool.length) {
      const grown = new Uint16Array(Math.max(this.pool.length * 2, this.poolLength + length));
      grown.set(this.pool);
      this.pool = grown;
    }
    for (let i = 0; i < length; i++) {
      let code = codes[start + i] as number;
      if (code >= 65 && code <= 90) code += 32;
      this.pool[this.poolLength + i] = code;
    }
    this.slotStart[freeSlot] = this.poolLength;
    this.slotLength[freeSlot] = length;
    this.slotHash[freeSlot] = hash;
    this.slotValue[freeSlot] = value;
    this.poolLength += length;
    this.used++;
    if (this.used * 2 > this.slotStart.length) this.grow();
  }

  private grow(): void {
    const capacity = this.slotStart.length * 2;
    const starts = new Int32Array(capacity).fill(-1);
    const lengths = new Int32Array(capacity);
    const hashes = new Int32Array(capacity);
    const values = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let old = 0; old < this.slotStart.length; old++) {
      const at = this.slotStart[old] as number;
      if (at < 0) continue;
      let slot = (this.slotHash[old] as number) & mask;
      while ((starts[slot] as number) >= 0) slot = (slot + 1) & mask;
      starts[slot] = at;
      lengths[slot] = this.slotLength[old] as number;
      hashes[slot] = this.slotHash[old] as number;
      values[slot] = this.slotValue[old] as number;
    }
    this.slotStart = starts;
    this.slotLength = lengths;
    this.slotHash = hashes;
    this.slotValue = values;
  }
}

/**
 * Lower-case word → its significant term, shared by all documents: a paper's words were mostly seen
 * in earlier papers, and then neither a string for the word nor its stem is made again. Bounded:
 * started afresh past MEMO_WORDS words.
 */
let memoWords = new WordIndex(4096);
/** Value in `memoWords` → term ('' for a word that is not significant). */
let memoTerms: string[] = [];
export const MEMO_WORDS = 100_000;

/**
 * The term of the lower-case word `codes[start, end)` (A–Z folded), or '' when it is not significant;
 * `text` is the string of those code units (a string is made of the word only when it is new).
 * `plain`: the word has letters and digits only, and lower-cased is its own token.
 */
function termOfWord(text: string, codes: Uint16Array, start: number, end: number, hash: number, plain: boolean): string {
  let found = memoWords.find(codes, start, end, hash);
  if (found >= 0) return memoTerms[memoWords.valueAt(found)] as string;
  const word = text.slice(start, end).toLowerCase();
  const token = plain ? word : normaliseToken(word);
  const term = isSignificantToken(token) ? termOf(token) : '';
  if (memoWords.size >= MEMO_WORDS) {
    clearTermMemo();
    found = memoWords.find(codes, start, end, hash);
  }
  memoWords.add(-1 - found, codes, start, end, hash, memoTerms.length);
  memoTerms.push(term);
  return term;
}

/** Empties the shared word → term memo (when full; and for tests: results must not depend on it). */
export function clearTermMemo(): void {
  memoWords = new WordIndex(4096);
  memoTerms = [];
}

/** How many words the shared memo holds (for tests). */
export function termMemoSize(): number {
  return memoWords.size;
}

/** The code units of a token looked up by `TermTable.idOf` (apart from those of the scanned sentence). */
const tokenCodes = new CodeUnits();

export class TermTable {
  private readonly idByTerm = new Map<string, number>();
  /** Term id → term (a stem). */
  readonly terms: string[] = [];
  /** Term id → occurrences in the document. */
  readonly frequency: number[] = [];
  /** The document's words → term id (-1: not significant). */
  private readonly words: WordIndex;

  /** `textLength`: of the document (sizes the table; distinct words grow far slower than the text). */
  constructor(textLength = 0) {
    this.words = new WordIndex(Math.min(16_384, Math.ceil(textLength / 64)));
  }

  get size(): number {
    return this.terms.length;
  }

  /** The id of a lower-case token's term, or -1 when the token is not significant. */
  idOf(token: string): number {
    const codes = tokenCodes.write(token);
    return this.lookUp(token, codes, 0, token.length, hashCodes(codes, 0, token.length), false);
  }

  /**
   * The id for the word `text.slice(start, end)`, made of letters a–z, A–Z and digits only, compared
   * in place (in `codes`, the code units of `text`) with A–Z folded to lower case; `hash` is that of
   * the lower-case word.
   */
  idOfSpan(text: string, codes: Uint16Array, start: number, end: number, hash: number): number {
    return this.lookUp(text, codes, start, end, hash, true);
  }

  private lookUp(text: string, codes: Uint16Array, start: number, end: number, hash: number, plain: boolean): number {
    const found = this.words.find(codes, start, end, hash);
    if (found >= 0) return this.words.valueAt(found);
    const id = this.idOfTerm(termOfWord(text, codes, start, end, hash, plain));
    this.words.add(-1 - found, codes, start, end, hash, id);
    return id;
  }

  private idOfTerm(term: string): number {
    if (term === '') return -1;
    let id = this.idByTerm.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.frequency.push(0);
      this.idByTerm.set(term, id);
    }
    return id;
  }
}

/** Every word of the document: offsets within its sentence and its term id (-1: not significant). */
export class WordStore {
  starts: Int32Array;
  ends: Int32Array;
  terms: Int32Array;
  length = 0;

  /** `textLength`: of the text to be read (sizes the arrays: words take 6 characters or so each). */
  constructor(textLength = 0) {
    const capacity = Math.max(1024, Math.ceil(textLength / 5));
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.terms = new Int32Array(capacity);
  }

  push(start: number, end: number, term: number): void {
    if (this.length === this.starts.length) this.grow();
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.terms[this.length] = term;
    this.length++;
  }

  private grow(): void {
    const capacity = this.starts.length * 2;
    const starts = new Int32Array(capacity);
    const ends = new Int32Array(capacity);
    const terms = new Int32Array(capacity);
    starts.set(this.starts);
    ends.set(this.ends);
    terms.set(this.terms);
    this.starts = starts;
    this.ends = ends;
    this.terms = terms;
  }
}

export interface SentenceWords {
  /** Index of the sentence's first word in the WordStore. */
  firstWord: number;
  wordCount: number;
  /** Distinct significant term ids, in order of first use. */
  terms: number[];
  /** Significant words, repeats counted. */
  significantCount: number;
  letters: number;
  digits: number;
  upper: number;
  /** The sentence holds two spaces in a row, other whitespace or a bullet mark (see WordSpans). */
  irregularSpacing: boolean;
}

/**
 * Reads the words of one sentence into the table and the store, counting term frequencies, and
 * returns what the summarizer needs about it. `seen` (term id → last sentence stamp) finds the
 * distinct terms without a Set; a stamp must not be used for two sentences.
 */
export function readSentenceWords(
  sentence: string,
  stamp: number,
  table: TermTable,
  store: WordStore,
  seen: number[],
): SentenceWords {
  const firstWord = store.length;
  const terms: number[] = [];
  let significantCount = 0;
  // Lower-cased once for words with letters outside ASCII (rare): the whole sentence, as case rules
  // can depend on the letters around; offsets stay aligned unless a letter changes length when
  // lower-cased ("İ"), and then such words are lower-cased alone.
  let lower: string | undefined;
  let aligned = true;

  const words = scanWordOffsets(sentence);
  const codes = words.codes;
  const frequency = table.frequency;
  for (let k = 0; k < words.count; k++) {
    const start = words.starts[k] as number;
    const end = words.ends[k] as number;
    const flags = words.flags[k] as number;
    let id: number;
    if ((flags & APOSTROPHE_WORD) !== 0) {
      id = table.idOf(sentence.slice(start, end).toLowerCase());
    } else if (flags === 0) {
      // Plain ASCII words are their own tokens once lower-cased: one too short to be a term ("a",
      // "of", "we": a quarter of all words) needs no look-up.
      id = end - start < MIN_TERM_LENGTH ? -1 : table.idOfSpan(sentence, codes, start, end, words.hashes[k] as number);
    } else {
      if (lower === undefined) {
        lower = sentence.toLowerCase();
        aligned = lower.length === sentence.length;
      }
      id = table.idOf(aligned ? lower.slice(start, end) : sentence.slice(start, end).toLowerCase());
    }
    store.push(start, end, id);
    if (id < 0) continue;
    significantCount++;
    frequency[id] = (frequency[id] as number) + 1;
    if (seen[id] !== stamp) {
      seen[id] = stamp;
      terms.push(id);
    }
  }
  const { letters, digits, upper, irregularSpacing } = words;
  return { firstWord, wordCount: store.length - firstWord, terms, significantCount, letters, digits, upper, irregularSpacing };
}

/**
 * Counts of ordered pairs of term ids (adjacent words forming a phrase). Pairs are kept as entries
 * 0..size-1 in order of first sight, found through an open-addressing table of numbers: no key
 * object or boxed number per pair (a Map keyed by `first * 2^20 + second` boxes every key past 2^31).
 */
export class TermPairCounts {
  readonly firsts: number[] = [];
  readonly seconds: number[] = [];
  readonly counts: number[] = [];
  /** Slot → entry + 1 (0: free). */
  private slots = new Int32Array(1024);

  get size(): number {
    return this.counts.length;
  }

  add(first: number, second: number): void {
    const mask = this.slots.length - 1;
    for (let slot = pairHash(first, second) & mask; ; slot = (slot + 1) & mask) {
      const entry = (this.slots[slot] as number) - 1;
      if (entry < 0) {
        this.slots[slot] = this.counts.length + 1;
        this.firsts.push(first);
        this.seconds.push(second);
        this.counts.push(1);
        if (this.counts.length * 2 > this.slots.length) this.grow();
        return;
      }
      if (this.firsts[entry] === first && this.seconds[entry] === second) {
        this.counts[entry] = (this.counts[entry] as number) + 1;
        return;
      }
    }
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let entry = 0; entry < this.counts.length; entry++) {
      let slot = pairHash(this.firsts[entry] as number, this.seconds[entry] as number) & mask;
      while ((slots[slot] as number) !== 0) slot = (slot + 1) & mask;
      slots[slot] = entry + 1;
    }
    this.slots = slots;
  }
}

function pairHash(first: number, second: number): number {
  const hash = Math.imul(first, 0x9e3779b1) ^ second;
  return Math.imul(hash ^ (hash >>> 15), 0x85ebca6b) >>> 0;
}

/**
 * Takes back the words read since the store held `firstWord` words (their counts included), for a
 * paragraph read again differently. Terms they added to the table stay, with no occurrences.
 */
export function unreadWords(table: TermTable, store: WordStore, firstWord: number): void {
  const frequency = table.frequency;
  for (let word = firstWord; word < store.length; word++) {
    const id = store.terms[word] as number;
    if (id >= 0) frequency[id] = (frequency[id] as number) - 1;
  }
  store.length = firstWord;
}
