import { describe, expect, it } from 'vitest';
import { STOPWORDS } from './stopwords.js';
import { candidateSentences, summarize, toSummaryVariantA, toSummaryVariantB } from './summarize.js';
import { clearTermMemo } from './term-table.js';

const ABSTRACT = [
  'Graphene membranes filter salt from seawater at low pressure.',
  'Desalination plants spend most of their energy on pumping water through polymer membranes.',
  'We propose a graphene membrane with nanopores drilled by an oxygen plasma.',
  'The membrane rejects ninety-nine percent of salt ions while letting water pass.',
  'Our results show that graphene membranes cut the pumping energy of desalination in half.',
  'The pores stay open after a month of continuous operation.',
  'Fouling by organic matter remains the main obstacle to field use.',
  'We release the fabrication protocol and the measurement data.',
  'Cheaper desalination could bring drinking water to dry coastal regions.',
];

/** A paper-like text: sections on one topic, with citations, figure talk and acknowledgements. */
function paper(): string {
  const introduction = [
    'Fresh water is scarce in many coastal regions, and desalination of seawater is an answer.',
    'Reverse osmosis pushes seawater through polymer membranes that hold back salt ions.',
    'The pumping energy of reverse osmosis dominates the cost of desalinated water (Smith et al., 2015; Lee, 2018).',
    'Graphene is a single layer of carbon atoms and is the thinnest known membrane material.',
    'Water flows through a thin membrane faster, so a graphene membrane needs less pumping energy.',
    'In this paper, we present a graphene membrane with nanopores that filters salt from seawater.',
  ];
  const methods = [
    'We grew graphene on copper foil and moved it onto a porous support.',
    'An oxygen plasma drilled nanopores of about one nanometre into the graphene layer.',
    'The pore size was set by the plasma exposure time.',
    'Figure 2 shows the measurement cell and Table 1 lists the exposure times.',
    'Salt rejection was measured with a conductivity probe on both sides of the membrane.',
    'Water flux was measured by weighing the permeate every minute.',
  ];
  const results = [
    'The graphene membrane rejected ninety-nine percent of salt ions at a pressure of ten bar.',
    'Water flux through the graphene membrane was three times that of a polymer membrane.',
    'The pumping energy per cubic metre of fresh water fell by half with the graphene membrane.',
    'After a month of continuous operation the nanopores were still open.',
    'Organic matter in natural seawater fouled the membrane surface within two weeks.',
    'Cleaning with a mild acid restored most of the water flux.',
  ];
  const conclusion = [
    'Our results show that nanoporous graphene membranes can halve the energy cost of desalination.',
    'Fouling by organic matter must be solved before graphene membranes reach desalination plants.',
  ];
  return [
    'Nanoporous graphene membranes for energy-efficient desalination',
    'Abstract',
    ABSTRACT.join(' '),
    '1 Introduction',
    introduction.join(' '),
    '2 Methods',
    methods.join(' '),
    '3 Results',
    results.join(' '),
    '4 Conclusion',
    conclusion.join(' '),
    'We thank the technicians of the clean room and acknowledge grant 12345 of the water agency.',
  ].join('\n\n');
}

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

  it('tags with topic terms, no stopwords, numbers or fragments', () => {
    expect(summary.tags.length).toBeGreaterThan(0);
    expect(summary.tags.length).toBeLessThanOrEqual(8);
    expect(summary.tags.join(' ').toLowerCase()).toMatch(/graphene/);
    expect(summary.tags.join(' ').toLowerCase()).toMatch(/membrane/);
    for (const tag of summary.tags) {
      for (const word of tag.toLowerCase().split(' ')) {
        expect(STOPWORDS.has(word), word).toBe(false);
        expect(word, word).not.toMatch(/\d/);
        expect(word.length, word).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('answers both dialects with consistent metadata', () => {
    const a = toSummaryVariantA(summary);
    const b = toSummaryVariantB(summary);
    expect(Object.keys(a).sort()).toEqual(['bullets', 'confidence', 'readingTimeMinutes', 'tags', 'tldr']);
    expect(a.confidence).toBe('medium');
    expect(Object.keys(b).sort()).toEqual(['metadata', 'summary']);
    expect(b.summary.keyPoints).toEqual(summary.bullets);
    expect(b.summary.keywords).toEqual(summary.tags);
    expect(b.summary.conclusion).toBe('Our results show that nanoporous graphene membranes can halve the energy cost of desalination.');
    const words = text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
    // "ninety-nine" counts as two words, "energy-efficient" too: within a few words of a whitespace count.
    expect(Math.abs(b.metadata.wordCount - words)).toBeLessThanOrEqual(12);
    expect(b.metadata.readingTime).toBe(Math.ceil(b.metadata.wordCount / 200));
    expect(a.readingTimeMinutes).toBe(b.metadata.readingTime);
    expect(b.metadata.confidence).toBeGreaterThan(0);
    expect(b.metadata.confidence).toBeLessThan(1);
  });

  it('is deterministic', () => {
    expect(summarize({ title: 'Graphene membranes for desalination', text, mode: 'deep' })).toEqual(summary);
  });

  // The summary the implementation gave before it was made faster (memo, single pass per word, …):
  // speed work must not change it.
  it('gives the summary it gave before its speed-ups', () => {
    expect(summary.bullets).toEqual([
      'Graphene membranes filter salt from seawater at low pressure.',
      'We propose a graphene membrane with nanopores drilled by an oxygen plasma.',
      'The membrane rejects ninety-nine percent of salt ions while letting water pass.',
      'Our results show that graphene membranes cut the pumping energy of desalination in half.',
      'Fouling by organic matter remains the main obstacle to field use.',
      'Cheaper desalination could bring drinking water to dry coastal regions.',
    ]);
    expect(summary.tags).toEqual([
      'graphene membrane', 'desalination', 'water', 'pumping energy', 'organic matter', 'salt ions', 'nanopores', 'seawater',
    ]);
    expect(summary.metadata).toEqual({ wordCount: 394, readingTime: 2, confidence: 0.56 });
  });

  it('reads hard-wrapped, unevenly spaced paragraphs as the same text single-spaced', () => {
    const wrapped = text
      .split('\n\n')
      .map((paragraph) => paragraph.replace(/ (\S+) (\S+) /g, ' $1\n$2  ').replace(/\. /g, '.\t'))
      .join('\n\n');
    expect(wrapped).not.toBe(text);
    expect(summarize({ title: 'Graphene membranes for desalination', text: wrapped, mode: 'deep' })).toEqual(summary);
    expect(candidateSentences({ text: wrapped, mode: 'deep' })).toEqual(candidateSentences({ text, mode: 'deep' }));
  });

  it('does not depend on what earlier summaries left in the shared word memo', () => {
    clearTermMemo();
    const cold = summarize({ title: 'Graphene membranes for desalination', text, mode: 'deep' });
    summarize({ text: ABSTRACT.join(' ').toUpperCase(), mode: 'quick' });
    expect(cold).toEqual(summary);
    expect(summarize({ title: 'Graphene membranes for desalination', text, mode: 'deep' })).toEqual(cold);
  });
});

describe('summarize: redundancy and confidence', () => {
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
    const copies = bullets.filter((bullet) => bullet.startsWith('The enzyme binds copper ions in the active site'));
    expect(copies).toHaveLength(1);
  });

  it('reports full coverage when every sentence is chosen and less for a longer text', () => {
    const short = summarize({ text: 'Graphene filters salt ions. Membranes save pumping energy.', mode: 'deep' });
    expect(short.metadata.confidence).toBe(1);
    const long = summarize({ text: paper(), mode: 'deep' });
    expect(long.metadata.confidence).toBeLessThan(short.metadata.confidence);
  });
});

describe('summarize (quick)', () => {
  const text = ABSTRACT.join(' ');
  const summary = summarize({ title: 'Nanoporous graphene membranes for desalination', text, mode: 'quick' });

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
    const two = summarize({ text: 'Graphene filters salt. It saves energy in desalination plants.', mode: 'quick' });
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
    const text = 'the iaal gene converts iaa in p. syringae pv. tomato <cit> . deletion of the iaal gene reduced virulence in tomato plants. the mate gene is co-transcribed with iaal. iaal mutants grew less in tomato leaves. the hrpl sigma factor controls the iaal gene. plants infected with iaal mutants showed fewer symptoms.';
    const summary = summarize({ text, mode: 'deep' });
    expect(summary.bullets.length).toBeGreaterThanOrEqual(4);
    expect(summary.bullets.every((bullet) => bullet.endsWith('.'))).toBe(true);
    expect(summary.tags.some((tag) => tag.split(' ').includes('iaal'))).toBe(true);
    expect(summary.tags.join(' ')).not.toMatch(/\bcit\b|\bdig\b/);
  });
});
