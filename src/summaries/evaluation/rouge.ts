/**
 * ROUGE-N and ROUGE-L F1 (Lin, 2004), as the `rouge-score` package computes them: tokens are the
 * lower-cased runs of letters and digits (after NFKC, so "ﬁ" reads "fi"), optionally Porter-stemmed;
 * ROUGE-N counts clipped n-gram matches, ROUGE-L uses the longest common subsequence of the whole
 * summary against the whole reference (the "rougeL" variant, not the per-sentence "rougeLsum").
 */
import { porterStem } from '../tokens.js';

export interface RougeScore {
  precision: number;
  recall: number;
  f1: number;
}

export interface RougeOptions {
  /** Porter-stem tokens of more than 3 characters, as `rouge-score` does with use_stemmer. Default true. */
  stem?: boolean;
}

export function rougeTokens(text: string, options: RougeOptions = {}): string[] {
  const stem = options.stem ?? true;
  const tokens = text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return stem ? tokens.map((token) => (token.length > 3 ? porterStem(token) : token)) : tokens;
}

function score(matches: number, candidateTotal: number, referenceTotal: number): RougeScore {
  const precision = candidateTotal > 0 ? matches / candidateTotal : 0;
  const recall = referenceTotal > 0 ? matches / referenceTotal : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function rougeNFromTokens(candidate: string[], reference: string[], n: number): RougeScore {
  const candidateCounts = ngramCounts(candidate, n);
  const referenceCounts = ngramCounts(reference, n);
  let matches = 0;
  for (const [gram, count] of candidateCounts)
    matches += Math.min(count, referenceCounts.get(gram) ?? 0);
  return score(
    matches,
    Math.max(0, candidate.length - n + 1),
    Math.max(0, reference.length - n + 1),
  );
}

export function lcsLength(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const token = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      current[j] =
        token === b[j - 1]
          ? (previous[j - 1] as number) + 1
          : Math.max(previous[j] as number, current[j - 1] as number);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
}

function rougeLFromTokens(candidate: string[], reference: string[]): RougeScore {
  return score(lcsLength(candidate, reference), candidate.length, reference.length);
}

export interface RougeTriple {
  rouge1: RougeScore;
  rouge2: RougeScore;
  rougeL: RougeScore;
}

export function rouge(
  candidate: string,
  reference: string,
  options: RougeOptions = {},
): RougeTriple {
  const c = rougeTokens(candidate, options);
  const r = rougeTokens(reference, options);
  return {
    rouge1: rougeNFromTokens(c, r, 1),
    rouge2: rougeNFromTokens(c, r, 2),
    rougeL: rougeLFromTokens(c, r),
  };
}

/** Scores against several references, keeping for each measure the best F1 (as SciTLDR reports). */
export function rougeMaxOverReferences(
  candidate: string,
  references: string[],
  options: RougeOptions = {},
): RougeTriple {
  const scores = references.map((reference) => rouge(candidate, reference, options));
  const best = (pick: (triple: RougeTriple) => RougeScore): RougeScore =>
    scores.map(pick).reduce((a, b) => (b.f1 > a.f1 ? b : a), { precision: 0, recall: 0, f1: 0 });
  return {
    rouge1: best((s) => s.rouge1),
    rouge2: best((s) => s.rouge2),
    rougeL: best((s) => s.rougeL),
  };
}
