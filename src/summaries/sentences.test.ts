import { describe, expect, it } from 'vitest';
import {
  collapseWhitespace,
  isCaselessText,
  splitBlock,
  splitParagraphs,
  splitSentences,
  splitSingleSpacedBlock,
} from './sentences.js';

describe('splitSentences', () => {
  const cases: Array<[string, string, string[]]> = [
    [
      'plain full stops',
      'The model works. It is fast. We test it.',
      ['The model works.', 'It is fast.', 'We test it.'],
    ],
    [
      'e.g. and i.e.',
      'We use tools, e.g. parsers, i.e. programs. They help.',
      ['We use tools, e.g. parsers, i.e. programs.', 'They help.'],
    ],
    [
      'e.g. before a capital',
      'Many models, e.g. BERT, are large. Small ones exist.',
      ['Many models, e.g. BERT, are large.', 'Small ones exist.'],
    ],
    [
      'et al. with a year',
      'As Smith et al. (2019) showed, it helps. We agree.',
      ['As Smith et al. (2019) showed, it helps.', 'We agree.'],
    ],
    [
      'et al. mid-sentence before a name',
      'Work by Smith et al. Jones and others followed.',
      ['Work by Smith et al. Jones and others followed.'],
    ],
    [
      'et al. ending a sentence',
      'This was proposed by Smith et al. The idea is simple.',
      ['This was proposed by Smith et al.', 'The idea is simple.'],
    ],
    [
      'Fig. and Eq.',
      'See Fig. 2 for the design. Eq. (3) gives the loss.',
      ['See Fig. 2 for the design.', 'Eq. (3) gives the loss.'],
    ],
    [
      'vs.',
      'We compare CNN vs. RNN models. CNN wins.',
      ['We compare CNN vs. RNN models.', 'CNN wins.'],
    ],
    [
      'initials',
      'The method of J. R. Smith is old. It still works.',
      ['The method of J. R. Smith is old.', 'It still works.'],
    ],
    [
      'decimals',
      'Accuracy rose from 91.5 to 93.2 percent. Errors fell.',
      ['Accuracy rose from 91.5 to 93.2 percent.', 'Errors fell.'],
    ],
    [
      'URL with dots',
      'Code is at https://github.com/org/repo.v2/tree. We share data.',
      ['Code is at https://github.com/org/repo.v2/tree.', 'We share data.'],
    ],
    [
      'DOI',
      'See doi:10.1000/j.abc.2020.01.005 for details. Next one.',
      ['See doi:10.1000/j.abc.2020.01.005 for details.', 'Next one.'],
    ],
    [
      'bracketed citation before the stop',
      'Prior work exists [3, 4]. We differ.',
      ['Prior work exists [3, 4].', 'We differ.'],
    ],
    [
      'bracketed citation after the stop',
      'Prior work exists.[12] We differ.',
      ['Prior work exists.[12]', 'We differ.'],
    ],
    [
      'superscript citation after the stop',
      'Prior work exists.12 We differ.',
      ['Prior work exists.12', 'We differ.'],
    ],
    [
      'question and exclamation marks',
      'Does it work? Yes! It does.',
      ['Does it work?', 'Yes!', 'It does.'],
    ],
    [
      'quote after the stop',
      'He said "it works." Then he left.',
      ['He said "it works."', 'Then he left.'],
    ],
    [
      'blank line ends a sentence',
      'Introduction\n\nThe text starts here.',
      ['Introduction', 'The text starts here.'],
    ],
    [
      'hard-wrapped line goes on',
      'The text is\nwrapped here. Next.',
      ['The text is wrapped here.', 'Next.'],
    ],
    [
      'No. and pp.',
      'See Vol. 3, No. 4, pp. 10-20 of it. Done.',
      ['See Vol. 3, No. 4, pp. 10-20 of it.', 'Done.'],
    ],
    [
      'camelCase opener',
      'Results improve. iCaRL stores examples.',
      ['Results improve.', 'iCaRL stores examples.'],
    ],
    [
      'camelCase opener after a long word',
      'We trained the implementation. iCaRL stores exemplars.',
      ['We trained the implementation.', 'iCaRL stores exemplars.'],
    ],
    [
      'bracket or quote before the next word',
      'We evaluate the classifiers. (Table 2) shows it. "Quoted" text.',
      ['We evaluate the classifiers.', '(Table 2) shows it.', '"Quoted" text.'],
    ],
    [
      'lower case after a long word',
      'The representations. e.g. this one.',
      ['The representations. e.g. this one.'],
    ],
    [
      'mixed terminators',
      'Really?! Yes… it works. No way! Done.',
      ['Really?!', 'Yes… it works.', 'No way!', 'Done.'],
    ],
    [
      'irregular spacing',
      'A line\nbroken  twice\there.\u00a0Next sentence\u2028here.',
      ['A line broken twice here.', 'Next sentence here.'],
    ],
    [
      'superscript citation before two spaces',
      'Prior work exists.12  We differ.',
      ['Prior work exists.12', 'We differ.'],
    ],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });

  it('splits lower-cased text and keeps taxonomic abbreviations', () => {
    const text =
      'in p. syringae pv. tomato the gene is active. we found a second gene. the end is near.';
    expect(splitSentences(text)).toEqual([
      'in p. syringae pv. tomato the gene is active.',
      'we found a second gene.',
      'the end is near.',
    ]);
  });

  it('treats bullet marks as sentence ends', () => {
    expect(splitSentences('Key points • fast parsing • small memory')).toEqual([
      'Key points',
      'fast parsing',
      'small memory',
    ]);
  });
});

