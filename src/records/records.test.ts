import { describe, expect, it } from 'vitest';
import {
  authorsOf,
  bareDoi,
  creatorFromText,
  dateFromIso,
  isValidIsbn,
  isValidIssn,
  currentMarkup,
  otherVariablesOf,
  recordFromCsl,
  TITLE_MAX,
  wholeTitleToKeep,
  withOlderNames,
  recordToCsl,
  recordTypeOf,
  type RecordDate,
} from './index.js';

describe('names read from one string', () => {
  it.each([
    ['Ma, Bo-Qiang', { family: 'Ma', given: 'Bo-Qiang' }],
    ['Bo-Qiang Ma', { family: 'Ma', given: 'Bo-Qiang' }],
    ['Do, Minh Binh', { family: 'Do', given: 'Minh Binh' }],
    ['García Márquez, Gabriel', { family: 'García Márquez', given: 'Gabriel' }],
    ['Bennett, Jr., William', { family: 'Bennett', given: 'William', suffix: 'Jr.' }],
    ['Martin Luther King Jr.', { family: 'King', given: 'Martin Luther', suffix: 'Jr.' }],
    ['van der Berg, Jan', { family: 'Berg', given: 'Jan', nonDroppingParticle: 'van der' }],
    ['Ludwig van Beethoven', { family: 'Beethoven', given: 'Ludwig', nonDroppingParticle: 'van' }],
    ['Plato', { family: 'Plato' }],
    ['Beijing Zoo', { literal: 'Beijing Zoo' }],
    ['World Health Organization', { literal: 'World Health Organization' }],
    ['Smith and Jones', { literal: 'Smith and Jones' }],
  ])('%s', (text, parts) => {
    expect(creatorFromText(text)).toEqual({ role: 'author', ...parts });
  });

  it('is empty for blank text, and keeps the role it is given', () => {
    expect(creatorFromText('  ')).toBeNull();
    expect(creatorFromText('Hopper, Grace', 'editor')).toEqual({
      role: 'editor',
      family: 'Hopper',
      given: 'Grace',
    });
  });
});

describe('authors, derived from creators', () => {
  it('are the authors, else the editors, as "Given Family" with particles and suffix in place', () => {
    expect(
      authorsOf({
        creators: [
          { role: 'editor', family: 'Eco', given: 'Umberto' },
          { role: 'author', family: 'Gogh', given: 'Vincent', nonDroppingParticle: 'van' },
          { role: 'author', literal: 'CERN' },
          { role: 'author', family: 'King', given: 'Martin Luther', suffix: 'Jr.' },
        ],
      }),
    ).toEqual(['Vincent van Gogh', 'CERN', 'Martin Luther King, Jr.']);
    expect(authorsOf({ creators: [{ role: 'editor', family: 'Eco', given: 'Umberto' }] })).toEqual([
      'Umberto Eco',
    ]);
    expect(authorsOf({})).toEqual([]);
  });
});

