import { describe, expect, it } from 'vitest';
import { lexRankOrder, lexRankScores } from './lexrank.js';

const SENTENCES = [
  'Apples and oranges grow in orchards near the river.',
  'Apples grow on trees in orchards.',
  'Oranges grow in warm orchards.',
  'Orchards need water and apples need sun.',
  'The stock market fell sharply today.',
];

describe('lexRank', () => {
  it('ranks the sentence linked to all others of its group first', () => {
    const order = lexRankOrder(SENTENCES);
    expect(order[0]).toBe(0);
    const scores = lexRankScores(SENTENCES);
    for (const other of [1, 2, 3]) expect(scores[0]).toBeGreaterThan(scores[other] as number);
  });

  it('leaves an unconnected sentence its uniform share (self-link and random jumps only)', () => {
    expect(lexRankScores(SENTENCES)[4]).toBeCloseTo(1 / SENTENCES.length, 6);
  });

  it('returns a probability distribution', () => {
    const scores = lexRankScores(SENTENCES);
    expect(scores.reduce((sum, score) => sum + score, 0)).toBeCloseTo(1, 6);
    for (const score of scores) expect(score).toBeGreaterThan(0);
  });

  it('gives equal scores when nothing is similar', () => {
    const scores = lexRankScores(['Cats purr.', 'Rockets launch.', 'Rivers flood.']);
    expect(scores[0]).toBeCloseTo(1 / 3, 6);
    expect(scores[1]).toBeCloseTo(1 / 3, 6);
  });

  it('handles no sentences', () => {
    expect(lexRankOrder([])).toEqual([]);
  });
});
