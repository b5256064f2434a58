/**
 * The words of one document, interned: each significant term gets a small integer id, and every word
 * of every sentence is recorded (offsets in its sentence, term id) in flat typed arrays, so that
 * counting, weighting and comparing sentences works on numbers, and a word seen before is looked up
 * straight from its characters, without making a string for it.
 */
import { normaliseToken, scanWordOffsets, significantTermOf } from './tokens.js';

/** FNV-1a over the UTF-16 code units of text[start, end). */
function hashRange(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

export class TermTable {
  private readonly idByTerm = new Map<string, number>();
  /** Term id → term (a stem). */
  readonly terms: string[] = [];
  /** Term id → occurrences in the document. */
  readonly frequency: number[] = [];
  /**
   * Open-addressing table of lower-case words. A word's characters live in one character pool
   * (compared there directly, faster than through string objects); per slot: where the word starts
   * in the pool (-1: free), its length, hash and term id (-1: not significant).
   */
  private pool = new Uint16Array(65_536);
  private poolLength = 0;
  private slotStart = new Int32Array(4096).fill(-1);
  private slotLength = new Int32Array(4096);
  private slotHash = new Int32Array(4096);
  private slotId = new Int32Array(4096);
  private used = 0;

  get size(): number {
    return this.terms.length;
  }

  /** The id of a lower-case token's term, or -1 when the token is not significant. */
  idOf(token: string): number {
    return this.idOfSpan(token, 0, token.length, hashRange(token, 0, token.length));
  }

  /**
   * The id for the word `text.slice(start, end)`, compared in place with A–Z folded to lower case
   * (other characters must already be lower case); `hash` is that of the lower-case word. A string
   * is made only when the word is new.
   */
  idOfSpan(text: string, start: number, end: number, hash: number): number {
    const mask = this.slotStart.length - 1;
    const length = end - start;
    const pool = this.pool;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = this.slotStart[slot] as number;
      if (at < 0) return this.insert(slot, text, start, end, hash);
      if (this.slotHash[slot] !== hash || this.slotLength[slot] !== length) continue;
      let same = true;
      for (let i = 0; i < length; i++) {
        let code = text.charCodeAt(start + i);
        if (code >= 65 && code <= 90) code += 32;
        if (pool[at + i] !== code) {
          same = false;
          break;
        }
      }
      if (same) return this.slotId[slot] as number;
    }
  }

  private insert(slot: number, text: string, start: number, end: number, hash: number): number {
    const word = text.slice(start, end).toLowerCase();
    const term = significantTermOf(normaliseToken(word));
    let id = -1;
    if (term !== undefined) {
      id = this.idByTerm.get(term) ?? -1;
      if (id < 0) {
        id = this.terms.length;
        this.terms.push(term);
        this.frequency.push(0);
        this.idByTerm.set(term, id);
      }
    }
    if (this.poolLength + word.length > this.pool.length) {
      const grown = new Uint16Array(Math.max(this.pool.length * 2, this.poolLength + word.length));
      grown.set(this.pool);
      this.pool = grown;
    }
    for (let i = 0; i < word.length; i++) this.pool[this.poolLength + i] = word.charCodeAt(i);
    this.slotStart[slot] = this.poolLength;
    this.slotLength[slot] = word.length;
    this.slotHash[slot] = hash;
    this.slotId[slot] = id;
    this.poolLength += word.length;
    this.used++;
    if (this.used * 2 > this.slotStart.length) this.grow();
    return id;
  }

  private grow(): void {
    const capacity = this.slotStart.length * 2;
    const starts = new Int32Array(capacity).fill(-1);
    const lengths = new Int32Array(capacity);
    const hashes = new Int32Array(capacity);
    const ids = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let old = 0; old < this.slotStart.length; old++) {
      const at = this.slotStart[old] as number;
      if (at < 0) continue;
      let slot = (this.slotHash[old] as number) & mask;
      while ((starts[slot] as number) >= 0) slot = (slot + 1) & mask;
      starts[slot] = at;
      lengths[slot] = this.slotLength[old] as number;
      hashes[slot] = this.slotHash[old] as number;
      ids[slot] = this.slotId[old] as number;
    }
    this.slotStart = starts;
    this.slotLength = lengths;
    this.slotHash = hashes;
    this.slotId = ids;
  }
}

/** Every word of the document: offsets within its sentence and its term id (-1: not significant). */
export class WordStore {
  starts = new Int32Array(16_384);
  ends = new Int32Array(16_384);
  terms = new Int32Array(16_384);
  length = 0;

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
}

/**
 * Reads the words of one sentence into the table and the store, counting term frequencies, and
 * returns what the summarizer needs about it. `seen` (term id → last sentence stamp) finds the
 * distinct terms without a Set.
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
  let letters = 0;
  let digits = 0;
  let upper = 0;
  // Lower-cased once for words with letters outside ASCII; offsets stay aligned unless a letter
  // changes length when lower-cased ("İ"), and then such words go through the string path.
  let lower: string | undefined;
  let aligned = true;

  const words = scanWordOffsets(sentence);
  for (let k = 0; k < words.count; k++) {
    const start = words.starts[k] as number;
    const end = words.ends[k] as number;
    let hash = 0x811c9dc5;
    let ascii = true;
    for (let i = start; i < end; i++) {
      let code = sentence.charCodeAt(i);
      if (code >= 48 && code <= 57) {
        digits++;
      } else {
        letters++;
        if (code >= 65 && code <= 90) {
          upper++;
          code += 32;
        } else if (code >= 128) {
          ascii = false;
        }
      }
      hash = Math.imul(hash ^ code, 0x01000193);
    }
    let id: number;
    if (words.apostrophes[k] === 1) {
      id = table.idOf(sentence.slice(start, end).toLowerCase());
    } else if (ascii) {
      id = table.idOfSpan(sentence, start, end, hash);
    } else {
      if (lower === undefined) {
        lower = sentence.toLowerCase();
        aligned = lower.length === sentence.length;
      }
      id = aligned
        ? table.idOfSpan(lower, start, end, hashRange(lower, start, end))
        : table.idOf(sentence.slice(start, end).toLowerCase());
    }
    store.push(start, end, id);
    if (id < 0) continue;
    significantCount++;
    table.frequency[id] = (table.frequency[id] as number) + 1;
    if (seen[id] !== stamp) {
      seen[id] = stamp;
      terms.push(id);
    }
  }
  return { firstWord, wordCount: store.length - firstWord, terms, significantCount, letters, digits, upper };
}
