/**
 * Relevance of merged records to the query, and the three sort orders of `GET /api/search`.
 *
 * score = 0.55 · BM25F (title weighted 3×, abstract 1×, term and length statistics over this result set,
 *               scaled by the best record in the set)
 *       + 0.15 · share of the query's terms found in title or abstract
 *       + 0.10 · the whole query appearing as a phrase in the title
 *       + 0.20 · reciprocal-rank fusion of each provider's own order (k = 60), scaled by the best record
 * Every part is in 0..1, so the score is too.
 */
import type { SearchRecord } from './types.js';

export type SortOrder = 'relevance' | 'date' | 'citations';
const TITLE_WEIGHT = 3;
const ABSTRACT_WEIGHT = 1;
const K1 = 1.2;
const B = 0.75;
const RRF_K = 60;
const WEIGHTS = { lexical: 0.55, coverage: 0.15, phrase: 0.1, providerRank: 0.2 };

const STOPWORDS = new Set(
  (
    'a an and are as at be by for from has have in into is it its of on or that the their this to was were ' +
    'which with we our not but can via using use based than these those been being also such'
  ).split(' '),
);

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;
const nonAsciiWordChar = new Map<number, boolean>();

function isWordChar(code: number): boolean {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
  let known = nonAsciiWordChar.get(code);
  if (known === undefined) {
    known = LETTER_OR_DIGIT.test(String.fromCharCode(code));
    nonAsciiWordChar.set(code, known);
  }
  return known;
}

function normaliseToken(raw: string, ascii: boolean): string {
  const token = ascii ? raw : raw.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return token.length > 3 && token.endsWith('s') && !token.endsWith('ss')
    ? token.slice(0, -1)
    : token;
}

/** Lower-cased, accent-folded word tokens; a plural `s` is dropped so "tools" matches "tool". */
export function tokenize(text: string): string[] {
  const lower = text.toLowerCase();
  const tokens: string[] = [];
  let start = -1;
  let ascii = true;
  for (let index = 0; index <= lower.length; index++) {
    const code = index < lower.length ? lower.charCodeAt(index) : 32;
    if (isWordChar(code)) {
      if (start < 0) {
        start = index;
        ascii = true;
      }
      if (code >= 128) ascii = false;
      continue;
    }
    if (start >= 0) {
      tokens.push(normaliseToken(lower.slice(start, index), ascii));
      start = -1;
    }
  }
  return tokens;
}

function contentWords(text: string): string {
  return tokenize(text)
    .filter((token) => !STOPWORDS.has(token))
    .join(' ');
}

function queryTerms(query: string): string[] {
  const terms = tokenize(query);
  const meaningful = terms.filter((term) => !STOPWORDS.has(term));
  return [...new Set(meaningful.length > 0 ? meaningful : terms)];
}

interface FieldCounts {
  /** Weighted term frequency per query term. */
  weighted: Float64Array;
  /** Whether the term occurs at all. */
  present: Uint8Array;
  /** How many distinct terms occur in the title. */
  titleTerms: number;
  /** Field-weighted length in characters (BM25 only needs lengths relative to the average). */
  length: number;
}

/** Lower-cased text with accents folded, as tokens are. */
function foldForMatching(text: string): string {
  const lower = text.toLowerCase();
  return /[\u0080-\uffff]/.test(lower)
    ? lower.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    : lower;
}

function isWordCode(code: number): boolean {
  return code < 128 ? (code >= 97 && code <= 122) || (code >= 48 && code <= 57) : isWordChar(code);
}

/**
 * Whole-word occurrences of a (stemmed) term in folded text; a plural `s` after it still counts, as the
 * tokenizer drops it. Searching with indexOf, instead of tokenizing every abstract, keeps ranking of
 * hundreds of records within a few milliseconds.
 */
function countOccurrences(haystack: string, term: string): number {
  let count = 0;
  for (let at = haystack.indexOf(term); at >= 0; at = haystack.indexOf(term, at + 1)) {
    if (at > 0 && isWordCode(haystack.charCodeAt(at - 1))) continue;
    let end = at + term.length;
    if (haystack.charCodeAt(end) === 115 && !term.endsWith('s')) end += 1;
    if (end < haystack.length && isWordCode(haystack.charCodeAt(end))) continue;
    count += 1;
  }
  return count;
}

function countQueryTerms(record: SearchRecord, terms: string[]): FieldCounts {
  const weighted = new Float64Array(terms.length);
  const present = new Uint8Array(terms.length);
  const title = foldForMatching(record.title);
  const abstract = foldForMatching(record.abstract);
  let titleTerms = 0;
  for (let index = 0; index < terms.length; index++) {
    const term = terms[index] as string;
    const inTitle = countOccurrences(title, term);
    const inAbstract = countOccurrences(abstract, term);
    weighted[index] = TITLE_WEIGHT * inTitle + ABSTRACT_WEIGHT * inAbstract;
    present[index] = inTitle + inAbstract > 0 ? 1 : 0;
    if (inTitle > 0) titleTerms += 1;
  }
  return {
    weighted,
    present,
    titleTerms,
    length: TITLE_WEIGHT * title.length + ABSTRACT_WEIGHT * abstract.length,
  };
}

