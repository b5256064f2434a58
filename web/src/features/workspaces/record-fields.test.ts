/** The item pane's logic: fields by type, values shown and sent, the creators editor's steps. */
import { describe, expect, it } from 'vitest';
import {
  creatorLine,
  creatorName,
  creatorsOf,
  dateText,
  draftOf,
  fieldChange,
  fieldLabel,
  fieldOfError,
  fieldsFor,
  firstAuthor,
  moveCreator,
  switchFields,
  typeLabel,
  valueText,
} from './record-fields';

describe('fields by type', () => {
  it('shows a type’s own fields first, then every type’s, then any other field the record holds', () => {
    expect(fieldsFor('article-journal', {})).toEqual([
      'containerTitle',
      'volume',
      'issue',
      'pages',
      'issued',
      'doi',
      'issn',
      'url',
      'language',
    ]);
    // The abstract has its own section (highlights): never one of the pane's fields.
    expect(
      fieldsFor('thesis', { archive: 'Library', edition: '', abstract: 'A' }, ['medium']),
    ).toEqual([
      'genre',
      'publisher',
      'publisherPlace',
      'issued',
      'url',
      'language',
      'archive',
      'medium',
    ]);
    // A type without a table of its own gets the generic set.
    expect(fieldsFor('map', {}).slice(0, 5)).toEqual([
      'containerTitle',
      'publisher',
      'publisherPlace',
      'issued',
      'doi',
    ]);
  });

  it('names a field as its type does', () => {
    expect(fieldLabel('containerTitle', 'article-journal')).toBe('Journal');
    expect(fieldLabel('containerTitle', 'chapter')).toBe('Book title');
    expect(fieldLabel('containerTitle', 'paper-conference')).toBe('Proceedings title');
    expect(fieldLabel('publisher', 'thesis')).toBe('University');
    expect(fieldLabel('publisher', 'report')).toBe('Institution');
    expect(fieldLabel('publisher', 'book')).toBe('Publisher');
    expect(typeLabel('paper-conference')).toBe('Conference paper');
    expect(typeLabel('something-else')).toBe('something-else');
  });
});

describe('values', () => {
  it('writes a date as it is typed back', () => {
    expect(dateText({ year: 2017, month: 6, day: 12 })).toBe('2017-06-12');
    expect(dateText({ year: 2017, month: 6 })).toBe('2017-06');
    expect(dateText({ year: 1843 })).toBe('1843');
    expect(dateText({ year: 2001, circa: true, end: { year: 2003 } })).toBe('ca. 2001/2003');
    expect(dateText({ year: 1987, openEnd: true })).toBe('1987/..');
    expect(dateText({ literal: 'Spring term' })).toBe('Spring term');
    expect(dateText(undefined)).toBe('');
  });

  it('sends a field trimmed, and an emptied field as null (cleared)', () => {
    expect(fieldChange('containerTitle', '  Nature ')).toEqual({ containerTitle: 'Nature' });
    expect(fieldChange('issued', '2019-05')).toEqual({ issued: '2019-05' });
    expect(fieldChange('volume', '   ')).toEqual({ volume: null });
  });

  it('reads the field and the creator an API error names', () => {
    expect(fieldOfError('creators.2.family')).toEqual({ field: 'creators', index: 2 });
    expect(fieldOfError('doi')).toEqual({ field: 'doi' });
    expect(fieldOfError(undefined)).toBeNull();
  });
});

