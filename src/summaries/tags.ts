/**
 * Tags: the text's most telling terms and two-word phrases, each shown as it is written in the text.
 */
import { KthLargest } from './heap.js';
import type { SentenceRecord } from './sections.js';
import type { SummaryMode } from './summarize.js';
import { TermPairCounts, type TermTable, type WordStore } from './term-table.js';

/** How a term is written in the text: its surface forms and how often each is seen. */
export class FormTally {
  readonly forms: string[] = [];
  readonly counts: number[] = [];

  /** The form counted last: the likeliest to come again. */
  private last = 0;

  /** Counts `text.slice(start, end)` without making a string for a form already seen. */
  add(text: string, start: number, end: number): void {
    const forms = this.forms;
    let found =
      this.last < forms.length && isAt(forms[this.last] as string, text, start, end)
        ? this.last
        : -1;
    for (let i = 0; found < 0 && i < forms.length; i++)
      if (isAt(forms[i] as string, text, start, end)) found = i;
    if (found < 0) {
      found = forms.length;
      forms.push(text.slice(start, end));
      this.counts.push(0);
    }
    this.counts[found] = (this.counts[found] as number) + 1;
    this.last = found;
  }

  /** The most frequent form (ties: the first in code-unit order, for determinism). */
  mostFrequent(): string | undefined {
    let best: string | undefined;
    let bestCount = -1;
    for (let i = 0; i < this.forms.length; i++) {
      const form = this.forms[i] as string;
      const count = this.counts[i] as number;
      if (count > bestCount || (count === bestCount && best !== undefined && form < best)) {
        best = form;
        bestCount = count;
      }
    }
    return best;
  }
}

/** Whether `text[start, end)` is `form`. */
function isAt(form: string, text: string, start: number, end: number): boolean {
  return form.length === end - start && text.startsWith(form, start);
}

/**
 * The displayed form of a term: as written inside sentences, so names keep their capital
 * ("Bigtable", "Malawi") and ordinary words are lower case; a word seen only at sentence starts is
 * lower-cased unless it is an acronym or mixed case ("BERT", "FearNet").
 */
export function displayForm(
  midSentence: FormTally | undefined,
  sentenceStart: FormTally | undefined,
  fallback: string,
): string {
  const inside = midSentence?.mostFrequent();
  if (inside !== undefined) return inside;
  const atStart = sentenceStart?.mostFrequent() ?? fallback;
  return /^\p{Lu}\p{Ll}+$/u.test(atStart) ? atStart.toLowerCase() : atStart;
}

/** The end of a word as displayed: a possessive "'s" or "’s" left out. */
function withoutPossessive(text: string, start: number, end: number): number {
  if (end - start < 2 || text.charCodeAt(end - 1) !== 115 /* s */) return end;
  const apostrophe = text.charCodeAt(end - 2);
  return apostrophe === 39 || apostrophe === 0x2019 ? end - 2 : end;
}

function hasDigit(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    if (code >= 48 && code <= 57) return true;
  }
  return false;
}

/**
 * Stems of words frequent in papers of every field: fine inside a phrase ("language model"), weak
 * as a tag on their own, so alone they rank lower.
 */
const GENERIC_TAG_TERMS = new Set([
  'model',
  'task',
  'data',
  'train',
  'perform',
  'system',
  'problem',
  'process',
  'analysi',
  'inform',
  'level',
  'time',
  'test',
  'featur',
  'experi',
  'evalu',
  'improv',
  'increas',
  'effect',
  'measur',
  'factor',
  'paramet',
  'research',
  'level',
  'object',
  'structur',
  'function',
  'case',
  'group',
  'rate',
  'ratio',
  'sampl',
  'develop',
  'user',
  'applic',
  'compar',
  'comparison',
  'baselin',
  'accuraci',
  'score',
  'output',
  'input',
]);

/**
 * The words of `records` that `selected` (indexed by term id + 1, so that index 0 stands for the words
 * that are no term) marks, in order, passed to `visit` one sentence at a time. The word loop has no
 * branch on the words (a word is kept by advancing the count by its mark): stopwords and terms
 * alternate unpredictably, and a branch on them is mispredicted often.
 *
 * The word loops of extractTags are functions of their own so that each is optimised with the
 * feedback of its own runs: inlined in one long function, run once per summary, they would be compiled
 * on stack before its later code had run, and deoptimised there again and again.
 */
function forSelectedWords(
  records: SentenceRecord[],
  store: WordStore,
  selected: Uint8Array,
  visit: (record: SentenceRecord, words: Int32Array, count: number) => void,
): void {
  const wordTerms = store.terms;
  let longest = 0;
  for (const record of records) longest = Math.max(longest, record.wordCount);
  const words = new Int32Array(longest);
  for (const record of records) {
    const end = record.firstWord + record.wordCount;
    let count = 0;
    for (let word = record.firstWord; word < end; word++) {
      words[count] = word;
      count += selected[(wordTerms[word] as number) + 1] as number;
    }
    if (count > 0) visit(record, words, count);
  }
}

/** Phrases: pairs of adjacent words that are both `phraseable` (indexed by term id + 1) and not the same term. */
function countPhrases(
  records: SentenceRecord[],
  store: WordStore,
  phraseable: Uint8Array,
): TermPairCounts {
  const pairs = new TermPairCounts();
  const wordTerms = store.terms;
  forSelectedWords(records, store, phraseable, (_record, words, count) => {
    for (let k = 1; k < count; k++) {
      const word = words[k] as number;
      if (words[k - 1] !== word - 1) continue;
      const previous = wordTerms[word - 1] as number;
      const term = wordTerms[word] as number;
      if (previous !== term) pairs.add(previous, term);
    }
  });
  return pairs;
}

