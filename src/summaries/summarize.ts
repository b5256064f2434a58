/**
 * The extractive summarizer: tokenise, drop stopwords, split sentences, score sentences by word
 * frequency, take the top N in their original order. Pure, deterministic, no I/O.
 *
 * How a sentence is scored:
 * - each significant term (stemmed, stopwords and academic filler removed) weighs the square root
 *   of its frequency in the document, more when it is also in the title;
 * - a sentence scores the sum of its distinct terms' weights divided by the square root of its
 *   length in significant tokens (so neither long nor short sentences win by length alone);
 * - that is multiplied by where the sentence sits (abstract, conclusion, opening and closing parts of
 *   the text count more; related work, acknowledgements less) and by what it says about itself
 *   (sentences stating a contribution or finding, "we propose", "results show", count more; ones
 *   mostly made of citations, figure references or paper road-maps count less).
 * Sentences are chosen greedily; after each pick the weights of the terms it covers are lowered
 * (redundancy control, as in SumBasic) and sentences too similar to a chosen one are skipped.
 */
import { normalizeCharacters } from './clean-text.js';
import { collapseWhitespace, isCaselessText, splitBlock, splitParagraphs, splitSingleSpacedBlock } from './sentences.js';
import { readSentenceWords, TermPairCounts, TermTable, unreadWords, WordStore, type SentenceWords } from './term-table.js';
import { wordTokens } from './tokens.js';

export type SummaryMode = 'quick' | 'deep';

export interface SummarizeInput {
  title?: string;
  /** Quick mode: the abstract. Deep mode: the paper's text (cleaned with `cleanPdfText` when from a PDF). */
  text: string;
  mode: SummaryMode;
}

/** Variant A (extractive fields; docs/design.md, Dialects). A type alias, so it also passes as a plain record. */
export type SummaryVariantA = {
  /** One or two sentences. */
  tldr: string;
  /** The top sentences in their original order: up to 6 in deep mode, up to 5 in quick mode. */
  bullets: string[];
  /** Top significant terms of the text. */
  tags: string[];
  readingTimeMinutes: number;
  confidence: 'medium';
};

/** Variant B (docs/design.md, Dialects). */
export type SummaryVariantB = {
  summary: {
    abstract: string;
    keyPoints: string[];
    conclusion: string;
    keywords: string[];
  };
  metadata: {
    wordCount: number;
    /** Minutes to read the source text. */
    readingTime: number;
    /** Share (0..1) of the text's significant term mass that the chosen sentences cover. */
    confidence: number;
  };
};

/** Both dialects in one object; a presenter picks the one a request asked for. */
export type Summary = SummaryVariantA & SummaryVariantB;

export function toSummaryVariantA(summary: Summary): SummaryVariantA {
  const { tldr, bullets, tags, readingTimeMinutes, confidence } = summary;
  return { tldr, bullets, tags, readingTimeMinutes, confidence };
}

export function toSummaryVariantB(summary: Summary): SummaryVariantB {
  return { summary: summary.summary, metadata: summary.metadata };
}

/** Words a minute for reading academic prose. */
const READING_WORDS_PER_MINUTE = 200;
const DEEP_BULLETS = 6;
const QUICK_BULLETS = 5;
const DEEP_TAGS = 8;
const QUICK_TAGS = 6;
/** Two sentences sharing more than this share of their terms are near-duplicates. */
const NEAR_DUPLICATE = 0.5;
/** After a pick, the weights of the terms it covers are multiplied by this (redundancy control). */
const REDUNDANCY_DECAY = 0.7;
/** Past this many words an abstract section without a following heading is taken to be the body. */
const ABSTRACT_MAX_WORDS = 400;

type SectionKind =
  | 'front'
  | 'abstract'
  | 'introduction'
  | 'related'
  | 'body'
  | 'conclusion'
  | 'back';

interface SentenceRecord {
  text: string;
  index: number;
  section: SectionKind;
  /** Distinct significant term ids. */
  terms: number[];
  /** Index of the first word in the document's WordStore (offsets in `text`, term ids). */
  firstWord: number;
  /** Significant words counted with repeats (for length normalisation). */
  significantCount: number;
  wordCount: number;
  candidate: boolean;
  /**
   * Positional and cue multipliers. Until `priorExact`, an upper bound: the cue patterns are only
   * run on sentences that come near being chosen (see selectSentences).
   */
  prior: number;
  priorExact: boolean;
  /** Section, position and title multipliers (no pattern needed). */
  basePrior: number;
  /** Whether the sentence states a contribution or finding ("we propose", "results show"); set with the exact prior. */
  contribution: boolean;
}

