import { describe, expect, it } from 'vitest';
import {
  APOSTROPHE_WORD,
  countWords,
  isIrregularSpaceCode,
  isSignificantToken,
  looksLikeFragment,
  MIN_TERM_LENGTH,
  NON_ASCII_WORD,
  porterStem,
  scanWordOffsets,
  scanWords,
  significantTerms,
  wordTokens,
} from './tokens.js';

describe('wordTokens', () => {
  it('lower-cases, splits hyphens, keeps apostrophes inside words and drops possessives', () => {
    expect(wordTokens("The model's document-level view doesn't fail.")).toEqual([
      'the',
      'model',
      'document',
      'level',
      'view',
      'doesnt',
      'fail',
    ]);
  });
  it('handles letters outside ASCII', () => {
    expect(wordTokens('Études naïves über Ökologie')).toEqual([
      'études',
      'naïves',
      'über',
      'ökologie',
    ]);
  });
  it('skips URLs, e-mail addresses, DOIs and placeholders', () => {
    expect(
      wordTokens('see https://x.org/a.b and me@example.org or 10.1000/abc.1 with <dig> cells'),
    ).toEqual(['see', 'and', 'or', 'with', 'cells']);
  });
  it('counts words as a reader would', () => {
    expect(countWords('Deep learning — it works (mostly), for NLP.')).toBe(7);
  });
});

describe('isSignificantToken', () => {
  it('rejects stopwords, academic filler, numbers and fragments', () => {
    for (const token of [
      'the',
      'however',
      'paper',
      'propose',
      'results',
      '2019',
      '12a',
      'tion',
      'ment',
      'al',
      'x',
    ]) {
      expect(isSignificantToken(token), token).toBe(false);
    }
  });
  it('accepts content words, acronyms and names with digits', () => {
    for (const token of ['transformer', 'citation', 'bert', 'cnn', 'covid19', 'graph']) {
      expect(isSignificantToken(token), token).toBe(true);
    }
  });
  it('counts digits outside ASCII as digits', () => {
    for (const token of ['x²³', 'a٣٤٥']) expect(looksLikeFragment(token), token).toBe(true);
    for (const token of ['ab²³', 'abc٣', 'h2o', 'über2'])
      expect(looksLikeFragment(token), token).toBe(false);
  });
  it('knows suffix fragments from PDF breaks', () => {
    expect(looksLikeFragment('tions')).toBe(true);
    expect(looksLikeFragment('nation')).toBe(false);
  });
});

describe('porterStem', () => {
  it('stems lower-case English words as Porter (1980) does', () => {
    // Pairs from M. F. Porter's paper.
    expect(
      ['caresses', 'ponies', 'relational', 'hopping', 'generalizations'].map(porterStem),
    ).toEqual(['caress', 'poni', 'relat', 'hop', 'gener']);
  });
  it('leaves words the algorithm was not written for as they are', () => {
    expect(['naïves', 'bert2s', 'модели', 'is'].map(porterStem)).toEqual([
      'naïves',
      'bert2s',
      'модели',
      'is',
    ]);
  });
});

describe('significantTerms', () => {
  it('stems so that inflections count as one term', () => {
    expect(significantTerms('Citations cite cited citation graphs')).toEqual([
      'citat',
      'cite',
      'cite',
      'citat',
      'graph',
    ]);
  });
});

describe('scanWordOffsets', () => {
  function scanned(text: string) {
    const spans = scanWordOffsets(text);
    const words = [];
    for (let k = 0; k < spans.count; k++) {
      words.push({
        word: text.slice(spans.starts[k], spans.ends[k]),
        flags: spans.flags[k],
      });
    }
    return {
      words,
      letters: spans.letters,
      digits: spans.digits,
      upper: spans.upper,
      irregular: spans.irregularSpacing,
    };
  }

  it('finds the words, flags apostrophes and letters outside ASCII, and counts their characters', () => {
    const { words, letters, digits, upper } = scanned("BERT's Naïve 2019 model, e.g. don’t");
    expect(words.map((entry) => entry.word)).toEqual([
      "BERT's",
      'Naïve',
      '2019',
      'model',
      'e',
      'g',
      'don’t',
    ]);
    expect(words.map((entry) => entry.flags)).toEqual([
      APOSTROPHE_WORD,
      NON_ASCII_WORD,
      0,
      0,
      0,
      0,
      APOSTROPHE_WORD | NON_ASCII_WORD,
    ]);
    // Every character of a word but the digits 0–9 counts as a letter (apostrophes too).
    const characters = words.map((entry) => entry.word).join('');
    expect({ letters, digits, upper }).toEqual({
      letters: characters.replace(/[0-9]/g, '').length,
      digits: characters.replace(/[^0-9]/g, '').length,
      upper: characters.replace(/[^A-Z]/g, '').length,
    });
    expect(letters).toBe(23);
  });

  it('tells a year before a full stop from a DOI, and skips only the DOI', () => {
    expect(scanWords('It was in 2010. The DOI 10.1000/xyz.12 is cited, not 10.100/x.')).toEqual([
      'It',
      'was',
      'in',
      '2010',
      'The',
      'DOI',
      'is',
      'cited',
      'not',
      '10',
      '100',
      'x',
    ]);
    expect(
      scanWords('Seen at www.example.org and http://a.org/b by me@example.org in 2010.'),
    ).toEqual(['Seen', 'at', 'and', 'by', 'in', '2010']);
  });

  it('reads texts longer than its buffers', () => {
    const text = 'word '.repeat(5000);
    expect(scanWordOffsets(text).count).toBe(5000);
    expect(countWords('Deep learning works.')).toBe(3);
  });

  it('notices whitespace other than single spaces, and bullet marks', () => {
    expect(scanned('A plain sentence, single-spaced.').irregular).toBe(false);
    for (const text of [
      'two  spaces',
      'a\ttab',
      'a line\nbreak',
      'no\u00a0break',
      'key • point',
      'see http://x.org/\u2028abc',
      'at  me@example.org',
    ]) {
      expect(scanned(text).irregular, JSON.stringify(text)).toBe(true);
    }
  });

  it('names as irregular exactly what the sentence splitter flattens or splits at', () => {
    const flattened = /[^\S ]|[•▪●◦■►]/;
    for (let code = 0; code < 0x10000; code++) {
      expect(isIrregularSpaceCode(code), code.toString(16)).toBe(
        flattened.test(String.fromCharCode(code)),
      );
    }
  });
});

describe('MIN_TERM_LENGTH', () => {
  it('is the length under which no token is a term', () => {
    for (const token of ['ai', 'x2', 'go', 'ml'])
      expect(isSignificantToken(token), token).toBe(false);
    expect(MIN_TERM_LENGTH).toBe(3);
  });
});
