/**
 * The words of one document: each significant term gets a small integer id, and every word of every
 * sentence is recorded (offsets in its sentence, term id) in flat typed arrays, so that counting,
 * weighting and comparing sentences works on numbers.
 */
import {
  APOSTROPHE_WORD,
  isSignificantToken,
  MIN_TERM_LENGTH,
  normaliseToken,
  scanWordOffsets,
  termOf,
} from './tokens.js';

export class TermTable {
  private readonly idByTerm = new Map<string, number>();
  /** The document's lower-case words → term id (-1: not significant): each word is stemmed once. */
  private readonly idByWord = new Map<string, number>();
  /** Term id → term (a stem). */
  readonly terms: string[] = [];
  /** Term id → occurrences in the document. */
  readonly frequency: number[] = [];

  get size(): number {
    return this.terms.length;
  }

  /** The id of a lower-case token's term, or -1 when the token is not significant. */
  idOf(token: string): number {
    return this.lookUp(token, false);
  }

  /** The id of a lower-case word made of letters a–z and digits only (its own token). */
  idOfPlainWord(word: string): number {
    return this.lookUp(word, true);
  }

  private lookUp(word: string, plain: boolean): number {
    let id = this.idByWord.get(word);
    if (id === undefined) {
      const token = plain ? word : normaliseToken(word.toLowerCase());
      id = isSignificantToken(token) ? this.idOfTerm(termOf(token)) : -1;
      this.idByWord.set(word, id);
    }
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
      id =
        end - start < MIN_TERM_LENGTH
          ? -1
          : table.idOfPlainWord(sentence.slice(start, end).toLowerCase());
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
  return {
    firstWord,
    wordCount: store.length - firstWord,
    terms,
    significantCount,
    letters,
    digits,
    upper,
    irregularSpacing,
  };
}

/** Counts of ordered pairs of term ids (adjacent words forming a phrase), as entries 0..size-1 in order of first sight. */
export class TermPairCounts {
  readonly firsts: number[] = [];
  readonly seconds: number[] = [];
  readonly counts: number[] = [];
  /** `first second` → entry. */
  private readonly entries = new Map<string, number>();

  get size(): number {
    return this.counts.length;
  }

  add(first: number, second: number): void {
    const key = `${first} ${second}`;
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.counts[entry] = (this.counts[entry] as number) + 1;
      return;
    }
    this.entries.set(key, this.counts.length);
    this.firsts.push(first);
    this.seconds.push(second);
    this.counts.push(1);
  }
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