const SECTION_PATTERNS: ReadonlyArray<readonly [RegExp, SectionKind]> = [
  [/^(?:abstract|summary)$/i, 'abstract'],
  [/^(?:introduction|background|motivation)$/i, 'introduction'],
  [/^(?:related work|previous work|prior work|literature review|related literature)$/i, 'related'],
  [/^(?:conclusions?|concluding remarks|conclusions? and future work|summary and conclusions?|discussion and conclusions?)$/i, 'conclusion'],
  [/^(?:acknowledge?ments?|references|bibliography|funding|appendix.*|supplementary.*)$/i, 'back'],
];
/** The letters the names above start with: a name starting otherwise needs none of the patterns. */
const SECTION_INITIALS = 'abcdfilmprs';

function mayNameSection(name: string): boolean {
  const initial = name.charCodeAt(0) | 32;
  return initial >= 97 && initial <= 122 && SECTION_INITIALS.includes(String.fromCharCode(initial));
}

/** Whether a text ends with . ! ? ; or , (as a sentence or a clause does, and a heading does not). */
function endsLikeSentence(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last === 46 || last === 33 || last === 63 || last === 59 || last === 44;
}

const HEADING_NUMBER = /^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[IVX]{1,4}\.)\s+/;

/** A short block without sentence punctuation that names a section. */
function headingKind(block: string): SectionKind | undefined {
  if (block.length > 80 || endsLikeSentence(block)) return undefined;
  const number = HEADING_NUMBER.exec(block);
  let name = number ? block.slice(number[0].length) : block;
  const last = name.charCodeAt(name.length - 1);
  if (last === 58 /* : */ || last === 46 /* . */) name = name.slice(0, -1);
  name = name.trim();
  const numbered = number !== null;
  if (mayNameSection(name)) for (const [pattern, kind] of SECTION_PATTERNS) if (pattern.test(name)) return kind;
  if (numbered && name.split(/\s+/).length <= 8 && /^\p{Lu}/u.test(name)) return 'body';
  return undefined;
}

const SECTION_PRIOR: Record<SectionKind, number> = {
  front: 0.6,
  abstract: 3.5,
  introduction: 1.1,
  related: 0.7,
  body: 1,
  conclusion: 1.3,
  back: 0.2,
};

/** Sentences that state what the paper does or finds. */
// The cue patterns run on the lower-cased sentence (faster than case-insensitive patterns).
/** Sentences that state what the paper does or finds. */
const CONTRIBUTION_CUE =
  /\b(?:we|this (?:paper|work|study|article)|here we|our (?:results|findings|work|study|approach|method|model|system|analysis|experiments))\s+(?:\w+\s+)?(?:propose|present|introduce|describe|develop|show|demonstrate|find|found|report|investigate|examine|study|evaluate|conclude|suggest|provide|address|identify|achieve|outperform|obtain|observe|focus)|\b(?:in this (?:paper|work|study|article)|in conclusion|in summary|to summari[sz]e|taken together|overall,|these (?:results|findings|data) (?:suggest|indicate|show|demonstrate)|(?:results|findings|analysis|experiments) (?:suggest|indicate|show|demonstrate|reveal|confirm)|we conclude|our main contribution)\b/;
const ACKNOWLEDGEMENT_CUE =
  /\b(?:we|the authors?)\s+(?:would like to\s+)?(?:thank|acknowledge|are grateful|gratefully)\b|\b(?:supported|funded)\s+(?:in part\s+)?by\b|\bgrants?\s+(?:no\.?\s*|number\s*)?[a-z-]*\d/;
const ROADMAP_CUE =
  /\b(?:the (?:rest|remainder) of (?:this|the) (?:paper|article)|is (?:organi[sz]ed|structured) as follows|in section \d|section \d (?:describes|presents|discusses|introduces|shows|concludes))/;
const FIGURE_REFERENCE = /\b(?:fig(?:ure)?s?\.?|tables?|tab\.)\s*\d/;
const CAPTION_START = /^(?:fig(?:ure)?|table|tab)\.?\s*[\dIVX]+\s*[.:]/i;

