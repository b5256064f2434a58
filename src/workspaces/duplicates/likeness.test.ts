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

  it('links a title bucket as comparing every pair would, in time linear in the bucket', () => {
    // Every pair compared by the rules themselves (the same DOI, arXiv id or PMID; else alike by
    // title, via alikeByTitle), sets joined by hand: the reference the grouping must equal on
    // mixed identifier sets.
    const values = ['10.1000/a', '10.1000/b', null];
    const arxivs = ['2101.00001', '2101.00002', null];
    const pmids = ['1', '2', null];
    const all: Candidate[] = [];
    for (const doi of values)
      for (const arxivId of arxivs)
        for (const pmid of pmids)
          all.push(candidate(`${doi}|${arxivId}|${pmid}`, { title: 'Same', doi, arxivId, pmid }));
    // Seeded sampling: many subsets of the 27 kinds of resource, each in file order.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let round = 0; round < 300; round++) {
      const chosen = all.filter(() => random() < 0.25);
      const parent = chosen.map((_, index) => index);
      const root = (at: number): number => (parent[at] === at ? at : root(parent[at]!));
      chosen.forEach((a, i) =>
        chosen.slice(0, i).forEach((b, j) => {
          const shares = (['doi', 'arxivId', 'pmid'] as const).some(
            (kind) => a[kind] !== null && a[kind] === b[kind],
          );
          if (shares || alikeByTitle(a, [b])) parent[root(i)] = root(j);
        }),
      );
      const expected = new Map<number, string[]>();
      chosen.forEach((c, i) => expected.set(root(i), [...(expected.get(root(i)) ?? []), c.id]));
      const sets = (groups: string[][]) => groups.map((ids) => ids.join(' ')).sort();
      expect(sets(duplicateGroups(chosen).map((group) => group.ids))).toEqual(
        sets([...expected.values()].filter((ids) => ids.length > 1)),
      );
    }
    // The worst bucket: 10,000 resources of one title, each with its own DOI, are 10,000 works.
    const distinct = Array.from({ length: 10_000 }, (_, i) =>
      candidate(`r${i}`, { title: 'Same', year: 2020, doi: `10.1000/${i}` }),
    );
    expect(duplicateGroups(distinct)).toEqual([]);
  });
});
