import { describe, expect, it } from 'vitest';
import { topCategories } from './categories.js';
import { popularTopicCounts, popularTopics, significantTerms } from './topics.js';

describe('significantTerms', () => {
  it('drops stopwords, numbers, one-letter tokens and search filler', () => {
    expect(significantTerms('A survey of the Transformer models for NLP in 2023')).toEqual([
      'transformer',
      'models',
      'nlp',
    ]);
    expect(significantTerms("COVID-19 vaccines' efficacy")).toEqual([
      'covid-19',
      'vaccines',
      'efficacy',
    ]);
  });
});

describe('popularTopics', () => {
  it('weights terms by searches and lets a recurring phrase stand for its words', () => {
    const topics = popularTopics([
      { query: 'machine learning for genomics', count: 3 },
      { query: 'machine learning interpretability', count: 2 },
      { query: 'protein folding', count: 1 },
    ]);
    expect(topics[0]).toBe('machine learning');
    expect(topics).toContain('genomics');
    expect(topics).not.toContain('machine');
    expect(topics).not.toContain('learning');
    // A phrase searched once is not a topic of its own.
    expect(topics).not.toContain('protein folding');
    expect(topics).toContain('protein');
  });

  it('gives each topic the number of searches whose query holds it', () => {
    expect(
      popularTopicCounts([
        { query: 'machine learning for genomics', count: 3 },
        { query: 'machine learning interpretability', count: 2 },
        { query: 'protein folding', count: 1 },
      ]).slice(0, 2),
    ).toEqual([
      { topic: 'machine learning', count: 5 },
      { topic: 'genomics', count: 3 },
    ]);
    expect(
      popularTopicCounts([
        { query: 'graph graph graph', count: 1 },
        { query: 'vision', count: 2 },
      ]),
    ).toEqual([
      { topic: 'vision', count: 2 },
      { topic: 'graph', count: 1 },
    ]);
  });

  it('counts a term once per query and caps the list', () => {
    expect(
      popularTopics([
        { query: 'graph graph graph', count: 1 },
        { query: 'vision', count: 2 },
      ]),
    ).toEqual(['vision', 'graph']);
    const many = Array.from({ length: 30 }, (_, i) => ({
      query: `topic${String.fromCharCode(97 + (i % 26))}${i}`,
      count: 1,
    }));
    expect(popularTopics(many)).toHaveLength(10);
    expect(popularTopics([])).toEqual([]);
  });
});

describe('topCategories', () => {
  it('counts by type, and untyped resources by their tags, ignoring case', () => {
    expect(
      topCategories([
        { type: 'article', tags: ['ml'] },
        { type: 'Article', tags: [] },
        { type: 'video', tags: ['ml'] },
        { type: null, tags: ['ML', 'vision', 'ml'] },
        { type: '', tags: ['vision'] },
        { type: null, tags: [] },
      ]),
    ).toEqual([
      { category: 'article', count: 2 },
      { category: 'vision', count: 2 },
      { category: 'ml', count: 1 },
      { category: 'video', count: 1 },
    ]);
  });
});