/** CAPTION_START.test(text), the pattern run only on texts that begin with its f or t. */
function startsLikeCaption(text: string): boolean {
  const first = text.charCodeAt(0) | 32;
  return (first === 102 /* f */ || first === 116 /* t */) && CAPTION_START.test(text);
}
const CITATION = /\[\d+(?:[,–-]\s*\d+)*\]|\(\s*[\p{Lu}][^()]{0,80}?(?:19|20)\d{2}[a-z]?\s*\)|<cit>|\bet al\./gu;
const REFERENCE_ENTRY = /(?:19|20)\d{2}[a-z]?\.\s.*\b(?:Proceedings|pages|pp\.|Journal|In:|Vol\.|Press)\b/;

interface Weights {
  /** Term id → weight (the selection works on a copy). */
  weight: Float64Array;
  /** Term id → frequency in the text. */
  frequency: number[];
  totalMass: number;
}

function isCandidate(text: string, words: SentenceWords, mode: SummaryMode): boolean {
  const minWords = mode === 'quick' ? 4 : 7;
  if (words.wordCount < minWords || words.wordCount > 80) return false;
  if (words.significantCount < 2) return false;
  // The counts first, the patterns last: they only run on sentences that pass everything else.
  const { letters, digits, upper } = words;
  if (letters < text.length * 0.55 || digits > letters * 0.25) return false;
  // A sentence in capitals is a heading or a running title.
  if (upper >= letters * 0.5) return false;
  if (text.includes('@')) return false;
  return !startsLikeCaption(text) && !(digits > 0 && REFERENCE_ENTRY.test(text));
}

/** The largest multiplier the cue patterns can add (a contribution statement). */
function contributionFactor(mode: SummaryMode): number {
  return mode === 'quick' ? 1.4 : 1.6;
}

/** Section, position and title overlap: the part of the prior that needs no pattern. */
function basePrior(record: SentenceRecord, relativePosition: number, mode: SummaryMode, titleTerms: Set<number>): number {
  let prior = SECTION_PRIOR[record.section];
  if (mode === 'deep' && record.section !== 'abstract') {
    // Authors open with the problem and the contribution and close with what they found.
    if (relativePosition < 0.1) prior *= 1.15;
    else if (relativePosition > 0.9) prior *= 1.1;
  }
  if (titleTerms.size > 0) {
    let shared = 0;
    for (const term of record.terms) if (titleTerms.has(term)) shared++;
    prior *= 1 + 0.5 * Math.min(1, shared / Math.min(titleTerms.size, 4));
  }
  return prior;
}

/** Completes a sentence's prior with what its words say: contribution, acknowledgement, citations, … */
function settlePrior(record: SentenceRecord, mode: SummaryMode): void {
  if (record.priorExact) return;
  const text = record.text;
  const lower = text.toLowerCase();
  record.contribution = CONTRIBUTION_CUE.test(lower);
  let prior = record.basePrior * cueFactor(lower);
  if (record.contribution) prior *= contributionFactor(mode);
  const citations = text.match(CITATION)?.length ?? 0;
  if (citations > 0) prior *= Math.max(0.4, 0.8 ** citations);
  if (text.endsWith('?')) prior *= 0.7;
  record.prior = prior;
  record.priorExact = true;
}

/** Words one of the cue patterns needs; a single scan rules most sentences out. */
const ANY_CUE_WORD = /thank|acknowledg|grate|support|fund|grant|section|organi|structured|remainder|rest of|fig|tab/;

function cueFactor(lower: string): number {
  if (!ANY_CUE_WORD.test(lower)) return 1;
  let factor = 1;
  if (ACKNOWLEDGEMENT_CUE.test(lower)) factor *= 0.1;
  if (ROADMAP_CUE.test(lower)) factor *= 0.3;
  if (FIGURE_REFERENCE.test(lower)) factor *= 0.75;
  return factor;
}

function buildWeights(table: TermTable, sentenceCount: number, titleTerms: Set<number>, mode: SummaryMode): Weights {
  // In a long text a term seen once says little about the topic.
  const minFrequency = mode === 'deep' && sentenceCount > 40 ? 2 : 1;
  const weight = new Float64Array(table.size);
  let totalMass = 0;
  for (let id = 0; id < table.size; id++) {
    const count = table.frequency[id] as number;
    totalMass += count;
    if (count < minFrequency) continue;
    weight[id] = Math.sqrt(count) * (titleTerms.has(id) ? 1.5 : 1);
  }
  return { weight, frequency: table.frequency, totalMass };
}

