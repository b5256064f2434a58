import { describe, expect, it } from 'vitest';
import { STOPWORDS } from './stopwords.js';
import { summarize } from './summarize.js';
import { displayForm, FormTally } from './tags.js';
import { paper } from './test-support/texts.js';

describe('tags', () => {
  const summary = summarize({
    title: 'Graphene membranes for desalination',
    text: paper(),
    mode: 'deep',
  });

  it('tags with topic terms, no stopwords, numbers or fragments', () => {
    expect(summary.tags.length).toBeGreaterThan(0);
    expect(summary.tags.length).toBeLessThanOrEqual(8);
    expect(summary.tags.join(' ').toLowerCase()).toMatch(/graphene/);
    expect(summary.tags.join(' ').toLowerCase()).toMatch(/membrane/);
    for (const tag of summary.tags) {
      for (const word of tag.toLowerCase().split(' ')) {
        expect(STOPWORDS.has(word), word).toBe(false);
        expect(word, word).not.toMatch(/\d/);
        expect(word.length, word).toBeGreaterThanOrEqual(3);
      }
    }
  });
});

describe('displayForm', () => {
  function tally(...forms: string[]): FormTally {
    const result = new FormTally();
    for (const form of forms) result.add(form, 0, form.length);
    return result;
  }

  it('shows a term as written inside sentences, the most frequent form first, ties in code-unit order', () => {
    expect(displayForm(tally('Malawi', 'Malawi', 'malawi'), undefined, 'malawi')).toBe('Malawi');
    expect(displayForm(tally('gpu', 'GPU'), undefined, 'gpu')).toBe('GPU');
  });

  it('lower-cases a word seen only at sentence starts unless it is an acronym or mixed case', () => {
    expect(displayForm(undefined, tally('Graphene'), 'graphen')).toBe('graphene');
    expect(displayForm(undefined, tally('BERT'), 'bert')).toBe('BERT');
    expect(displayForm(undefined, tally('FearNet'), 'fearnet')).toBe('FearNet');
    expect(displayForm(undefined, undefined, 'graphen')).toBe('graphen');
  });
});