describe('CSL-JSON in and out', () => {
  const item = {
    type: 'chapter',
    title: 'Not kept in the record',
    author: [{ family: 'Hicks', given: 'Michael', 'non-dropping-particle': 'von', suffix: 'III' }],
    editor: [{ literal: 'The Editors' }],
    translator: [{ family: 'Weaver', given: 'William' }],
    issued: { 'date-parts': [[1999, 5], [2001]] },
    accessed: { 'date-parts': [['2020', '01', '31']] },
    'original-date': { literal: 'Spring 1850' },
    'container-title': 'A Book',
    'collection-title': 'A Series',
    'publisher-place': 'Leiden',
    page: '12-19',
    edition: 2,
    event: 'Old name of event-title',
    DOI: '10.1000/xyz',
    URL: 'https://example.org',
    note: 'the notes',
  };

  it('keeps every name with its role, dates as parts or literal, every variable, numbers as text', () => {
    expect(recordFromCsl(item)).toEqual({
      creators: [
        {
          role: 'author',
          family: 'Hicks',
          given: 'Michael',
          nonDroppingParticle: 'von',
          suffix: 'III',
        },
        { role: 'editor', literal: 'The Editors' },
        { role: 'translator', family: 'Weaver', given: 'William' },
      ],
      issued: { year: 1999, month: 5, end: { year: 2001 } },
      accessed: { year: 2020, month: 1, day: 31 },
      originalDate: { literal: 'Spring 1850' },
      containerTitle: 'A Book',
      collectionTitle: 'A Series',
      publisherPlace: 'Leiden',
      pages: '12-19',
      edition: '2',
      eventTitle: 'Old name of event-title',
      doi: '10.1000/xyz',
    });
  });

  it('writes the record back under the CSL names', () => {
    const csl = recordToCsl(recordFromCsl(item));
    expect(csl).toMatchObject({
      author: item.author,
      editor: item.editor,
      translator: item.translator,
      issued: { 'date-parts': [[1999, 5], [2001]] },
      accessed: { 'date-parts': [[2020, 1, 31]] },
      'original-date': { literal: 'Spring 1850' },
      'container-title': 'A Book',
      'collection-title': 'A Series',
      'publisher-place': 'Leiden',
      page: '12-19',
      edition: '2',
      'event-title': 'Old name of event-title',
      DOI: '10.1000/xyz',
    });
    expect(csl).not.toHaveProperty('title');
    expect(csl).not.toHaveProperty('URL');
  });

  it('reads months 13 to 24 as seasons, as citeproc-js does, and no other month out of range', () => {
    const issued = (parts: unknown[]) =>
      recordFromCsl({ issued: { 'date-parts': [parts] } }).issued;
    expect(issued([1999, 21])).toEqual({ year: 1999, season: 1 });
    expect(issued(['1965', '24', '0'])).toEqual({ year: 1965, season: 4 });
    expect(issued([1965, 13, 1])).toEqual({ year: 1965, season: 1 });
    expect(issued([1965, 17, 1])).toEqual({ year: 1965, season: 1 });
    expect(issued([1965, 60, 1])).toEqual({ year: 1965 });
    expect(issued([2000, '', ''])).toEqual({ year: 2000 });
    expect(recordToCsl({ issued: { year: 1999, season: 2 } }).issued).toEqual({
      'date-parts': [[1999]],
      season: 2,
    });
  });

  it("keeps a range's seasons at both ends, and an open range, and writes them back", () => {
    const issued = (parts: unknown[][], more: Record<string, unknown> = {}) =>
      recordFromCsl({ issued: { 'date-parts': parts, ...more } }).issued;
    // Spring 1999 – Summer 2001; Summer – Spring of one year; 1987–.
    expect(
      issued([
        ['1999', '21'],
        ['2001', '22'],
      ]),
    ).toEqual({
      year: 1999,
      season: 1,
      end: { year: 2001, season: 2 },
    });
    expect(
      issued([
        [1999, 22],
        [1999, 21],
      ]),
    ).toEqual({
      year: 1999,
      season: 2,
      end: { year: 1999, season: 1 },
    });
    expect(issued([[1987], [0]])).toEqual({ year: 1987, openEnd: true });
    expect(issued([[1987], ['']])).toEqual({ year: 1987, openEnd: true });
    expect(issued([[1987], [1987]])).toEqual({ year: 1987 });
    const back = (date: RecordDate) => recordToCsl({ issued: date }).issued;
    expect(back({ year: 1999, season: 1, end: { year: 2001, season: 2 } })).toEqual({
      'date-parts': [
        [1999, 21],
        [2001, 22],
      ],
    });
    expect(back({ year: 1987, openEnd: true })).toEqual({ 'date-parts': [[1987], [0]] });
    expect(back({ year: 1999, month: 3, season: 1, end: { year: 1999, month: 5 } })).toEqual({
      'date-parts': [
        [1999, 3],
        [1999, 5],
      ],
      season: 1,
    });
    // What is written reads back the same.
    for (const date of [
      { year: 1999, season: 2, end: { year: 1999, season: 1 } },
      { year: 2001, openEnd: true as const },
    ])
      expect(recordFromCsl({ issued: back(date) }).issued).toEqual(date);
  });

  it('writes a variable that came under its older name (event) back under it alone', () => {
    const came = { type: 'speech', event: 'Big Event' };
    const record = recordFromCsl(came);
    expect(record.eventTitle).toBe('Big Event');
    const other = otherVariablesOf(came) ?? {};
    expect(other).toEqual({ event: 'Big Event' });
    expect(withOlderNames({ ...other, ...recordToCsl(record) })).toEqual({ event: 'Big Event' });
    // Given both, both are kept; an edited field is written under its name.
    expect(otherVariablesOf({ event: 'A', 'event-title': 'A' })).toBeUndefined();
    expect(withOlderNames({ ...other, 'event-title': 'Edited' })).toEqual({
      event: 'Big Event',
      'event-title': 'Edited',
    });
  });

  it('keeps a title longer than a resource holds whole beside it, while the title is its start', () => {
    const whole = `${'Long title words '.repeat(30)}end.`.trim();
    const kept = whole.slice(0, TITLE_MAX);
    expect(wholeTitleToKeep(whole, whole, kept)).toBe(whole);
    const rich = `${whole.slice(0, 20)}<i>${whole.slice(20)}</i>`;
    expect(wholeTitleToKeep(rich, whole, kept)).toBe(rich);
    expect(wholeTitleToKeep('Short', 'Short', 'Short')).toBeUndefined();
    expect(currentMarkup({ markup: { title: rich } }, kept)).toEqual({ title: rich });
    // Edited: a prefix of the old title is a new title, not the old one cut.
    expect(currentMarkup({ markup: { title: rich } }, whole.slice(0, 40))).toEqual({});
  });

  it('reads CSL types, preprints for its article, and this service’s older names', () => {
    expect(recordTypeOf('article')).toBe('preprint');
    expect(recordTypeOf('paper-conference')).toBe('paper-conference');
    expect(recordTypeOf('conference-paper')).toBe('paper-conference');
    expect(recordTypeOf('video')).toBe('motion_picture');
    expect(recordTypeOf('__proto__')).toBeUndefined();
    expect(recordTypeOf('toString')).toBeUndefined();
  });
});