function sentenceScore(record: SentenceRecord, weight: Float64Array): number {
  if (record.significantCount === 0) return 0;
  let sum = 0;
  for (const term of record.terms) sum += weight[term] as number;
  return (sum / Math.sqrt(record.significantCount)) * record.prior;
}

/** Shared terms relative to the smaller of the two term sets (`chosen` marks a sentence's terms). */
function overlap(terms: number[], chosen: Uint8Array, chosenSize: number): number {
  if (terms.length === 0 || chosenSize === 0) return 0;
  let shared = 0;
  for (const term of terms) shared += chosen[term] as number;
  return shared / Math.min(terms.length, chosenSize);
}

interface ScoredRecord {
  record: SentenceRecord;
  score: number;
  /** The pick round in which `score` was computed. */
  round: number;
}

function byScoreThenPosition(a: ScoredRecord, b: ScoredRecord): number {
  return b.score - a.score || a.record.index - b.record.index;
}

/**
 * Scored sentences, best first (byScoreThenPosition, a total order: the same sequence as sorting
 * them), in a binary heap: building it is linear, where a sort of a thousand candidates is not, and
 * only the few best are ever taken.
 */
class ScoreQueue {
  constructor(private readonly items: ScoredRecord[]) {
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  get size(): number {
    return this.items.length;
  }

  push(entry: ScoredRecord): void {
    const items = this.items;
    let i = items.length;
    items.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (byScoreThenPosition(items[parent] as ScoredRecord, entry) <= 0) break;
      items[i] = items[parent] as ScoredRecord;
      i = parent;
    }
    items[i] = entry;
  }

  /** Takes the best entry (the queue must not be empty). */
  pop(): ScoredRecord {
    const items = this.items;
    const top = items[0] as ScoredRecord;
    const last = items.pop() as ScoredRecord;
    if (items.length > 0) {
      items[0] = last;
      this.down(0);
    }
    return top;
  }

  private down(start: number): void {
    const items = this.items;
    const entry = items[start] as ScoredRecord;
    let i = start;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= items.length) break;
      const right = child + 1;
      if (right < items.length && byScoreThenPosition(items[right] as ScoredRecord, items[child] as ScoredRecord) < 0) child = right;
      if (byScoreThenPosition(entry, items[child] as ScoredRecord) <= 0) break;
      items[i] = items[child] as ScoredRecord;
      i = child;
    }
    items[i] = entry;
  }
}

/**
 * Picks up to `count` sentences greedily with redundancy control; returns them in pick order.
 * Weights only ever decrease and a prior is first an upper bound, so a score computed earlier is an
 * upper bound: candidates are queued by their last known score and only the head is re-scored
 * ("lazy greedy"), which gives the same picks as re-scoring every candidate each round at a fraction
 * of the cost.
 */
function selectSentences(candidates: SentenceRecord[], weights: Weights, count: number, mode: SummaryMode): SentenceRecord[] {
  const weight = Float64Array.from(weights.weight);
  const scored: ScoredRecord[] = [];
  for (const record of candidates) {
    const score = sentenceScore(record, weight);
    // Round -1: the score rests on an upper-bound prior and is settled when the sentence comes up.
    if (score > 0) scored.push({ record, score, round: -1 });
  }
  const queue = new ScoreQueue(scored);
  const chosen: SentenceRecord[] = [];
  const chosenMarks: Uint8Array[] = [];
  let round = 0;
  while (chosen.length < count && queue.size > 0) {
    const head = queue.pop();
    const duplicate = chosenMarks.some(
      (marks, i) => overlap(head.record.terms, marks, (chosen[i] as SentenceRecord).terms.length) > NEAR_DUPLICATE,
    );
    if (duplicate) continue;
    if (head.round !== round) {
      settlePrior(head.record, mode);
      head.score = sentenceScore(head.record, weight);
      head.round = round;
      if (head.score > 0) queue.push(head);
      continue;
    }
    chosen.push(head.record);
    const marks = new Uint8Array(weight.length);
    for (const term of head.record.terms) {
      marks[term] = 1;
      weight[term] = (weight[term] as number) * REDUNDANCY_DECAY;
    }
    chosenMarks.push(marks);
    round++;
  }
  return chosen;
}

/** How a term is written in the text: its surface forms and how often each is seen. */
class FormTally {
  readonly forms: string[] = [];
  readonly counts: number[] = [];

