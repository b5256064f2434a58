/**
 * How sentences are scored and chosen (the method is described in summarize.ts): term weights,
 * priors from position and cue phrases, and the greedy pick with redundancy control.
 */
import { Heap } from './heap.js';
import type { SentenceRecord, SectionKind } from './sections.js';
import type { SummaryMode } from './summarize.js';
import type { TermTable } from './term-table.js';

/** Two sentences sharing more than this share of their terms are near-duplicates. */
const NEAR_DUPLICATE = 0.5;
/** After a pick, the weights of the terms it covers are multiplied by this (redundancy control). */
const REDUNDANCY_DECAY = 0.7;

const SECTION_PRIOR: Record<SectionKind, number> = {
  front: 0.6,
  abstract: 3.5,
  introduction: 1.1,
  related: 0.7,
  body: 1,
  conclusion: 1.3,
  back: 0.2,
};

// The cue patterns run on the lower-cased sentence (faster than case-insensitive patterns).
/** Sentences that state what the paper does or finds. */
const CONTRIBUTION_CUE = new RegExp(
  String.raw`\b(?:we|this (?:paper|work|study|article)|here we|our (?:results|` +
    String.raw`findings|work|study|approach|method|model|system|analysis|experiments))\s+(?:\w+\s+)?(?:propose|` +
    String.raw`present|introduce|describe|develop|show|demonstrate|find|found|` +
    String.raw`report|investigate|examine|study|evaluate|conclude|suggest|provide|` +
    String.raw`address|identify|achieve|outperform|obtain|observe|focus)|\b(?:in this (?:paper|` +
    String.raw`work|study|article)|in conclusion|in summary|to summari[sz]e|` +
    String.raw`taken together|overall,|these (?:results|findings|data) (?:suggest|` +
    String.raw`indicate|show|demonstrate)|(?:results|findings|analysis|experiments) (?:suggest|` +
    String.raw`indicate|show|demonstrate|reveal|confirm)|we conclude|our main contribution)\b`,
);
const ACKNOWLEDGEMENT_CUE = new RegExp(
  String.raw`\b(?:we|the authors?)\s+(?:would like to\s+)?(?:thank|acknowledge|` +
    String.raw`are grateful|gratefully)\b|\b(?:supported|funded)\s+(?:in part\s+)?by\b|` +
    String.raw`\bgrants?\s+(?:no\.?\s*|number\s*)?[a-z-]*\d`,
);
const ROADMAP_CUE = new RegExp(
  String.raw`\b(?:the (?:rest|remainder) of (?:this|the) (?:paper|article)|` +
    String.raw`is (?:organi[sz]ed|structured) as follows|in section \d|section \d (?:describes|` +
    String.raw`presents|discusses|introduces|shows|concludes))`,
);
const FIGURE_REFERENCE = /\b(?:fig(?:ure)?s?\.?|tables?|tab\.)\s*\d/;
const CITATION =
  /\[\d+(?:[,–-]\s*\d+)*\]|\(\s*[\p{Lu}][^()]{0,80}?(?:19|20)\d{2}[a-z]?\s*\)|<cit>|\bet al\./gu;

export interface Weights {
  /** Term id → weight (the selection works on a copy). */
  weight: Float64Array;
  /** Term id → frequency in the text. */
  frequency: number[];
  totalMass: number;
}

/** The largest multiplier the cue patterns can add (a contribution statement). */
export function contributionFactor(mode: SummaryMode): number {
  return mode === 'quick' ? 1.4 : 1.6;
}

/** Section, position and title overlap: the part of the prior that needs no pattern. */
export function basePrior(
  record: SentenceRecord,
  relativePosition: number,
  mode: SummaryMode,
  titleTerms: Set<number>,
): number {
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
export function settlePrior(record: SentenceRecord, mode: SummaryMode): void {
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
const ANY_CUE_WORD =
  /thank|acknowledg|grate|support|fund|grant|section|organi|structured|remainder|rest of|fig|tab/;

function cueFactor(lower: string): number {
  if (!ANY_CUE_WORD.test(lower)) return 1;
  let factor = 1;
  if (ACKNOWLEDGEMENT_CUE.test(lower)) factor *= 0.1;
  if (ROADMAP_CUE.test(lower)) factor *= 0.3;
  if (FIGURE_REFERENCE.test(lower)) factor *= 0.75;
  return factor;
}

export function buildWeights(
  table: TermTable,
  sentenceCount: number,
  titleTerms: Set<number>,
  mode: SummaryMode,
): Weights {
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

export function sentenceScore(record: SentenceRecord, weight: Float64Array): number {
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

/** Higher score first, then earlier sentence: a total order, so the picks are those of a full sort. */
function scoresBefore(a: ScoredRecord, b: ScoredRecord): boolean {
  return (b.score - a.score || a.record.index - b.record.index) < 0;
}

/**
 * Picks up to `count` sentences greedily with redundancy control; returns them in pick order.
 * Weights only ever decrease and a prior is first an upper bound, so a score computed earlier is an
 * upper bound: candidates are queued by their last known score and only the head is re-scored
 * ("lazy greedy"), which gives the same picks as re-scoring every candidate each round at a fraction
 * of the cost.
 */
export function selectSentences(
  candidates: SentenceRecord[],
  weights: Weights,
  count: number,
  mode: SummaryMode,
): SentenceRecord[] {
  const weight = Float64Array.from(weights.weight);
  const scored: ScoredRecord[] = [];
  for (const record of candidates) {
    const score = sentenceScore(record, weight);
    // Round -1: the score rests on an upper-bound prior and is settled when the sentence comes up.
    if (score > 0) scored.push({ record, score, round: -1 });
  }
  // A heap, not a sort: only the few best of up to a thousand candidates are ever taken.
  const queue = new Heap(scoresBefore, scored);
  const chosen: SentenceRecord[] = [];
  const chosenMarks: Uint8Array[] = [];
  let round = 0;
  while (chosen.length < count && queue.size > 0) {
    const head = queue.pop();
    const duplicate = chosenMarks.some(
      (marks, i) =>
        overlap(head.record.terms, marks, (chosen[i] as SentenceRecord).terms.length) >
        NEAR_DUPLICATE,
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

/**
 * The sentence that best states the outcome: the best-scoring sentence of a Conclusion section, or
 * else of the last fifth of the text with a finding cue, or else the last bullet.
 */
export function chooseConclusion(
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
