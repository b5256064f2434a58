import { describe, expect, it } from 'vitest';
import { summarize } from './summarize.js';
import { paper } from './test-support/texts.js';
import { presentSentence, toSummaryVariantA, toSummaryVariantB } from './variants.js';

describe('summary variants', () => {
  const text = paper();
  const summary = summarize({ title: 'Graphene membranes for desalination', text, mode: 'deep' });

  it('answers both dialects with consistent metadata', () => {
    const a = toSummaryVariantA(summary);
    const b = toSummaryVariantB(summary);
    expect(Object.keys(a).sort()).toEqual([
      'bullets',
      'confidence',
      'readingTimeMinutes',
      'tags',
      'tldr',
    ]);
    expect(a.confidence).toBe('medium');
    expect(Object.keys(b).sort()).toEqual(['metadata', 'summary']);
    expect(b.summary.keyPoints).toEqual(summary.bullets);
    expect(b.summary.keywords).toEqual(summary.tags);
    expect(b.summary.conclusion).toBe(
      'Our results show that nanoporous graphene membranes can halve the energy cost of desalination.',
    );
    const words = text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
    // "ninety-nine" counts as two words, "energy-efficient" too: within a few words of a whitespace count.
    expect(Math.abs(b.metadata.wordCount - words)).toBeLessThanOrEqual(12);
    expect(b.metadata.readingTime).toBe(Math.ceil(b.metadata.wordCount / 200));
    expect(a.readingTimeMinutes).toBe(b.metadata.readingTime);
    expect(b.metadata.confidence).toBeGreaterThan(0);
    expect(b.metadata.confidence).toBeLessThan(1);
  });

  it('shows a sentence without a footnote marker glued to its full stop', () => {
    expect(presentSentence('It beats the benchmark.1')).toBe('It beats the benchmark.');
    expect(presentSentence('It beats the benchmark (Table 2).1,2')).toBe(
      'It beats the benchmark (Table 2).',
    );
    expect(presentSentence('Version 2.1')).toBe('Version 2.1');
  });
});
