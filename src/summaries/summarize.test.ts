/** The summarizer end to end: what a summary holds in each mode, and that it does not change. */
import { describe, expect, it } from 'vitest';
import { summarize } from './summarize.js';
import { ABSTRACT, paper } from './test-support/texts.js';

function positionsIn(text: string, sentences: string[]): number[] {
  return sentences.map((sentence) => text.indexOf(sentence));
}

describe('summarize (deep)', () => {
  const text = paper();
  const summary = summarize({ title: 'Graphene membranes for desalination', text, mode: 'deep' });

  it('gives 6 bullets that are sentences of the text, in their original order', () => {
    expect(summary.bullets).toHaveLength(6);
    const positions = positionsIn(text, summary.bullets);
    for (const position of positions) expect(position).toBeGreaterThanOrEqual(0);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('leans on the abstract and leaves out acknowledgements and figure talk', () => {
    const fromAbstract = summary.bullets.filter((bullet) => ABSTRACT.includes(bullet));
    expect(fromAbstract.length).toBeGreaterThanOrEqual(3);
    expect(summary.bullets.join(' ')).not.toMatch(/We thank|Figure 2 shows/);
  });

  it('has a one- or two-sentence tldr taken from the bullets', () => {
    expect(summary.tldr.length).toBeGreaterThan(0);
    expect(summary.bullets.some((bullet) => summary.tldr.includes(bullet))).toBe(true);
  });

  it('is deterministic', () => {
    expect(summarize({ title: 'Graphene membranes for desalination', text, mode: 'deep' })).toEqual(
      summary,
    );
  });

  // The summary of a straightforward implementation, recorded: optimisations (memo, single pass per
  // word, …) must not change it.
  it('gives the recorded summary of a known paper', () => {
    expect(summary.bullets).toEqual([
      'Graphene membranes filter salt from seawater at low pressure.',
      'We propose a graphene membrane with nanopores drilled by an oxygen plasma.',
      'The membrane rejects ninety-nine percent of salt ions while letting water pass.',
      'Our results show that graphene membranes cut the pumping energy of desalination in half.',
      'Fouling by organic matter remains the main obstacle to field use.',
      'Cheaper desalination could bring drinking water to dry coastal regions.',
    ]);
    expect(summary.tags).toEqual([
      'graphene membrane',
      'desalination',
      'water',
      'pumping energy',
      'organic matter',
      'salt ions',
      'nanopores',
      'seawater',
    ]);
    expect(summary.metadata).toEqual({ wordCount: 394, readingTime: 2, confidence: 0.56 });
  });

  it('does not depend on the summaries made before it', () => {
    const cold = summarize({ title: 'Graphene membranes for desalination', text, mode: 'deep' });
    summarize({ text: ABSTRACT.join(' ').toUpperCase(), mode: 'quick' });
    expect(cold).toEqual(summary);
    expect(summarize({ title: 'Graphene membranes for desalination', text, mode: 'deep' })).toEqual(
      cold,
    );
  });
});

describe('summarize: confidence', () => {
  it('reports full coverage when every sentence is chosen and less for a longer text', () => {
    const short = summarize({
      text: 'Graphene filters salt ions. Membranes save pumping energy.',
      mode: 'deep',
    });
    expect(short.metadata.confidence).toBe(1);
    const long = summarize({ text: paper(), mode: 'deep' });
    expect(long.metadata.confidence).toBeLessThan(short.metadata.confidence);
  });
});

describe('summarize (quick)', () => {
  const text = ABSTRACT.join(' ');
  const summary = summarize({
    title: 'Nanoporous graphene membranes for desalination',
    text,
    mode: 'quick',
  });

  it('gives at most 5 bullets in original order', () => {
    expect(summary.bullets.length).toBeGreaterThan(0);
    expect(summary.bullets.length).toBeLessThanOrEqual(5);
    const positions = positionsIn(text, summary.bullets);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('picks the contribution sentence for the tldr, not the background', () => {
    expect(summary.tldr).toMatch(/^(We propose|Our results show)/);
  });

  it('keeps a short abstract short', () => {
    const two = summarize({
      text: 'Graphene filters salt. It saves energy in desalination plants.',
      mode: 'quick',
    });
    expect(two.bullets.length).toBeLessThanOrEqual(2);
  });
});

describe('summarize: edge cases', () => {
  it('returns an empty summary for empty text', () => {
    const summary = summarize({ text: '', mode: 'deep' });
    expect(summary.bullets).toEqual([]);
    expect(summary.tldr).toBe('');
    expect(summary.metadata).toEqual({ wordCount: 0, readingTime: 1, confidence: 0 });
  });

  it('summarises lower-cased text with placeholders', () => {
    const text =
      'the iaal gene converts iaa in p. syringae pv. tomato <cit> . deletion ' +
      'of the iaal gene reduced virulence in tomato plants. the mate gene is ' +
      'co-transcribed with iaal. iaal mutants grew less in tomato leaves. the ' +
      'hrpl sigma factor controls the iaal gene. plants infected with iaal ' +
      'mutants showed fewer symptoms.';
    const summary = summarize({ text, mode: 'deep' });
    expect(summary.bullets.length).toBeGreaterThanOrEqual(4);
    expect(summary.bullets.every((bullet) => bullet.endsWith('.'))).toBe(true);
    expect(summary.tags.some((tag) => tag.split(' ').includes('iaal'))).toBe(true);
    expect(summary.tags.join(' ')).not.toMatch(/\bcit\b|\bdig\b/);
  });
});