describe('identifiers and dates', () => {
  it('checks ISBN and ISSN check digits', () => {
    expect(isValidIsbn('978-0-306-40615-7')).toBe(true);
    expect(isValidIsbn('978-0-306-40615-6')).toBe(false);
    expect(isValidIsbn('0-306-40615-2')).toBe(true);
    expect(isValidIsbn('0-8044-2957-X')).toBe(true);
    expect(isValidIssn('0378-5955')).toBe(true);
    expect(isValidIssn('0378-5956')).toBe(false);
    expect(isValidIssn('2434-561X')).toBe(true);
  });

  it('reads a DOI without its resolver, and nothing else as one', () => {
    expect(bareDoi('https://doi.org/10.1038/nature14539')).toBe('10.1038/nature14539');
    expect(bareDoi('doi: 10.1002/(SICI)1097-4636(199603)31:3<303::AID-JBM1>3.0.CO;2-[Q]')).toBe(
      '10.1002/(SICI)1097-4636(199603)31:3<303::AID-JBM1>3.0.CO;2-[Q]',
    );
    expect(bareDoi('10.12/no')).toBeNull();
    expect(bareDoi('not a doi')).toBeNull();
  });

  it('reads ISO dates at the precision given, and drops a day its month does not have', () => {
    expect(dateFromIso('2017-06-12')).toEqual({ year: 2017, month: 6, day: 12 });
    expect(dateFromIso('2017-06')).toEqual({ year: 2017, month: 6 });
    expect(dateFromIso(2017)).toEqual({ year: 2017 });
    expect(dateFromIso('2023-02-30')).toEqual({ year: 2023, month: 2 });
    expect(dateFromIso('soon')).toBeUndefined();
  });
});
