/**
 * The extractive summarizer: tokenise, drop stopwords, split sentences, score sentences by word
 * frequency, take the top N in their original order. Pure, deterministic, no I/O.
 *
 * How a sentence is scored:
 * - each significant term (stemmed, stopwords and academic filler removed) weighs the square root
 *   of its frequency in the document, more when it is also in the title;
 * - a sentence scores the sum of its distinct terms' weights divided by the square root of its
 *   length in significant tokens (so neither long nor short sentences win by length alone);
 * - that is multiplied by where the sentence sits (abstract, conclusion, opening and closing parts of
 *   the text count more; related work, acknowledgements less) and by what it says about itself
 *   (sentences stating a contribution or finding, "we propose", "results show", count more; ones
 *   mostly made of citations, figure references or paper road-maps count less).
 * Sentences are chosen greedily; after each pick the weights of the terms it covers are lowered
 * (redundancy control, as in SumBasic) and sentences too similar to a chosen one are skipped.
 *
 * This file puts the parts together: sections.ts reads the text into sentence records,
 * select-sentences.ts scores and picks them, tags.ts finds the tags, variants.ts shapes both dialects.
 */
import { normalizeCharacters } from './clean-text.js';
import { chooseCandidates, parseRecords, type SentenceRecord } from './sections.js';
import {
  basePrior,
  buildWeights,
  chooseConclusion,
  contributionFactor,
  selectSentences,
} from './select-sentences.js';
import { extractTags } from './tags.js';
import { TermTable } from './term-table.js';
import { wordTokens } from './tokens.js';
import { joinSentences, presentSentence, type Summary } from './variants.js';

export type SummaryMode = 'quick' | 'deep';

export interface SummarizeInput {
  title?: string;
  /** Quick mode: the abstract. Deep mode: the paper's text (cleaned with `cleanPdfText` when from a PDF). */
  text: string;
  mode: SummaryMode;
}

/** Words a minute for reading academic prose. */
const READING_WORDS_PER_MINUTE = 200;
const DEEP_BULLETS = 6;
const QUICK_BULLETS = 5;
const DEEP_TAGS = 8;
const QUICK_TAGS = 6;

function readingMinutes(wordCount: number): number {
  return Math.max(1, Math.ceil(wordCount / READING_WORDS_PER_MINUTE));
}

/** Summarises a text extractively. Deterministic: the same input gives the same summary. */
export function summarize(input: SummarizeInput): Summary {
  const mode = input.mode;
  const text = normalizeCharacters(input.text ?? '');
  const title = normalizeCharacters(input.title ?? '').trim();
  const table = new TermTable();
  const titleTerms = new Set<number>();
  for (const token of wordTokens(title)) {
    const id = table.idOf(token);
    if (id >= 0) titleTerms.add(id);
  }
  const { records, store } = parseRecords(text, mode, table);
  const wordCount = records.reduce((sum, record) => sum + record.wordCount, 0);
  const minutes = readingMinutes(wordCount);

  const count = records.length;
  for (const record of records) {
    if (!record.candidate) continue;
    record.basePrior = basePrior(
      record,
      count > 1 ? record.index / (count - 1) : 0,
      mode,
      titleTerms,
    );
    record.prior = record.basePrior * contributionFactor(mode);
  }
  const weights = buildWeights(table, count, titleTerms, mode);
  const candidates = chooseCandidates(records);

  const bulletLimit =
    mode === 'deep'
      ? DEEP_BULLETS
      : Math.min(QUICK_BULLETS, Math.max(1, Math.ceil(candidates.length * 0.7)));
  const picked = selectSentences(candidates, weights, bulletLimit, mode);
  const inOrder = [...picked].sort((a, b) => a.index - b.index);
  const bullets = inOrder.map((record) => presentSentence(record.text));

  const first = picked[0];
  const tldrRecords: SentenceRecord[] = [];
  if (first) {
    tldrRecords.push(first);
    const second = picked[1];
    // One sentence is the rule; a very short top sentence gets the next best one as company.
    if (first.wordCount < 12 && second) tldrRecords.push(second);
  }
  const tldr = joinSentences(
    tldrRecords.sort((a, b) => a.index - b.index).map((record) => presentSentence(record.text)),
  );

  const tags = extractTags(
    records,
    table,
    store,
    titleTerms,
    mode,
    mode === 'deep' ? DEEP_TAGS : QUICK_TAGS,
  );

  const abstractRecords = picked
    .slice(0, mode === 'deep' ? 3 : 2)
    .sort((a, b) => a.index - b.index);
  const conclusion = presentSentence(chooseConclusion(records, candidates, weights, inOrder, mode));

  const covered = new Set<number>();
  for (const record of picked) for (const term of record.terms) covered.add(term);
  let coveredMass = 0;
  for (const term of covered) coveredMass += weights.frequency[term] ?? 0;
  const confidence =
    weights.totalMass > 0 ? Math.round((coveredMass / weights.totalMass) * 100) / 100 : 0;

  return {
    tldr,
    bullets,
    tags,
    readingTimeMinutes: minutes,
    confidence: 'medium',
    summary: {
      abstract: joinSentences(abstractRecords.map((record) => presentSentence(record.text))),
      keyPoints: bullets,
      conclusion,
      keywords: tags,
    },
    metadata: { wordCount, readingTime: minutes, confidence },
  };
}

/**
 * The sentences the summarizer chooses from, in order (for baselines and evaluation): the same
 * segmentation and the same filter of non-sentences (headings, captions, reference entries).
 */
export function candidateSentences(input: Pick<SummarizeInput, 'text' | 'mode'>): string[] {
  const { records } = parseRecords(normalizeCharacters(input.text ?? ''), input.mode);
  return chooseCandidates(records).map((record) => record.text);
}