  /** The form counted last: the likeliest to come again. */
  private last = 0;

  /** Counts `text.slice(start, end)` without making a string for a form already seen. */
  add(text: string, start: number, end: number): void {
    const forms = this.forms;
    let found = this.last < forms.length && isAt(forms[this.last] as string, text, start, end) ? this.last : -1;
    for (let i = 0; found < 0 && i < forms.length; i++) if (isAt(forms[i] as string, text, start, end)) found = i;
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
function displayForm(midSentence: FormTally | undefined, sentenceStart: FormTally | undefined, fallback: string): string {
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

/**
 * The k-th largest of some positive scores (the smallest when there are fewer than k): kept in a
 * min-heap of the k largest seen, so no sort of all scores is needed.
 */
class TopScores {
  private readonly heap: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.heap = new Float64Array(Math.max(1, k));
  }

  add(score: number): void {
    const heap = this.heap;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if ((heap[parent] as number) <= score) break;
        heap[i] = heap[parent] as number;
        i = parent;
      }
      heap[i] = score;
      return;
    }
    if (score <= (heap[0] as number)) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && (heap[child + 1] as number) < (heap[child] as number)) child++;
      if ((heap[child] as number) >= score) break;
      heap[i] = heap[child] as number;
      i = child;
    }
    heap[i] = score;
  }

  /** The k-th largest score added, or +Infinity when none was. */
  threshold(): number {
    return this.size > 0 ? (this.heap[0] as number) : Number.POSITIVE_INFINITY;
  }
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
const GENERIC_TAG_TERMS = new Set(
  [
    'model', 'task', 'data', 'train', 'perform', 'system', 'problem', 'process', 'analysi', 'inform', 'level',
    'time', 'test', 'featur', 'experi', 'evalu', 'improv', 'increas', 'effect', 'measur', 'factor', 'paramet',
    'research', 'level', 'object', 'structur', 'function', 'case', 'group', 'rate', 'ratio', 'sampl', 'develop',
    'user', 'applic', 'compar', 'comparison', 'baselin', 'accuraci', 'score', 'output', 'input',
  ],
);

