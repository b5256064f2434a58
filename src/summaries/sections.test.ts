import { describe, expect, it } from 'vitest';
import { headingKind, parseRecords } from './sections.js';
import { candidateSentences, summarize } from './summarize.js';
import { paper } from './test-support/texts.js';

describe('headingKind', () => {
  it("names the sections a paper's headings open, numbered or not", () => {
    expect(headingKind('Abstract')).toBe('abstract');
    expect(headingKind('1 Introduction')).toBe('introduction');
    expect(headingKind('2. Related Work')).toBe('related');
    expect(headingKind('IV. Conclusions and Future Work')).toBe('conclusion');
    expect(headingKind('Acknowledgements')).toBe('back');
    expect(headingKind('3.2 Training Details')).toBe('body');
  });

  it('does not take a sentence or a long line for a heading', () => {
    expect(headingKind('Introduction, as usual.')).toBeUndefined();
    expect(headingKind('Training details')).toBeUndefined();
    expect(headingKind(`1 ${'Word '.repeat(20)}`)).toBeUndefined();
  });
});

describe('parseRecords', () => {
  it('puts each sentence in its section and keeps headings out of the sentences', () => {
    const { records } = parseRecords(paper(), 'deep');
    const sectionOf = (start: string) =>
      records.find((record) => record.text.startsWith(start))?.section;
    expect(sectionOf('Nanoporous graphene membranes')).toBe('front');
    expect(sectionOf('Graphene membranes filter salt')).toBe('abstract');
    expect(sectionOf('Fresh water is scarce')).toBe('introduction');
    expect(sectionOf('Our results show that nanoporous')).toBe('conclusion');
    expect(sectionOf('We thank the technicians')).toBe('conclusion');
    const texts = records.map((record) => record.text);
    expect(texts).not.toContain('Abstract');
    expect(texts).not.toContain('1 Introduction');
  });

  it('takes what stands before an opening "1 Introduction" for an abstract without a heading', () => {
    const text = [
      'Graphene membranes',
      'Graphene membranes filter salt from seawater at low pressure. We propose a graphene membrane with nanopores.',
      '1 Introduction',
      'Fresh water is scarce in many coastal regions of the world.',
    ].join('\n\n');
    const { records } = parseRecords(text, 'deep');
    expect(records.map((record) => record.section)).toEqual([
      'front',
      'abstract',
      'abstract',
      'introduction',
    ]);
  });

  it('reads hard-wrapped, unevenly spaced paragraphs as the same text single-spaced', () => {
    const text = paper();
    const summary = summarize({ title: 'Graphene membranes for desalination', text, mode: 'deep' });
    const wrapped = text
      .split('\n\n')
      .map((paragraph) => paragraph.replace(/ (\S+) (\S+) /g, ' $1\n$2  ').replace(/\. /g, '.\t'))
      .join('\n\n');
    expect(wrapped).not.toBe(text);
    expect(
      summarize({ title: 'Graphene membranes for desalination', text: wrapped, mode: 'deep' }),
    ).toEqual(summary);
    expect(candidateSentences({ text: wrapped, mode: 'deep' })).toEqual(
      candidateSentences({ text, mode: 'deep' }),
    );
  });
});
