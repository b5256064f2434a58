import { describe, expect, it } from 'vitest';
import { chooseCandidates, parseRecords } from './sections.js';
import {
  basePrior,
  buildWeights,
  contributionFactor,
  selectSentences,
  sentenceScore,
  settlePrior,
} from './select-sentences.js';
import type { SentenceRecord } from './sections.js';
import { summarize } from './summarize.js';
import { paper } from './test-support/texts.js';

describe('selectSentences', () => {
  it('never returns near-duplicate bullets', () => {
    const repeated = 'The enzyme binds copper ions in the active site of the protein.';
    const text = [
      repeated,
      repeated,
      'The enzyme binds copper ions in the active site of this protein.',
      'Zinc ions compete with copper for the same binding site.',
      'Crystal structures reveal two conformations of the active site.',
      'Mutations near the site abolish copper binding entirely.',
      'The protein is expressed in liver cells under stress.',
      'Copper deficiency lowers the activity of the enzyme in mice.',
    ].join(' ');
    const { bullets } = summarize({ text, mode: 'deep' });
    const copies = bullets.filter((bullet) =>
      bullet.startsWith('The enzyme binds copper ions in the active site'),
    );
    expect(copies).toHaveLength(1);
  });

  it('picks in score order, each pick lowering the weights of the terms it covers', () => {
    const { records, table } = parseRecords(paper(), 'deep');
    const weights = buildWeights(table, records.length, new Set(), 'deep');
    const before = Float64Array.from(weights.weight);
    const picked = selectSentences(chooseCandidates(records), weights, 3, 'deep');
    expect(picked).toHaveLength(3);
    expect(new Set(picked).size).toBe(3);
    // The caller's weights are left as they were: the selection works on a copy.
    expect(weights.weight).toEqual(before);
  });

  // The heap holds scores that may be stale (upper bounds); picking from it must give what re-scoring
  // every candidate in every round gives.
  it('picks what re-scoring every candidate each round picks', () => {
    for (const mode of ['deep', 'quick'] as const) {
      const { records, table } = parseRecords(paper(), mode);
      const weights = buildWeights(table, records.length, new Set(), mode);
      const candidates = chooseCandidates(records);
      // As summarize starts them: priors are upper bounds until a sentence comes near being picked.
      for (const record of candidates) {
        record.basePrior = basePrior(record, record.index / (records.length - 1), mode, new Set());
        record.prior = record.basePrior * contributionFactor(mode);
      }
      const picked = selectSentences(candidates, weights, 8, mode);
      expect(picked.map((record) => record.index)).toEqual(
        rescoringEveryRound(candidates, weights.weight, 8, mode),
      );
    }
  });
});

function rescoringEveryRound(
  candidates: SentenceRecord[],
  initial: Float64Array,
  count: number,
  mode: 'quick' | 'deep',
): number[] {
  const weight = Float64Array.from(initial);
  for (const record of candidates) settlePrior(record, mode);
  const chosen: SentenceRecord[] = [];
  const nearDuplicate = (record: SentenceRecord) =>
    chosen.some((other) => {
      if (record.terms.length === 0 || other.terms.length === 0) return false;
      const shared = record.terms.filter((term) => other.terms.includes(term)).length;
      return shared / Math.min(record.terms.length, other.terms.length) > 0.5;
    });
  while (chosen.length < count) {
    let best: SentenceRecord | undefined;
    let bestScore = 0;
    for (const record of candidates) {
      if (chosen.includes(record) || nearDuplicate(record)) continue;
      const score = sentenceScore(record, weight);
      if (score > bestScore) [best, bestScore] = [record, score];
    }
    if (!best) break;
    chosen.push(best);
    for (const term of best.terms) weight[term] = (weight[term] as number) * 0.7;
  }
  return chosen.map((record) => record.index);
}