/**
 * The words of `records` that `selected` (indexed by term id + 1, so that index 0 stands for the words
 * that are no term) marks, in order, passed to `visit` one sentence at a time. The word loop has no
 * branch on the words (a word is kept by advancing the count by its mark): stopwords and terms
 * alternate unpredictably, and a branch on them is mispredicted often.
 *
 * The word loops of extractTags are functions of their own so that each is optimised with the
 * feedback of its own runs: inlined in one long function, run once per summary, they were compiled on
 * stack before its later code had run, and deoptimised there again and again.
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
function countPhrases(records: SentenceRecord[], store: WordStore, phraseable: Uint8Array): TermPairCounts {
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
      forms.add(record.text, start, withoutPossessive(record.text, start, store.ends[word] as number));
    }
  });
}

function extractTags(
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
  const usable = records.filter((record) => record.section !== 'back' && record.section !== 'front');
  const numeric = new Uint8Array(table.size);
  for (let id = 0; id < table.size; id++) numeric[id] = hasDigit(table.terms[id] as string) ? 1 : 0;

  // Phrases: two adjacent significant words, each frequent enough to be able to form one.
  const phraseable = new Uint8Array(table.size + 1);
  for (let id = 0; id < table.size; id++) phraseable[id + 1] = (frequency[id] as number) >= minBigram && numeric[id] === 0 ? 1 : 0;
  const pairs = countPhrases(usable, store, phraseable);

  // Scores first, as numbers; objects are made only for the few that can make the list.
  const top = new TopScores(limit * 6);
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
    const inTitle = titleTerms.has(pairs.firsts[pair] as number) && titleTerms.has(pairs.seconds[pair] as number);
    const score = count * 2.5 * (inTitle ? 2 : 1);
    bigramScore[pair] = score;
    top.add(score);
  }
  const threshold = top.threshold();

  const candidates: Array<{ score: number; parts: number[]; key: string }> = [];
  for (let id = 0; id < table.size; id++) {
    const score = unigramScore[id] as number;
    if (score > 0 && score >= threshold) candidates.push({ score, parts: [id], key: table.terms[id] as string });
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

function readingMinutes(wordCount: number): number {
  return Math.max(1, Math.ceil(wordCount / READING_WORDS_PER_MINUTE));
}

interface ParsedText {
  records: SentenceRecord[];
  table: TermTable;
  store: WordStore;
}

function parseRecords(text: string, mode: SummaryMode, table: TermTable = new TermTable(text.length)): ParsedText {
  const store = new WordStore(text.length);
  const caseless = isCaselessText(text);
  const records: SentenceRecord[] = [];
  let section: SectionKind = 'body';
  let sawHeading = false;
  /** seen[id] = stamp of the last sentence read that counted term id (for distinct terms). */
  const seen: number[] = [];
  let stamp = 0;
  const sentences: string[] = [];
  let abstractWords = 0;
  /** Reads a sentence into a record; false (and no record) when `singleSpaced` was assumed wrongly. */
  const addSentence = (sentence: string, singleSpaced: boolean): boolean => {
    const index = records.length;
    const words = readSentenceWords(sentence, ++stamp, table, store, seen);
    if (singleSpaced && words.irregularSpacing) return false;
    const candidate = isCandidate(sentence, words, mode);
    if (section === 'abstract') abstractWords += words.wordCount;
    records.push({
      text: sentence,
      index,
      section,
      terms: words.terms,
      firstWord: words.firstWord,
      significantCount: words.significantCount,
      wordCount: words.wordCount,
      candidate,
      prior: 1,
      priorExact: false,
      basePrior: 1,
      contribution: false,
    });
    return true;
  };
  for (const block of splitParagraphs(text)) {
    const kind = block.length <= 160 ? headingKind(collapseWhitespace(block).trim()) : undefined;
    if (kind !== undefined) {
      // Only the opening of a paper; a heading deep into a plain text says nothing about its start.
      if (!sawHeading && records.length <= 40) markOpeningMatter(records, kind);
      sawHeading = true;
      section = kind;
      continue;
    }
    // An abstract is a few hundred words; an abstract "section" running on past that (no heading
    // after it was recognised), or into a figure caption, has become the body.
    if (section === 'abstract' && (abstractWords >= ABSTRACT_MAX_WORDS || CAPTION_START.test(block.trimStart()))) {
      section = 'body';
    }
    // Most paragraphs are single-spaced (cleaned text has one line per paragraph), and are split as
    // such without being checked first (two passes over the text spared): the word scan of each
    // sentence sees all of its whitespace and tells otherwise, and then the paragraph is read again,
    // flattened. Between sentences the splitter passes over plain spaces only, and decides the same
    // whether there is one or more; any other whitespace or bullet mark, or spaces that would make it
    // decide otherwise, end up inside a sentence.
    const firstRecord = records.length;
    const firstWord = store.length;
    const abstractWordsBefore = abstractWords;
    sentences.length = 0;
    splitSingleSpacedBlock(block, caseless, sentences);
    let singleSpaced = true;
    for (const sentence of sentences) {
      singleSpaced = addSentence(sentence, true);
      if (!singleSpaced) break;
    }
    if (singleSpaced) continue;
    records.length = firstRecord;
    unreadWords(table, store, firstWord);
    abstractWords = abstractWordsBefore;
    sentences.length = 0;
    splitBlock(block, caseless, sentences);
    for (const sentence of sentences) addSentence(sentence, false);
  }
  return { records, table, store };
}

/**
 * What stands before a paper's first heading: title and authors (front matter), and, when that
 * heading already opens the body ("1 Introduction"), the abstract printed without a heading of its own.
 */
function markOpeningMatter(records: SentenceRecord[], firstHeading: SectionKind): void {
  for (const record of records) {
    const unheadedAbstract = firstHeading !== 'abstract' && record.candidate;
    record.section = unheadedAbstract ? 'abstract' : 'front';
  }
}

/** A sentence as shown: a footnote marker glued to its final full stop ("… benchmark.1") removed. */
function presentSentence(text: string): string {
  return text.replace(/([\p{Ll})])\.\d{1,2}(?:,\d{1,2})*$/u, '$1.');
}

function joinSentences(sentences: string[]): string {
  return sentences.join(' ');
}

function chooseCandidates(records: SentenceRecord[]): SentenceRecord[] {
  const candidates = records.filter((record) => record.candidate && record.section !== 'back');
  return candidates.length > 0 ? candidates : records.filter((record) => record.wordCount > 0);
}

