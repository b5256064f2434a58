import { describe, expect, it } from 'vitest';
import {
  readSentenceWords,
  TermPairCounts,
  TermTable,
  unreadWords,
  WordStore,
} from './term-table.js';
import { significantTermOf, wordTokens } from './tokens.js';

const SENTENCES = [
  'Graphene membranes filter salt from seawater at low pressure.',
  "The membrane's pores, drilled by an OXYGEN plasma, stay open for a month.",
  'Naïve models of Ökologie and über-efficient membranes are compared in 2019.',
  'We thank the technicians; the membranes were made at www.example.org by me@example.org.',
];

/** Term → occurrences in the sentences, read through a fresh table. */
function countTerms(sentences: string[], table = new TermTable()): Map<string, number> {
  const store = new WordStore();
  const seen: number[] = [];
  sentences.forEach((sentence, index) =>
    readSentenceWords(sentence, index + 1, table, store, seen),
  );
  const counts = new Map<string, number>();
  for (let id = 0; id < table.size; id++) {
    if ((table.frequency[id] as number) > 0)
      counts.set(table.terms[id] as string, table.frequency[id] as number);
  }
  return counts;
}

/** The same counts the slow way: tokens, their significant terms, a Map. */
function referenceCounts(sentences: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const sentence of sentences) {
    for (const token of wordTokens(sentence)) {
      const term = significantTermOf(token);
      if (term !== undefined) counts.set(term, (counts.get(term) ?? 0) + 1);
    }
  }
  return counts;
}

describe('TermTable', () => {
  it('counts the terms the tokens give, looked up from the characters', () => {
    expect(countTerms(SENTENCES)).toEqual(referenceCounts(SENTENCES));
  });

  it('gives a word one id whatever its case and however it is looked up', () => {
    const table = new TermTable();
    const id = table.idOf('membranes');
    expect(id).toBeGreaterThanOrEqual(0);
    expect(table.terms[id]).toBe('membran');
    expect(table.idOf('membrane')).toBe(id);
    const store = new WordStore();
    const words = readSentenceWords('MEMBRANES and Membranes', 1, table, store, []);
    expect([store.terms[0], store.terms[2]]).toEqual([id, id]);
    expect(words.terms).toEqual([id]);
    expect(table.frequency[id]).toBe(2);
  });

  it('gives no id to stopwords, numbers and words too short to be terms', () => {
    const table = new TermTable();
    for (const token of ['the', 'paper', '2019', 'of', 'ai', 'x'])
      expect(table.idOf(token), token).toBe(-1);
  });

  it('gives thousands of words each its own id, the same when asked again', () => {
    const words = Array.from({ length: 5000 }, (_, index) => `term${index.toString(36)}x`);
    const table = new TermTable();
    const ids = words.map((word) => table.idOf(word));
    expect(new Set(ids).size).toBe(words.length);
    expect(words.map((word) => table.idOf(word))).toEqual(ids);
  });
});

describe('readSentenceWords and unreadWords', () => {
  it('records every word, counts the distinct terms once per sentence, and can take them back', () => {
    const table = new TermTable();
    const store = new WordStore();
    const seen: number[] = [];
    readSentenceWords(SENTENCES[0] as string, 1, table, store, seen);
    const frequency = [...table.frequency];
    const words = readSentenceWords('Membranes, membranes: salt membranes', 2, table, store, seen);
    expect(words.wordCount).toBe(4);
    expect(words.significantCount).toBe(4);
    expect(words.terms).toHaveLength(2);
    expect(words.irregularSpacing).toBe(false);
    unreadWords(table, store, words.firstWord);
    expect(store.length).toBe(words.firstWord);
    expect(table.frequency).toEqual(frequency);
  });

  it('tells a sentence that is not single-spaced', () => {
    const words = readSentenceWords(
      'A line\nbroken  twice',
      1,
      new TermTable(),
      new WordStore(),
      [],
    );
    expect(words.irregularSpacing).toBe(true);
  });
});

describe('TermPairCounts', () => {
  it('counts pairs, in order of first sight', () => {
    const pairs = new TermPairCounts();
    const reference = new Map<string, number>();
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const first = seed % 97;
      const second = (seed >> 8) % 89;
      pairs.add(first, second);
      reference.set(`${first} ${second}`, (reference.get(`${first} ${second}`) ?? 0) + 1);
    }
    const counted = new Map<string, number>();
    for (let pair = 0; pair < pairs.size; pair++) {
      counted.set(`${pairs.firsts[pair]} ${pairs.seconds[pair]}`, pairs.counts[pair] as number);
    }
    expect(counted).toEqual(reference);
    expect([...counted.keys()]).toEqual([...reference.keys()]);
  });
});