/** Tallies how the `wanted` terms (indexed by term id + 1) are written, at sentence starts and inside sentences. */
function tallySurfaceForms(
  records: SentenceRecord[],
  store: WordStore,
  wanted: Uint8Array,
  midSentence: Array<FormTally | undefined>,
  sentenceStart: Array<FormTally | undefined>,
): void {
  const wordTerms = store.terms;
  forSelectedWords(records, store, wanted, (record, words, count) => {
    for (let k = 0; k < count; k++) {
      const word = words[k] as number;
      const term = wordTerms[word] as number;
      const tally = word === record.firstWord ? sentenceStart : midSentence;
      let forms = tally[term];
      if (!forms) {
        forms = new FormTally();
        tally[term] = forms;
      }
      const start = store.starts[word] as number;
      forms.add(
        record.text,
        start,
        withoutPossessive(record.text, start, store.ends[word] as number),
      );
    }
  });
}

export function extractTags(
  records: SentenceRecord[],
  table: TermTable,
  store: WordStore,
  titleTerms: Set<number>,
  mode: SummaryMode,
  limit: number,
): string[] {
  const frequency = table.frequency;
  const minCount = mode === 'deep' ? 2 : 1;
  const minBigram = mode === 'deep' ? 3 : 2;
  const usable = records.filter(
    (record) => record.section !== 'back' && record.section !== 'front',
  );
  const numeric = new Uint8Array(table.size);
  for (let id = 0; id < table.size; id++) numeric[id] = hasDigit(table.terms[id] as string) ? 1 : 0;

  // Phrases: two adjacent significant words, each frequent enough to be able to form one.
  const phraseable = new Uint8Array(table.size + 1);
  for (let id = 0; id < table.size; id++)
    phraseable[id + 1] = (frequency[id] as number) >= minBigram && numeric[id] === 0 ? 1 : 0;
  const pairs = countPhrases(usable, store, phraseable);

  // Scores first, as numbers; objects are made only for the few that can make the list.
  const top = new KthLargest(limit * 6);
  const unigramScore = new Float64Array(table.size);
  for (let id = 0; id < table.size; id++) {
    const count = frequency[id] as number;
    if (count < minCount || numeric[id] === 1) continue;
    const generic = GENERIC_TAG_TERMS.has(table.terms[id] as string) ? 0.4 : 1;
    const score = count * (titleTerms.has(id) ? 2 : 1) * generic;
    unigramScore[id] = score;
    top.add(score);
  }
  /** Pair entry → score (0: too rare to be a phrase). */
  const bigramScore = new Float64Array(pairs.size);
  for (let pair = 0; pair < pairs.size; pair++) {
    const count = pairs.counts[pair] as number;
    if (count < minBigram) continue;
    const inTitle =
      titleTerms.has(pairs.firsts[pair] as number) && titleTerms.has(pairs.seconds[pair] as number);
    const score = count * 2.5 * (inTitle ? 2 : 1);
    bigramScore[pair] = score;
    top.add(score);
  }
  const threshold = top.threshold();

  const candidates: Array<{ score: number; parts: number[]; key: string }> = [];
  for (let id = 0; id < table.size; id++) {
    const score = unigramScore[id] as number;
    if (score > 0 && score >= threshold)
      candidates.push({ score, parts: [id], key: table.terms[id] as string });
  }
  for (let pair = 0; pair < pairs.size; pair++) {
    const score = bigramScore[pair] as number;
    if (score === 0 || score < threshold) continue;
    const parts = [pairs.firsts[pair] as number, pairs.seconds[pair] as number];
    candidates.push({ score, parts, key: parts.map((part) => table.terms[part]).join(' ') });
  }
  // How each shortlisted term is written, inside sentences and at their starts (only those terms).
  const wanted = new Uint8Array(table.size + 1);
  for (const candidate of candidates) for (const part of candidate.parts) wanted[part + 1] = 1;
  const midSentence = new Array<FormTally | undefined>(table.size);
  const sentenceStart = new Array<FormTally | undefined>(table.size);
  tallySurfaceForms(usable, store, wanted, midSentence, sentenceStart);
  const display = (term: number): string =>
    displayForm(midSentence[term], sentenceStart[term], table.terms[term] as string);

  // The largest phrase count each word takes part in: a word seen mostly inside one phrase
  // ("multi" of "multi-view") is not a tag of its own.
  const inPhrases = new Int32Array(table.size);
  for (let pair = 0; pair < pairs.size; pair++) {
    const count = pairs.counts[pair] as number;
    if (count < minBigram) continue;
    for (const part of [pairs.firsts[pair] as number, pairs.seconds[pair] as number]) {
      inPhrases[part] = Math.max(inPhrases[part] as number, count);
    }
  }
  for (const candidate of candidates) {
    if (candidate.parts.length !== 1) continue;
    const term = candidate.parts[0] as number;
    if ((frequency[term] as number) <= 1.5 * (inPhrases[term] as number)) candidate.score = 0;
    // A participle ("inspired", "proposed") describes rather than names a topic.
    else if (/[^e]ed$/.test(display(term))) candidate.score *= 0.3;
  }
  candidates.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  const chosen: number[][] = [];
  const covered = new Set<number>();
  for (const candidate of candidates) {
    if (chosen.length >= limit || candidate.score <= 0) break;
    // A word already shown inside a chosen phrase (or a phrase whose words are shown) adds nothing.
    if (candidate.parts.every((part) => covered.has(part))) continue;
    if (candidate.parts.length > 1 && candidate.parts.some((part) => covered.has(part))) continue;
    chosen.push(candidate.parts);
    for (const part of candidate.parts) covered.add(part);
  }
  return chosen.map((parts) => parts.map(display).join(' '));
}