/** Summarises a text extractively. Deterministic: the same input gives the same summary. */
export function summarize(input: SummarizeInput): Summary {
  const mode = input.mode;
  const text = normalizeCharacters(input.text ?? '');
  const title = normalizeCharacters(input.title ?? '').trim();
  const table = new TermTable(text.length);
  const titleTerms = new Set<number>();
  for (const token of wordTokens(title)) {
    const id = table.idOf(token);
    if (id >= 0) titleTerms.add(id);
  }
  const { records, store } = parseRecords(text, mode, table);
  const wordCount = records.reduce((sum, record) => sum + record.wordCount, 0);
  const minutes = readingMinutes(wordCount);

  const count = records.length;
  for (const record of records) {
    if (!record.candidate) continue;
    record.basePrior = basePrior(record, count > 1 ? record.index / (count - 1) : 0, mode, titleTerms);
    record.prior = record.basePrior * contributionFactor(mode);
  }
  const weights = buildWeights(table, count, titleTerms, mode);
  const candidates = chooseCandidates(records);

  const bulletLimit =
    mode === 'deep' ? DEEP_BULLETS : Math.min(QUICK_BULLETS, Math.max(1, Math.ceil(candidates.length * 0.7)));
  const picked = selectSentences(candidates, weights, bulletLimit, mode);
  const inOrder = [...picked].sort((a, b) => a.index - b.index);
  const bullets = inOrder.map((record) => presentSentence(record.text));

  const first = picked[0];
  const tldrRecords: SentenceRecord[] = [];
  if (first) {
    tldrRecords.push(first);
    const second = picked[1];
    // One sentence is the rule; a very short top sentence gets the next best one as company.
    if (first.wordCount < 12 && second) tldrRecords.push(second);
  }
  const tldr = joinSentences(tldrRecords.sort((a, b) => a.index - b.index).map((record) => presentSentence(record.text)));

  const tags = extractTags(records, table, store, titleTerms, mode, mode === 'deep' ? DEEP_TAGS : QUICK_TAGS);

  const abstractRecords = picked.slice(0, mode === 'deep' ? 3 : 2).sort((a, b) => a.index - b.index);
  const conclusion = presentSentence(chooseConclusion(records, candidates, weights, inOrder, mode));

  const covered = new Set<number>();
  for (const record of picked) for (const term of record.terms) covered.add(term);
  let coveredMass = 0;
  for (const term of covered) coveredMass += weights.frequency[term] ?? 0;
  const confidence = weights.totalMass > 0 ? Math.round((coveredMass / weights.totalMass) * 100) / 100 : 0;

  return {
    tldr,
    bullets,
    tags,
    readingTimeMinutes: minutes,
    confidence: 'medium',
    summary: {
      abstract: joinSentences(abstractRecords.map((record) => presentSentence(record.text))),
      keyPoints: bullets,
      conclusion,
      keywords: tags,
    },
    metadata: { wordCount, readingTime: minutes, confidence },
  };
}

/**
 * The sentence that best states the outcome: the best-scoring sentence of a Conclusion section, or
 * else of the last fifth of the text with a finding cue, or else the last bullet.
 */
function chooseConclusion(
  records: SentenceRecord[],
  candidates: SentenceRecord[],
  weights: Weights,
  bullets: SentenceRecord[],
  mode: SummaryMode,
): string {
  const best = (pool: SentenceRecord[]): SentenceRecord | undefined => {
    let top: SentenceRecord | undefined;
    let topScore = 0;
    for (const record of pool) {
      settlePrior(record, mode);
      const score = sentenceScore(record, weights.weight);
      if (score > topScore) {
        top = record;
        topScore = score;
      }
    }
    return top;
  };
  const inConclusion = best(candidates.filter((record) => record.section === 'conclusion'));
  if (inConclusion) return inConclusion.text;
  const tailStart = Math.floor(records.length * 0.8);
  const tail = candidates.filter((record) => record.index >= tailStart);
  for (const record of tail) settlePrior(record, mode);
  const inTail = best(tail.filter((record) => record.contribution));
  if (inTail) return inTail.text;
  return bullets[bullets.length - 1]?.text ?? '';
}

/**
 * The sentences the summarizer chooses from, in order (for baselines and evaluation): the same
 * segmentation and the same filter of non-sentences (headings, captions, reference entries).
 */
export function candidateSentences(input: Pick<SummarizeInput, 'text' | 'mode'>): string[] {
  const { records } = parseRecords(normalizeCharacters(input.text ?? ''), input.mode);
  return chooseCandidates(records).map((record) => record.text);
}