describe('creators', () => {
  it('switches a name between two fields and one, and back', () => {
    const ada = draftOf({ role: 'author', family: 'Lovelace', given: 'Ada' });
    const one = switchFields(ada);
    expect(one).toMatchObject({ single: true, literal: 'Ada Lovelace', family: '', given: '' });
    expect(switchFields(one)).toMatchObject({ single: false, family: 'Lovelace', given: 'Ada' });
    const particle = draftOf({
      role: 'author',
      family: 'Beethoven',
      given: 'Ludwig',
      nonDroppingParticle: 'van',
    });
    expect(switchFields(particle).literal).toBe('Ludwig van Beethoven');
    expect(creatorsOf([switchFields(particle)])).toEqual([
      { role: 'author', literal: 'Ludwig van Beethoven' },
    ]);
  });

  it('sends every row as the API’s name, keeps parts not shown, and drops blank rows', () => {
    const drafts = [
      draftOf({ role: 'author', family: 'García Márquez', given: 'Gabriel', suffix: 'Jr.' }),
      draftOf({ role: 'author', literal: 'Beijing Zoo' }),
      { ...draftOf({ role: 'editor', family: '', given: '' }) },
      { ...draftOf({ role: 'author', family: 'x' }), role: 'translator' as const, family: ' Tr ' },
    ];
    expect(creatorsOf(drafts)).toEqual([
      { role: 'author', family: 'García Márquez', given: 'Gabriel', suffix: 'Jr.' },
      { role: 'author', literal: 'Beijing Zoo' },
      { role: 'translator', family: 'Tr' },
    ]);
  });

  it('opens the particles and suffix of a name that has any, and sends them as edited', () => {
    const gogh = draftOf({ role: 'author', family: 'Gogh', given: 'Vincent' });
    expect(gogh).toMatchObject({ partsOpen: false, nonDroppingParticle: '', suffix: '' });
    const king = draftOf({ role: 'author', family: 'King', given: 'Martin Luther', suffix: 'Jr.' });
    expect(king).toMatchObject({ partsOpen: true, suffix: 'Jr.' });
    expect(
      creatorsOf([
        { ...gogh, nonDroppingParticle: ' van ' },
        { ...king, suffix: '' },
        {
          ...draftOf({ role: 'author', family: 'Beethoven', given: 'Ludwig' }),
          droppingParticle: 'van',
        },
      ]),
    ).toEqual([
      { role: 'author', family: 'Gogh', given: 'Vincent', nonDroppingParticle: 'van' },
      { role: 'author', family: 'King', given: 'Martin Luther' },
      { role: 'author', family: 'Beethoven', given: 'Ludwig', droppingParticle: 'van' },
    ]);
  });

  it('writes a name inverted with its particles and suffix, and its role when not an author', () => {
    expect(
      creatorName({ role: 'author', family: 'Gogh', given: 'Vincent', nonDroppingParticle: 'van' }),
    ).toBe('van Gogh, Vincent');
    expect(
      creatorName({
        role: 'author',
        family: 'Beethoven',
        given: 'Ludwig',
        droppingParticle: 'van',
      }),
    ).toBe('Beethoven, Ludwig van');
    expect(
      creatorName({ role: 'author', family: 'King', given: 'Martin Luther', suffix: 'Jr.' }),
    ).toBe('King, Martin Luther, Jr.');
    expect(creatorLine({ role: 'editor', family: 'Menabrea', given: 'Luigi' })).toBe(
      'Menabrea, Luigi (editor)',
    );
    expect(creatorLine({ role: 'author', literal: 'CERN' })).toBe('CERN');
  });

  it('moves a creator up and down, and not past either end', () => {
    expect(moveCreator(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveCreator(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveCreator(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveCreator(['a', 'b'], 1, 2)).toEqual(['a', 'b']);
  });

  it('shows the first author as Zotero’s Creator column does', () => {
    const graves = { role: 'author' as const, family: 'Graves', given: 'Alex' };
    const wayne = { role: 'author' as const, family: 'Wayne', given: 'Greg' };
    const editor = { role: 'editor' as const, family: 'Smith', given: 'Jo' };
    expect(firstAuthor([editor, graves])).toBe('Graves');
    expect(firstAuthor([graves, wayne])).toBe('Graves and Wayne');
    expect(firstAuthor([graves, wayne, { role: 'author', literal: 'CERN' }])).toBe('Graves et al.');
    expect(firstAuthor([editor])).toBe('Smith');
    expect(firstAuthor([{ role: 'author', literal: 'Beijing Zoo' }])).toBe('Beijing Zoo');
    expect(firstAuthor([{ role: 'author', family: 'Beethoven', nonDroppingParticle: 'van' }])).toBe(
      'van Beethoven',
    );
    expect(firstAuthor([], ['Ada Lovelace', 'C. Babbage'])).toBe('Ada Lovelace et al.');
    expect(firstAuthor([])).toBe('');
  });
});

describe('values in a line', () => {
  it('writes a text, a date, a type and creators as the pane does', () => {
    expect(valueText('containerTitle', 'Nature')).toBe('Nature');
    expect(valueText('issued', { year: 2019, month: 3 })).toBe('2019-03');
    expect(valueText('type', 'chapter')).toBe('Book chapter');
    expect(
      valueText('creators', [
        { role: 'author', family: 'Lovelace', given: 'Ada' },
        { role: 'editor', literal: 'Royal Society' },
      ]),
    ).toBe('Lovelace, Ada; Royal Society (editor)');
    expect(valueText('doi', null)).toBe('');
  });
});