/**
 * Scoring for one query. What a record's score needs from that record alone (its title and abstract
 * searched for the query's terms) can be worked out as soon as its provider answers, while slower
 * providers are still awaited: `prepare` does it then, and `score` reuses it for those same records.
 */
export interface RecordScorer {
  prepare(records: SearchRecord[]): void;
  /** Returns new records with `score` set (0..1, four decimals); the input order is kept. */
  score(records: SearchRecord[]): SearchRecord[];
}

export function createRecordScorer(query: string): RecordScorer {
  const terms = queryTerms(query);
  const phraseWords = contentWords(query);
  const phrase = phraseWords.includes(' ') ? phraseWords : null;
  const prepared = new WeakMap<SearchRecord, FieldCounts>();
  return {
    prepare: (records) => {
      for (const record of records) {
        if (!prepared.has(record)) prepared.set(record, countQueryTerms(record, terms));
      }
    },
    score: (records) =>
      scoreWithCounts(
        records,
        records.map((record) => prepared.get(record) ?? countQueryTerms(record, terms)),
        terms,
        phrase,
      ),
  };
}

/** Returns new records with `score` set (0..1, four decimals); the input order is kept. */
export function scoreRecords(records: SearchRecord[], query: string): SearchRecord[] {
  return createRecordScorer(query).score(records);
}

function scoreWithCounts(
  records: SearchRecord[],
  counts: FieldCounts[],
  terms: string[],
  phrase: string | null,
): SearchRecord[] {
  if (records.length === 0) return [];
  const documentCount = records.length;
  const averageLength = counts.reduce((sum, count) => sum + count.length, 0) / documentCount || 1;

  const idf = terms.map((_, index) => {
    const containing = counts.reduce((sum, count) => sum + (count.present[index] ?? 0), 0);
    return Math.log(1 + (documentCount - containing + 0.5) / (containing + 0.5));
  });

  const bm25 = counts.map((count) => {
    let total = 0;
    const norm = K1 * (1 - B + (B * count.length) / averageLength);
    for (let index = 0; index < terms.length; index++) {
      const tf = count.weighted[index] ?? 0;
      if (tf > 0) total += ((idf[index] ?? 0) * tf * (K1 + 1)) / (tf + norm);
    }
    return total;
  });
  const fused = records.map((record) =>
    Object.values(record.ranks ?? {}).reduce((sum, rank) => sum + 1 / (RRF_K + rank), 0),
  );
  const maxBm25 = Math.max(...bm25);
  const maxFused = Math.max(...fused);

  return records.map((record, index) => {
    const count = counts[index] as FieldCounts;
    const lexical = maxBm25 > 0 ? (bm25[index] ?? 0) / maxBm25 : 0;
    const coverage =
      terms.length > 0 ? count.present.reduce((sum, value) => sum + value, 0) / terms.length : 0;
    const phraseInTitle =
      phrase &&
      count.titleTerms === terms.length &&
      ` ${contentWords(record.title)} `.includes(` ${phrase} `)
        ? 1
        : 0;
    const providerRank = maxFused > 0 ? (fused[index] ?? 0) / maxFused : 0;
    const score =
      WEIGHTS.lexical * lexical +
      WEIGHTS.coverage * coverage +
      WEIGHTS.phrase * phraseInTitle +
      WEIGHTS.providerRank * providerRank;
    return { ...record, score: Math.round(Math.min(1, Math.max(0, score)) * 10_000) / 10_000 };
  });
}

/**
 * A sorted copy. `relevance`: score, highest first. `date`: newest first, undated last. `citations`:
 * most cited first, records whose provider publishes no count last. Ties fall back to score, then to the
 * input order (the sort is stable).
 */
export function sortRecords(records: SearchRecord[], sort: SortOrder): SearchRecord[] {
  const byScore = (a: SearchRecord, b: SearchRecord): number => b.score - a.score;
  const copy = [...records];
  if (sort === 'relevance') return copy.sort(byScore);
  if (sort === 'date') {
    return copy.sort((a, b) => {
      if (!a.publishedDate || !b.publishedDate)
        return missingLast(a.publishedDate, b.publishedDate) || byScore(a, b);
      if (a.publishedDate !== b.publishedDate) return a.publishedDate < b.publishedDate ? 1 : -1;
      return byScore(a, b);
    });
  }
  return copy.sort((a, b) => {
    if (!a.citationsKnown || !b.citationsKnown) {
      return missingLast(a.citationsKnown || null, b.citationsKnown || null) || byScore(a, b);
    }
    return b.citations - a.citations || byScore(a, b);
  });
}

function missingLast(a: unknown, b: unknown): number {
  if (a && !b) return -1;
  if (!a && b) return 1;
  return 0;
}

export interface Page<T> {
  results: T[];
  /** Size of the whole merged list the page was cut from. */
  total: number;
  /** True when records exist beyond this page. */
  hasMore: boolean;
}

export function paginate<T>(records: T[], offset: number, limit: number): Page<T> {
  const start = Math.max(0, Math.floor(offset));
  const size = Math.max(0, Math.floor(limit));
  const results = records.slice(start, start + size);
  return { results, total: records.length, hasMore: start + results.length < records.length };
}
