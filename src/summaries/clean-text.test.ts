import { describe, expect, it } from 'vitest';
import {
  cleanPdfText,
  joinSmallCapsSplits,
  looksLikeReferenceEntries,
  normalizeCharacters,
} from './clean-text.js';

/** Pages joined the way pdftotext writes them: each page ends with a form feed. */
function pdfText(pages: string[][]): string {
  return pages.map((lines) => `${lines.join('\n')}\n\f`).join('');
}

const BODY = [
  'We study how extractive summaries help readers decide what to read.',
  'Our method scores sentences by the frequency of their terms.',
  'It runs in a few milliseconds on a long paper.',
];

describe('normalizeCharacters', () => {
  it('spells out ligatures U+FB00–FB06', () => {
    expect(
      normalizeCharacters('e\uFB00ect de\uFB01ne \uFB02ow o\uFB03ce ba\uFB04e \uFB05op \uFB06ep'),
    ).toBe('effect define flow office baffle stop step');
  });
  it('drops soft hyphens and zero-width characters, turns odd spaces into spaces', () => {
    expect(normalizeCharacters('repre\u00ADsen\u200Btation\u00A0here')).toBe('representation here');
  });
});

describe('cleanPdfText', () => {
  it('undoes line-break hyphenation but keeps real compounds', () => {
    const text = pdfText([
      [
        'The task-specific model is a simple repre-',
        'sentation of the text. A task-',
        'specific head reads it. We use the docu-',
        'ment as a whole.',
      ],
    ]);
    const cleaned = cleanPdfText(text);
    expect(cleaned).toContain('simple representation of the text');
    expect(cleaned).toContain('A task-specific head');
    expect(cleaned).toContain('We use the document as a whole.');
  });

  it('drops running headers, footers and page numbers', () => {
    const topics = ['apples', 'rivers', 'engines', 'violins'];
    const pages = topics.map((topic, i) => [
      'Journal of Reproducible Results, Vol. 12',
      `This page is about ${topic} and how they are studied.`,
      `Researchers of ${topic} meet every year.`,
      `The last line on ${topic} ends the page.`,
      `${i + 1}`,
    ]);
    const cleaned = cleanPdfText(pdfText(pages));
    expect(cleaned).not.toContain('Journal of Reproducible Results');
    expect(cleaned).not.toMatch(/(^|\s)[1-4](\s|$)/);
    for (const topic of topics)
      expect(cleaned).toContain(`Researchers of ${topic} meet every year.`);
  });

  it('cuts the references section and everything after it', () => {
    const text = pdfText([
      ['1 Introduction', ...BODY, ...BODY, ...BODY],
      [
        '2 Results',
        ...BODY,
        'References',
        'A. Author. 2010. A title. In Proceedings of X, pages 1-10.',
        'Appendix text that goes on.',
      ],
    ]);
    const cleaned = cleanPdfText(text);
    expect(cleaned).toContain('2 Results');
    expect(cleaned).not.toContain('References');
    expect(cleaned).not.toContain('In Proceedings of X');
    expect(cleaned).not.toContain('Appendix text');
  });

  it('leaves out acknowledgements but keeps the text after them', () => {
    const text = pdfText([
      [
        ...BODY,
        ...BODY,
        '',
        'Acknowledgements',
        '',
        'We thank the reviewers and the funding agency.',
        '',
        '5 Conclusion',
        'Summaries help readers a lot.',
      ],
    ]);
    const cleaned = cleanPdfText(text);
    expect(cleaned).not.toContain('We thank the reviewers');
    expect(cleaned).toContain('5 Conclusion');
    expect(cleaned).toContain('Summaries help readers a lot.');
  });

  it('puts headings on paragraphs of their own and marks a run-in abstract', () => {
    const cleaned = cleanPdfText(
      pdfText([
        [
          'Abstract. We present a fast summarizer.',
          'It is simple.',
          '1 Introduction',
          'Readers are busy people.',
        ],
      ]),
    );
    expect(cleaned.split('\n\n')).toEqual([
      'Abstract',
      'We present a fast summarizer. It is simple.',
      '1 Introduction',
      'Readers are busy people.',
    ]);
  });

  it('joins a word broken across a column break', () => {
    const cleaned = cleanPdfText(
      pdfText([['The model is pretrained on cita-', '', 'tions from many papers.']]),
    );
    expect(cleaned).toContain('pretrained on citations from many papers.');
  });
});

describe('joinSmallCapsSplits', () => {
  it('joins small-caps names and leaves words alone', () => {
    expect(joinSmallCapsSplits('We propose S PECTER and S CI D OCS here.')).toBe(
      'We propose SPECTER and SCIDOCS here.',
    );
    expect(joinSmallCapsSplits("R EALM's results")).toBe("REALM's results");
    expect(joinSmallCapsSplits('A NEW METHOD and I AM here')).toBe('A NEW METHOD and I AM here');
  });
});

describe('looksLikeReferenceEntries', () => {
  it('tells a bibliography entry from a paragraph with citations', () => {
    expect(
      looksLikeReferenceEntries(
        'Jane Doe and John Roe. 2014. Parsing things. In Proceedings of ACL, pages 10–20.',
      ),
    ).toBe(true);
    expect(
      looksLikeReferenceEntries(
        'Earlier work (Doe and Roe, 2014; Lee, 2019) parsed things with rules, which we replace by learning.',
      ),
    ).toBe(false);
  });
});

/** The best of five timings of `work` on the text `make(n)`, in milliseconds. */
function bestTime(make: (n: number) => string, n: number, work: (text: string) => unknown): number {
  const text = make(n);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    work(text);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * Text an anonymous caller can put in a PDF, so it must not cost quadratic time. Cleaning must take
 * time in proportion to the text: four times the text, about four times the time (a pattern that
 * backtracks quadratically takes sixteen, and minutes at these sizes). Compared within one process, as
 * a ratio, so a slow machine passes too. Both sizes are large, so that fixed costs do not make the
 * smaller one look cheap; the bound (3 times linear) leaves room for a busy machine.
 */
const PATHOLOGICAL_TEXTS: Array<[string, (n: number) => string]> = [
  ['one run of letters', (n) => 'a'.repeat(n)],
  [
    'a run of letters per page',
    (n) => Array.from({ length: 4 }, () => `Introduction\n${'a'.repeat(n / 4)}\n`).join('\f'),
  ],
  ['a run of letters ending in a hyphen', (n) => `${'a'.repeat(n)}-x`],
  ['a run of letters broken at a line end', (n) => `${'a'.repeat(n)}-\n${'b'.repeat(10)} end`],
  [
    'lines that each end in a hyphen',
    (n) => Array.from({ length: n / 10 }, () => 'abcdefgh-').join('\n'),
  ],
  ['a run of spaces inside a line', (n) => `x${' '.repeat(n)}x`],
  ['a run of spaces after "page"', (n) => `page${' '.repeat(n)}x`],
  [
    'a long paragraph of short lines',
    (n) => Array.from({ length: n / 20 }, () => 'lorem ipsum dolor si').join('\n'),
  ],
  ['capitals after a single capital', (n) => `B ${'A'.repeat(n)}a`],
];

describe('cleanPdfText on hostile text', () => {
  it.each(PATHOLOGICAL_TEXTS)('takes linear time on %s', (_label, make) => {
    cleanPdfText(make(2000)); // warm up the compiler
    const small = bestTime(make, 200_000, cleanPdfText);
    const large = bestTime(make, 800_000, cleanPdfText);
    // 10 ms of slack for garbage collection and timer noise on runs of a few milliseconds.
    expect(large).toBeLessThan(12 * small + 10);
  });
});
