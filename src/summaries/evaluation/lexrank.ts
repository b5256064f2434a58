/**
 * LexRank (Erkan & Radev, 2004), the graph-based baseline: sentences are TF-IDF vectors (IDF over the
 * document's own sentences, as implementations without a background corpus do), linked when their
 * cosine similarity reaches a threshold (0.1 in the paper); centrality is the stationary distribution
 * of a random walk on that graph with damping, found by power iteration.
 */
import { isSignificantToken, termOf, wordTokens } from '../tokens.js';
import { ENGLISH_STOPWORDS } from '../stopwords.js';

export interface LexRankOptions {
  threshold?: number;
  /** Probability of a random jump (the paper's d). */
  damping?: number;
  tolerance?: number;
  maxIterations?: number;
}

function sentenceTerms(sentence: string): string[] {
  // Classic LexRank removes English stopwords only; the academic filler list is our own method's.
  return wordTokens(sentence)
    .filter(
      (token) => !ENGLISH_STOPWORDS.has(token) && (isSignificantToken(token) || token.length > 2),
    )
    .map(termOf);
}

/** Centrality of each sentence (sums to 1). */
export function lexRankScores(sentences: string[], options: LexRankOptions = {}): number[] {
  const threshold = options.threshold ?? 0.1;
  const damping = options.damping ?? 0.15;
  const tolerance = options.tolerance ?? 1e-6;
  const maxIterations = options.maxIterations ?? 200;
  const n = sentences.length;
  if (n === 0) return [];

  const termLists = sentences.map(sentenceTerms);
  const documentFrequency = new Map<string, number>();
  for (const terms of termLists)
    for (const term of new Set(terms))
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const vectors = termLists.map((terms) => {
    const tf = new Map<string, number>();
    for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [term, count] of tf) {
      const idf = Math.log(n / (documentFrequency.get(term) ?? 1));
      const value = count * idf;
      if (value === 0) continue;
      vector.set(term, value);
      norm += value * value;
    }
    return { vector, norm: Math.sqrt(norm) };
  });

  const neighbours: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    const a = vectors[i] as { vector: Map<string, number>; norm: number };
    neighbours[i]?.push(i);
    if (a.norm === 0) continue;
    for (let j = i + 1; j < n; j++) {
      const b = vectors[j] as { vector: Map<string, number>; norm: number };
      if (b.norm === 0) continue;
      const [small, large] =
        a.vector.size < b.vector.size ? [a.vector, b.vector] : [b.vector, a.vector];
      let dot = 0;
      for (const [term, value] of small) dot += value * (large.get(term) ?? 0);
      if (dot / (a.norm * b.norm) >= threshold) {
        neighbours[i]?.push(j);
        neighbours[j]?.push(i);
      }
    }
  }

  let scores = new Float64Array(n).fill(1 / n);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const next = new Float64Array(n).fill(damping / n);
    for (let i = 0; i < n; i++) {
      const links = neighbours[i] as number[];
      const share = ((1 - damping) * (scores[i] as number)) / links.length;
      for (const j of links) next[j] = (next[j] as number) + share;
    }
    let change = 0;
    for (let i = 0; i < n; i++) change += Math.abs((next[i] as number) - (scores[i] as number));
    scores = next;
    if (change < tolerance) break;
  }
  return [...scores];
}

/** Sentence indices from most to least central (ties: earlier first). */
export function lexRankOrder(sentences: string[], options: LexRankOptions = {}): number[] {
  const scores = lexRankScores(sentences, options);
  return scores
    .map((score, index) => ({ score, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.index);
}
