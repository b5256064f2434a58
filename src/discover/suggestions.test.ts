import { describe, expect, it } from 'vitest';
import type { SearchRecord } from '../search/index.js';
import { rankCoCited } from './suggestions.js';

function work(id: string, fields: Partial<SearchRecord> = {}): SearchRecord {
  return {
    id: `semanticscholar:${id}`,
    provider: 'semanticscholar',
    nativeId: id,
    title: `Work ${id}`,
    authors: [],
    abstract: '',
    url: `https://www.semanticscholar.org/paper/${id}`,
    publishedDate: null,
    year: null,
    citations: 0,
    citationsKnown: true,
    score: 0,
    sources: ['semanticscholar'],
    ...fields,
  };
}

describe('rankCoCited', () => {
  it('keeps works in two or more lists, most connected first, then most cited; one count per resource', () => {
    const lists = [
      { resourceId: 'r1', records: [work('a'), work('b', { citations: 5 }), work('c'), work('c')] },
      {
        resourceId: 'r2',
        records: [work('a'), work('b', { citations: 5 }), work('d', { citations: 90 })],
      },
      { resourceId: 'r3', records: [work('a'), work('d', { citations: 90 }), work('e')] },
      // The same work found by DOI through another provider counts for its resource.
      {
        resourceId: 'r4',
        records: [work('x', { provider: 'openalex', id: 'openalex:W1', doi: '10.1/e' }), work('c')],
      },
    ];
    lists[2]!.records[2] = work('e', { doi: '10.1/e' });
    const ranked = rankCoCited(lists, () => false);
    expect(
      ranked.map((suggestion) => [suggestion.record.nativeId, suggestion.resourceIds]),
    ).toEqual([
      ['a', ['r1', 'r2', 'r3']],
      ['d', ['r2', 'r3']],
      ['b', ['r1', 'r2']],
      ['c', ['r1', 'r4']],
      // Shown as OpenAlex's record, which merging prefers over Semantic Scholar's.
      ['x', ['r3', 'r4']],
    ]);
  });

  it('leaves out what the workspace holds', () => {
    const lists = [
      { resourceId: 'r1', records: [work('a'), work('b')] },
      { resourceId: 'r2', records: [work('a'), work('b')] },
    ];
    expect(
      rankCoCited(lists, (record) => record.nativeId === 'a').map(
        (suggestion) => suggestion.record.nativeId,
      ),
    ).toEqual(['b']);
  });
});
