/** The likeness rule and the grouping, without a database. */
import { describe, expect, it } from 'vitest';
import { duplicateGroups, type Candidate } from './groups.js';
import { alikeByTitle, likenessKey, type WorkTraits } from './likeness.js';

const work = (traits: Partial<WorkTraits> & { title: string }): WorkTraits => ({
  year: null,
  firstFamily: null,
  doi: null,
  arxivId: null,
  pmid: null,
  ...traits,
});

describe('likenessKey', () => {
  it('folds accents, case, punctuation and letters without a mark to drop (ł, ß, ø, æ)', () => {
    const key = (title: string, firstFamily: string | null = null) =>
      likenessKey(work({ title, year: 2020, firstFamily }));
    expect(key('Łódź: a Straße, Ørsted & Æsop!', 'Wałęsa')).toBe(
      key('lodz  a STRASSE orsted aesop', 'walesa'),
    );
    expect(key('The DNA of École')).not.toBe(key('The DNA of École', 'Curie'));
    expect(key('!!!')).toBeNull();
  });

  it('keeps a missing year or author apart from a present one', () => {
    expect(likenessKey(work({ title: 'T' }))).not.toBe(likenessKey(work({ title: 'T', year: 1 })));
  });
});

describe('alikeByTitle', () => {
  it('is not alike when both carry a DOI (arXiv id, PMID) and they differ; one without is', () => {
    const there = [work({ title: 'Reply', year: 2001, doi: '10.1000/A' })];
    expect(alikeByTitle(work({ title: 'reply', year: 2001, doi: '10.1000/b' }), there)).toBeNull();
    expect(alikeByTitle(work({ title: 'reply', year: 2001, doi: '10.1000/a' }), there)).toBe(
      there[0],
    );
    expect(alikeByTitle(work({ title: 'reply', year: 2001, arxivId: '2101.00001' }), there)).toBe(
      there[0],
    );
  });
});

describe('duplicateGroups', () => {
  const candidate = (id: string, traits: Partial<WorkTraits> & { title: string }): Candidate => ({
    id,
    ...work(traits),
  });

  it('groups by each reason, strongest first, and leaves differing DOIs apart', () => {
    const groups = duplicateGroups([
      candidate('t1', { title: 'Same title' }),
      candidate('d1', { title: 'One', doi: '10.1000/X' }),
      candidate('t2', { title: 'same title.' }),
      candidate('d2', { title: 'Two', doi: 'https://doi.org/10.1000/x' }),
      candidate('p1', { title: 'P', pmid: '042' }),
      candidate('p2', { title: 'Q', pmid: '42' }),
      candidate('e1', { title: 'Errata', doi: '10.1000/e1' }),
      candidate('e2', { title: 'Errata', doi: '10.1000/e2' }),
    ]);
    expect(groups).toEqual([
      { reason: 'doi', ids: ['d1', 'd2'] },
      { reason: 'pmid', ids: ['p1', 'p2'] },
      { reason: 'title', ids: ['t1', 't2'] },
    ]);
  });

  it('joins through a resource without identifiers: one group, each resource once', () => {
    const groups = duplicateGroups([
      candidate('a', { title: 'Errata', doi: '10.1000/e1' }),
      candidate('b', { title: 'Errata', doi: '10.1000/e2' }),
      candidate('c', { title: 'Errata' }),
    ]);
    expect(groups).toEqual([{ reason: 'title', ids: ['a', 'b', 'c'] }]);
  });
});
