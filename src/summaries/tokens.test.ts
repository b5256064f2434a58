import { describe, expect, it } from 'vitest';
import { countWords, isSignificantToken, looksLikeFragment, significantTerms, wordTokens } from './tokens.js';

describe('wordTokens', () => {
  it('lower-cases, splits hyphens, keeps apostrophes inside words and drops possessives', () => {
    expect(wordTokens("The model's document-level view doesn't fail.")).toEqual([
      'the', 'model', 'document', 'level', 'view', 'doesnt', 'fail',
    ]);
  });
  it('handles letters outside ASCII', () => {
    expect(wordTokens('Études naïves über Ökologie')).toEqual(['études', 'naïves', 'über', 'ökologie']);
  });
  it('skips URLs, e-mail addresses, DOIs and placeholders', () => {
    expect(wordTokens('see https://x.org/a.b and me@example.org or 10.1000/abc.1 with <dig> cells')).toEqual([
      'see', 'and', 'or', 'with', 'cells',
    ]);
  });
  it('counts words as a reader would', () => {
    expect(countWords('Deep learning — it works (mostly), for NLP.')).toBe(7);
  });
});

describe('isSignificantToken', () => {
  it('rejects stopwords, academic filler, numbers and fragments', () => {
    for (const token of ['the', 'however', 'paper', 'propose', 'results', '2019', '12a', 'tion', 'ment', 'al', 'x']) {
      expect(isSignificantToken(token), token).toBe(false);
    }
  });
  it('accepts content words, acronyms and names with digits', () => {
    for (const token of ['transformer', 'citation', 'bert', 'cnn', 'covid19', 'graph']) {
      expect(isSignificantToken(token), token).toBe(true);
    }
  });
  it('knows suffix fragments from PDF breaks', () => {
    expect(looksLikeFragment('tions')).toBe(true);
    expect(looksLikeFragment('nation')).toBe(false);
  });
});

describe('significantTerms', () => {
  it('stems so that inflections count as one term', () => {
    expect(significantTerms('Citations cite cited citation graphs')).toEqual(['citat', 'cite', 'cite', 'citat', 'graph']);
  });
});
