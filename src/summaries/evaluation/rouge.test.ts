import { describe, expect, it } from 'vitest';
import { lcsLength, rouge, rougeMaxOverReferences, rougeTokens } from './rouge.js';

describe('rouge', () => {
  it('scores one substituted word (values worked out by hand)', () => {
    const score = rouge('the cat sat on the mat', 'the cat lay on the mat', { stem: false });
    expect(score.rouge1.f1).toBeCloseTo(5 / 6, 10);
    expect(score.rouge2.f1).toBeCloseTo(3 / 5, 10);
    expect(score.rougeL.f1).toBeCloseTo(5 / 6, 10);
  });

  it('separates precision and recall for a short candidate', () => {
    const score = rouge('the cat', 'the cat sat on the mat', { stem: false });
    expect(score.rouge1.precision).toBe(1);
    expect(score.rouge1.recall).toBeCloseTo(2 / 6, 10);
    expect(score.rouge1.f1).toBeCloseTo(0.5, 10);
    expect(score.rouge2.f1).toBeCloseTo(1 / 3, 10);
    expect(score.rougeL.f1).toBeCloseTo(0.5, 10);
  });

  it('clips repeated words to their count in the reference', () => {
    const score = rouge('the the the the', 'the cat', { stem: false });
    expect(score.rouge1.precision).toBeCloseTo(1 / 4, 10);
    expect(score.rouge1.recall).toBeCloseTo(1 / 2, 10);
  });

  it('stems (tokens longer than 3 characters) and normalises compatibility characters', () => {
    expect(rouge('running cats', 'run cat').rouge1.f1).toBe(1);
    expect(rouge('running cats', 'run cat', { stem: false }).rouge1.f1).toBe(0);
    expect(rougeTokens('We ﬁnd it, e.g. here!', { stem: false })).toEqual([
      'we',
      'find',
      'it',
      'e',
      'g',
      'here',
    ]);
  });

  it('is zero for empty text', () => {
    expect(rouge('', 'the cat').rouge1.f1).toBe(0);
    expect(rouge('the cat', '').rougeL.f1).toBe(0);
  });

  it('takes the best reference per measure', () => {
    const score = rougeMaxOverReferences('the cat sat', ['a dog ran', 'the cat sat'], {
      stem: false,
    });
    expect(score.rouge1.f1).toBe(1);
    expect(score.rougeL.f1).toBe(1);
  });

  it('computes the longest common subsequence', () => {
    expect(lcsLength(['a', 'b', 'c', 'b', 'd', 'a', 'b'], ['b', 'd', 'c', 'a', 'b', 'a'])).toBe(4);
  });
});