describe('isCaselessText', () => {
  it('recognises a lower-cased corpus and ordinary prose', () => {
    const lower =
      'the ability to produce the auxin phytohormone is widespread among soil bacteria and plants. '.repeat(
        3,
      );
    expect(isCaselessText(lower)).toBe(true);
    expect(
      isCaselessText(
        'The ability to produce the auxin is widespread. We study it in Pseudomonas strains here.',
      ),
    ).toBe(false);
  });
});

describe('splitParagraphs', () => {
  it('splits where the regular expression /\\n[ \\t\\r\\f\\v]*\\n/ splits', () => {
    const texts = [
      '',
      'one',
      'a\n\nb',
      'a\n\n\nb',
      'a\n \t\r\f\v\nb',
      'a\nb\n\nc\n',
      '\n\n',
      '\n\n\n\n',
      'x\n \n',
      'a\n\u00a0\nb',
      'Title\n\nAbstract\n\nText with a\nline break.\n \nMore.',
    ];
    for (const text of texts)
      expect(splitParagraphs(text), JSON.stringify(text)).toEqual(text.split(/\n[ \t\r\f\v]*\n/));
  });
});

describe('splitSingleSpacedBlock', () => {
  it('splits a single-spaced paragraph as splitBlock does', () => {
    const paragraph =
      '  Prior work exists [3, 4]. We differ, e.g. in scale. Does it work? Yes! See Fig. 2 for J. R. Smith et al. The end.  ';
    const expected: string[] = [];
    splitBlock(paragraph, false, expected);
    const split: string[] = [];
    splitSingleSpacedBlock(paragraph, false, split);
    expect(split).toEqual(expected);
  });
});

describe('collapseWhitespace', () => {
  it('makes every run of whitespace one space, as /\\s+/g would', () => {
    for (const text of [
      'single spaced',
      'two  spaces',
      'tab\there',
      'line\nbreak',
      'no\u00a0break',
      ' edges ',
      '',
      'a \u2028 b',
    ]) {
      expect(collapseWhitespace(text), JSON.stringify(text)).toBe(text.replace(/\s+/g, ' '));
    }
  });
});

describe('splitSentences on hostile text', () => {
  it('takes linear time on a long run of non-letters inside the word after a full stop', () => {
    const make = (n: number) => `One sentence. A${'1'.repeat(n)}b. Another sentence here.`;
    const time = (n: number) => {
      const text = make(n);
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        splitSentences(text);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    time(2000);
    // Four times the text, about four times the time (quadratic: sixteen); bound at 3 times linear,
    // with 10 ms of slack for noise.
    expect(time(800_000)).toBeLessThan(12 * time(200_000) + 10);
  });
});
