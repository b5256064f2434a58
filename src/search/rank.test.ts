import { describe, expect, it } from 'vitest';
import { semanticScholarPaperToRecord } from './providers/semanticscholar.js';
import { createRecordScorer, paginate, scoreRecords, sortRecords, tokenize } from './rank.js';
import { readFixture } from './test-support/harness.js';
import type { ProviderId, SearchRecord } from './types.js';

function record(id: string, fields: Partial<SearchRecord> = {}): SearchRecord {
  const provider: ProviderId = fields.provider ?? 'crossref';
  return {
    id: `${provider}:${id}`,
    provider,
    nativeId: id,
    title: '',
    authors: [],
    abstract: '',
    url: 'https://example.org',
    publishedDate: null,
    year: null,
    citations: 0,
    citationsKnown: false,
    score: 0,
    sources: [provider],
    ...fields,
  };
}

function turingRecords(): SearchRecord[] {
  const body = JSON.parse(
    readFixture('semanticscholar/paper_search_turing_all-fields_limit100.json'),
  ) as {
    data: Array<Record<string, unknown>>;
  };
  return body.data
    .map(semanticScholarPaperToRecord)
    .filter((item): item is SearchRecord => !!item)
    .map((item, index) => ({ ...item, ranks: { semanticscholar: index + 1 } }));
}

describe('scoreRecords', () => {
  it('puts the paper whose title is the query first among 100 recorded results', () => {
    const scored = sortRecords(
      scoreRecords(turingRecords(), 'neural turing machines'),
      'relevance',
    );
    expect(scored[0]?.title).toBe('Neural Turing Machines');
    expect(scored.every((item) => item.score >= 0 && item.score <= 1)).toBe(true);
    expect(scored[0]?.score).toBeGreaterThan(scored[1]?.score ?? 1);
  });

  it('scores the same when each answer was prepared as it arrived (and a record it never saw)', () => {
    const records = turingRecords();
    const scorer = createRecordScorer('neural turing machines');
    scorer.prepare(records.slice(0, 40));
    scorer.prepare(records.slice(40, 90));
    // The last ten were never prepared (a merged record is made after every answer is in).
    expect(scorer.score(records)).toEqual(scoreRecords(records, 'neural turing machines'));
  });

  it('weights the title above the abstract', () => {
    const [inTitle, inAbstract] = scoreRecords(
      [
        record('a', { title: 'Protein folding with graphs', abstract: 'We study molecules.' }),
        record('b', {
          title: 'A study of molecules',
          abstract: 'Protein folding with graphs is discussed.',
        }),
      ],
      'protein folding',
    );
    expect(inTitle?.score).toBeGreaterThan(inAbstract?.score ?? 1);
  });

  it('fuses provider ranks: the same text ranked first by two providers beats rank 5 by one', () => {
    const text = { title: 'Graph neural networks', abstract: 'A survey.' };
    const [consensus, single] = scoreRecords(
      [
        record('a', { ...text, ranks: { crossref: 1, openalex: 1 } }),
        record('b', { ...text, ranks: { crossref: 5 } }),
      ],
      'graph neural networks',
    );
    expect(consensus?.score).toBeGreaterThan(single?.score ?? 1);
  });

  it('gives 0 to a record that matches nothing and has no rank', () => {
    const [hit, miss] = scoreRecords(
      [
        record('a', { title: 'Coral reef monitoring', ranks: { zenodo: 1 } }),
        record('b', { title: 'Unrelated' }),
      ],
      'coral reefs',
    );
    expect(hit?.score).toBe(1);
    expect(miss?.score).toBe(0);
  });

  it('keeps the input order and leaves the input untouched', () => {
    const input = [record('a', { title: 'x' }), record('b', { title: 'y' })];
    const scored = scoreRecords(input, 'y');
    expect(scored.map((item) => item.id)).toEqual(['crossref:a', 'crossref:b']);
    expect(input[1]?.score).toBe(0);
  });

  it('tokenizes with accents folded and plural s dropped', () => {
    expect(tokenize('Élan Tools, naïve—DATA')).toEqual(['elan', 'tool', 'naive', 'data']);
  });
});

describe('sortRecords', () => {
  const records = [
    record('undated', { score: 0.9 }),
    record('old', { publishedDate: '2001-06', score: 0.2, citations: 10, citationsKnown: true }),
    record('new', { publishedDate: '2024-05-08', score: 0.5, citations: 0, citationsKnown: true }),
    record('year-only', { publishedDate: '2024', score: 0.4 }),
    record('tie-a', {
      publishedDate: '2010-01-01',
      score: 0.3,
      citations: 10,
      citationsKnown: true,
    }),
    record('tie-b', {
      publishedDate: '2010-01-01',
      score: 0.3,
      citations: 10,
      citationsKnown: true,
    }),
  ];

  it('relevance: highest score first, ties in input order', () => {
    expect(sortRecords(records, 'relevance').map((item) => item.nativeId)).toEqual([
      'undated',
      'new',
      'year-only',
      'tie-a',
      'tie-b',
      'old',
    ]);
  });

  it('date: newest first, a full date before the bare year it falls in, undated last', () => {
    expect(sortRecords(records, 'date').map((item) => item.nativeId)).toEqual([
      'new',
      'year-only',
      'tie-a',
      'tie-b',
      'old',
      'undated',
    ]);
  });

  it('citations: most cited first, a known 0 before unknown counts, ties by score then input order', () => {
    expect(sortRecords(records, 'citations').map((item) => item.nativeId)).toEqual([
      'tie-a',
      'tie-b',
      'old',
      'new',
      'undated',
      'year-only',
    ]);
  });

  it('does not reorder its input', () => {
    sortRecords(records, 'date');
    expect(records[0]?.nativeId).toBe('undated');
  });
});

describe('paginate', () => {
  const items = Array.from({ length: 45 }, (_, index) => index);

  it('walks the list with honest totals', () => {
    expect(paginate(items, 0, 20)).toEqual({
      results: items.slice(0, 20),
      total: 45,
      hasMore: true,
    });
    expect(paginate(items, 20, 20)).toMatchObject({ total: 45, hasMore: true });
    const last = paginate(items, 40, 20);
    expect(last).toEqual({ results: [40, 41, 42, 43, 44], total: 45, hasMore: false });
  });

  it('is exact at the boundary and past the end', () => {
    expect(paginate(items, 25, 20)).toMatchObject({ hasMore: false });
    expect(paginate(items, 24, 20)).toMatchObject({ hasMore: true });
    expect(paginate(items, 100, 20)).toEqual({ results: [], total: 45, hasMore: false });
    expect(paginate([], 0, 20)).toEqual({ results: [], total: 0, hasMore: false });
  });
});
