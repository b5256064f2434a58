/** The interop measurement's comparisons and Zotero → CSL mapping (test/interop/compare.ts, zotero-csl.ts). */
import { describe, expect, it } from 'vitest';
import { differences, normaliseName, normaliseValue } from './compare.js';
import { zoteroDate, zoteroToCsl } from './zotero-csl.js';

describe('normalised comparison', () => {
  it('takes a name the same whichever way its parts were given', () => {
    expect(normaliseName({ family: 'von Hicks', given: 'Michael, III' })).toBe(
      normaliseName({
        family: 'Hicks',
        'non-dropping-particle': 'von',
        given: 'Michael',
        suffix: 'III',
      }),
    );
    expect(normaliseName({ family: 'Márquez', given: 'Gabriel García' })).not.toBe(
      normaliseName({ family: 'García Márquez', given: 'Gabriel' }),
    );
    expect(normaliseName({ literal: 'Beijing Zoo' })).toBe('=Beijing Zoo');
  });

  it('compares pages with any dash, ISBNs without hyphens, dates by their parts', () => {
    expect(normaliseValue('page', '476–481')).toBe(normaliseValue('page', '476-481'));
    expect(normaliseValue('ISBN', '0-69-697269-4')).toBe('0696972694');
    expect(normaliseValue('issued', { 'date-parts': [['2001', '3']] })).toBe('2001-3');
    // As citeproc-js reads them: empty parts are none, months 13–24 seasons, a range both its ends.
    expect(normaliseValue('issued', { 'date-parts': [['2000', '', '']] })).toBe('2000');
    expect(normaliseValue('issued', { 'date-parts': [[1965, 24, 0]] })).toBe(
      normaliseValue('issued', { 'date-parts': [[1965]], season: 4 }),
    );
    expect(normaliseValue('issued', { 'date-parts': [[1965, 60, 1]] })).toBe('1965');
    expect(
      normaliseValue('issued', {
        'date-parts': [
          [1999, 21],
          [2001, 22],
        ],
      }),
    ).not.toBe(normaliseValue('issued', { 'date-parts': [[1999], [2001]], season: 1 }));
  });

  it('says which variables were lost, changed or added, identity aside', () => {
    const found = differences(
      { id: 'a', type: 'book', title: 'T', volume: 2, author: [{ family: 'A', given: 'B' }] },
      { id: 'b', 'citation-key': 'k', type: 'book', title: 'T ', volume: '2', publisher: 'P' },
    );
    expect(found.map((d) => `${d.variable} ${d.kind}`).sort()).toEqual([
      'author lost',
      'publisher added',
    ]);
  });
});

describe('Zotero items as CSL items (Zotero schema mapping)', () => {
  it('maps fields through their base field, the primary creator to author, dates to parts', () => {
    const csl = zoteroToCsl(
      {
        itemType: 'bookSection',
        title: 'Chapter',
        bookTitle: 'The Book',
        place: 'Palo Alto',
        date: 'March 2, 2005',
        libraryCatalog: 'not CSL',
        creators: [
          { creatorType: 'author', lastName: 'Ma', firstName: 'Bo-Qiang' },
          { creatorType: 'editor', name: 'Beijing Zoo' },
          { creatorType: 'bookAuthor', lastName: 'Doe', fieldMode: 1 },
        ],
      },
      'x',
    );
    expect(csl).toEqual({
      id: 'x',
      type: 'chapter',
      title: 'Chapter',
      'container-title': 'The Book',
      'publisher-place': 'Palo Alto',
      issued: { 'date-parts': [[2005, 3, 2]] },
      author: [{ family: 'Ma', given: 'Bo-Qiang' }],
      editor: [{ literal: 'Beijing Zoo' }],
      'container-author': [{ literal: 'Doe' }],
    });
    expect(zoteroDate('2006-05-00')).toEqual({ 'date-parts': [[2006, 5]] });
    expect(zoteroDate('n.d.')).toEqual({ literal: 'n.d.' });
  });
});
