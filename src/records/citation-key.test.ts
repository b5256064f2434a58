import { describe, expect, it } from 'vitest';
import {
  baseCitationKey,
  citationKeyProblem,
  firstFreeKey,
  foldToAscii,
  keySuffix,
} from './citation-key.js';
import { creatorFromText } from './names.js';
import type { BibRecord } from './record.js';

/** A record with these authors (read as a person types them) and year. */
function recordOf(authors: string[], year?: number): BibRecord {
  const record: BibRecord = {
    creators: authors.flatMap((name) => creatorFromText(name) ?? []),
  };
  if (year !== undefined) record.issued = { year };
  return record;
}

describe('the key Better BibTeX makes by default', () => {
  it.each([
    [['Ashish Vaswani', 'Noam Shazeer'], 2017, 'Attention Is All You Need', 'vaswani2017attention'],
    [['Müller, Jürgen'], 2019, 'Über die Quantenmechanik', 'muller2019uber'],
    [['Łukasz Kaiser'], 2016, 'Neural GPUs Learn Algorithms', 'kaiser2016neural'],
    [['Weiß, Anna'], 2020, 'Straße und Maß', 'weiss2020strasse'],
    [['García Márquez, Gabriel'], 1967, 'Cien años de soledad', 'garciamarquez1967cien'],
    [['Vincent van Gogh'], 1888, 'The Letters', 'vangogh1888letters'],
    [["O'Brien, Flann"], 1939, 'At Swim-Two-Birds', 'obrien1939swim'],
    [
      ['Hinton, Geoffrey'],
      2006,
      'A fast learning algorithm for deep belief nets',
      'hinton2006fast',
    ],
    [['Smith, J.'], 2001, 'On the Origin of the Species', 'smith2001origin'],
    [['Smith, J.'], 2001, 'The <i>Drosophila</i> genome', 'smith2001drosophila'],
    [['Smith, J.'], 2001, 'Of and the', 'smith2001of'],
  ])('%j %s %s → %s', (authors, year, title, key) => {
    expect(baseCitationKey({ record: recordOf(authors, year), title })).toBe(key);
  });

  it("takes an organisation's whole name, and the editor when there is no author", () => {
    expect(
      baseCitationKey({
        record: {
          creators: [{ role: 'author', literal: 'World Health Organization' }],
          issued: { year: 2020 },
        },
        title: 'World report on ageing',
      }),
    ).toBe('worldhealthorganization2020world');
    expect(
      baseCitationKey({
        record: {
          creators: [{ role: 'editor', family: 'Eco', given: 'Umberto' }],
          issued: { year: 1990 },
        },
        title: 'The Limits of Interpretation',
      }),
    ).toBe('eco1990limits');
  });

  it('goes without what the record does not say', () => {
    expect(baseCitationKey({ record: { issued: { year: 2017 } }, title: 'Attention' })).toBe(
      '2017attention',
    );
    expect(baseCitationKey({ record: recordOf(['Ashish Vaswani']), title: 'Attention' })).toBe(
      'vaswaniattention',
    );
    expect(baseCitationKey({ record: recordOf(['Ashish Vaswani'], 2017), title: '' })).toBe(
      'vaswani2017',
    );
    expect(
      baseCitationKey({
        record: { ...recordOf(['Ashish Vaswani'], 2017), untitled: true },
        title: 'Untitled legal case',
      }),
    ).toBe('vaswani2017');
    expect(baseCitationKey({ record: {}, title: '' })).toBe('untitled');
    expect(baseCitationKey({ record: {}, title: '北京' })).toBe('untitled');
  });

  it('is always a key BibTeX reads, however long or odd the names', () => {
    const key = baseCitationKey({
      record: recordOf(['Ab'.repeat(200)], 2020),
      title: 'Title',
    });
    expect(citationKeyProblem(key)).toBeNull();
    expect(
      citationKeyProblem(baseCitationKey({ record: recordOf(['Δ Ω']), title: '{}%#' })),
    ).toBeNull();
  });
});

describe('folding to ASCII', () => {
  it.each([
    ['ü', 'u'],
    ['ł', 'l'],
    ['ß', 'ss'],
    ['Ærøskøbing', 'AEroskobing'],
    ['Ćwikliński', 'Cwiklinski'],
    ['Þór', 'Thor'],
    ['naïve café', 'naive cafe'],
  ])('%s → %s', (text, folded) => {
    expect(foldToAscii(text)).toBe(folded);
  });
});

describe('suffixes and taken keys', () => {
  it('counts a … z, aa, ab …', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(keySuffix)).toEqual([
      'a',
      'b',
      'z',
      'aa',
      'ab',
      'az',
      'ba',
      'zz',
      'aaa',
    ]);
  });

  it('keeps a free key, and suffixes a taken one (taken without case, as BibTeX compares keys)', () => {
    expect(firstFreeKey('smith2001', new Set())).toBe('smith2001');
    expect(firstFreeKey('smith2001', new Set(['smith2001']))).toBe('smith2001a');
    expect(firstFreeKey('Smith2001', new Set(['smith2001', 'smith2001a']))).toBe('Smith2001b');
    const many = new Set(['x', ...Array.from({ length: 26 }, (_, n) => `x${keySuffix(n)}`)]);
    expect(firstFreeKey('x', many)).toBe('xaa');
  });
});

describe('which keys a person may give', () => {
  it.each(['vaswani2017attention', 'Vaswani:2017', 'doe/2020-a', 'a.b_c+d', 'key@x', '1'])(
    'accepts %s',
    (key) => expect(citationKeyProblem(key)).toBeNull(),
  );
  it.each([
    '',
    'has space',
    'a,b',
    'a{b',
    'a}b',
    'a%b',
    'a#b',
    'a~b',
    'a\\b',
    'a"b',
    "a'b",
    'a=b',
    'a(b',
    'müller',
    'x'.repeat(101),
    'tab\there',
  ])('refuses %j', (key) => expect(citationKeyProblem(key)).not.toBeNull());
});
