/**
 * Summary quality, measured: ROUGE-1/2/L F1 of our summarizer beside a Lead and a LexRank baseline on
 * the shared evaluation sets (`EVAL_DIR`, default ../shared/eval relative to the repository).
 *
 *   npm run eval:summaries                        prints the table
 *   npm run eval:summaries -- --markdown          also prints it as a Markdown table
 *   npm run eval:summaries -- --engine pdfjs      extracts the PDFs with pdf.js instead of the default
 *
 * Protocol (the same for every system on a document):
 * - Deep sets: ours = the bullets (6 sentences in original order). The reference is the paper's own
 *   abstract, which is not in the input. The baselines choose from the same sentences as ours (same
 *   cleaning, segmentation and non-sentence filter) and get the same length: sentences are taken in
 *   the baseline's order until they reach our summary's word count, the last one cut to fit.
 * - PDFs go through the real path: extractPdfText (engine "auto") → cleanPdfText → summarize. Two
 *   rows: the full text as a user's PDF has it (its abstract included), and the same text with the
 *   abstract's sentences removed (a sentence is removed when most of its bigrams are in the abstract).
 *   Scanned PDFs (abstract null) are skipped.
 * - Quick set (SciTLDR-A): ours = the tldr (1 sentence, 2 when the first is very short) from title +
 *   abstract; Lead = the abstract's opening words, LexRank = its most central sentences, both cut to
 *   our tldr's word count; each scored against every gold TLDR, keeping the best per measure (max over
 *   references, as the SciTLDR paper reports).
 * - ROUGE: lower-cased Unicode letter/digit tokens after NFKC, Porter-stemmed (tokens > 3 chars), as
 *   `rouge-score` with use_stemmer; ROUGE-L is summary-level LCS ("rougeL"). Scores are mean F1 × 100.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanPdfText } from '../src/summaries/clean-text.js';
import { lexRankOrder } from '../src/summaries/evaluation/lexrank.js';
import {
  rouge,
  rougeMaxOverReferences,
  rougeTokens,
  type RougeTriple,
} from '../src/summaries/evaluation/rouge.js';
import { closePdfExtractors, extractPdfText } from '../src/summaries/pdf/extract.js';
import { splitSentences } from '../src/summaries/sentences.js';
import { candidateSentences, summarize } from '../src/summaries/summarize.js';
import { countWords } from '../src/summaries/tokens.js';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const evalDir = resolve(process.env.EVAL_DIR ?? join(repositoryRoot, '..', 'shared', 'eval'));

type System = 'ours' | 'lead' | 'lexrank';
const SYSTEMS: System[] = ['ours', 'lead', 'lexrank'];

interface SetResult {
  name: string;
  documents: number;
  mode: 'deep' | 'quick';
  scores: Record<System, RougeTriple[]>;
  words: Record<System, number[]>;
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
}

/** The first `budget` words of the sentences picked in `order`, presented in document order. */
function withinWordBudget(sentences: string[], order: number[], budget: number): string {
  const picked: number[] = [];
  let words = 0;
  for (const index of order) {
    if (words >= budget) break;
    picked.push(index);
    words += countWords(sentences[index] ?? '');
  }
  const text = picked
    .sort((a, b) => a - b)
    .map((index) => sentences[index] ?? '')
    .join(' ');
  return truncateWords(text, budget);
}

function truncateWords(text: string, budget: number): string {
  const parts = text.split(/\s+/).filter(Boolean);
  let words = 0;
  const kept: string[] = [];
  for (const part of parts) {
    const inPart = countWords(part);
    if (words + inPart > budget && words > 0) break;
    kept.push(part);
    words += inPart;
  }
  return kept.join(' ');
}

function emptySet(name: string, mode: 'deep' | 'quick'): SetResult {
  return {
    name,
    documents: 0,
    mode,
    scores: { ours: [], lead: [], lexrank: [] },
    words: { ours: [], lead: [], lexrank: [] },
  };
}

function addDocument(
  set: SetResult,
  outputs: Record<System, string>,
  score: (candidate: string) => RougeTriple,
): void {
  set.documents++;
  for (const system of SYSTEMS) {
    set.scores[system].push(score(outputs[system]));
    set.words[system].push(countWords(outputs[system]));
  }
}

function deepOutputs(text: string, title: string | undefined): Record<System, string> {
  const summary = summarize({ title, text, mode: 'deep' });
  const ours = summary.bullets.join(' ');
  const budget = countWords(ours);
  const sentences = candidateSentences({ text, mode: 'deep' });
  const lead = withinWordBudget(
    sentences,
    sentences.map((_, index) => index),
    budget,
  );
  const lexrank = withinWordBudget(sentences, lexRankOrder(sentences), budget);
  return { ours, lead, lexrank };
}

function evaluateDeepJsonl(file: string, name: string): SetResult {
  interface Paper {
    title?: string;
    abstract: string;
    body: string;
  }
  const set = emptySet(name, 'deep');
  for (const paper of readJsonl<Paper>(join(evalDir, 'summarization', file))) {
    const outputs = deepOutputs(paper.body, paper.title || undefined);
    addDocument(set, outputs, (candidate) => rouge(candidate, paper.abstract));
  }
  return set;
}

function bigrams(text: string): string[] {
  const tokens = rougeTokens(text);
  const grams: string[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) grams.push(`${tokens[i]} ${tokens[i + 1]}`);
  return grams;
}

/** The text without the sentences that repeat the abstract (most of their bigrams are in it). */
function withoutAbstract(cleaned: string, abstract: string): string {
  const abstractGrams = new Set(bigrams(abstract));
  return cleaned
    .split(/\n\s*\n/)
    .map((paragraph) => {
      const kept = splitSentences(paragraph).filter((sentence) => {
        const grams = bigrams(sentence);
        if (grams.length === 0) return true;
        const shared = grams.filter((gram) => abstractGrams.has(gram)).length;
        return shared / grams.length < 0.5;
      });
      return kept.join(' ');
    })
    .filter(Boolean)
    .join('\n\n');
}

async function evaluatePdfs(): Promise<SetResult[]> {
  interface AbstractLine {
    file: string;
    abstract: string | null;
  }
  const full = emptySet('PDFs, full text (abstract included)', 'deep');
  const body = emptySet('PDFs, abstract removed from the text', 'deep');
  const pdfDir = join(evalDir, 'pdfs');
  const abstracts = readJsonl<AbstractLine>(join(pdfDir, 'abstracts.jsonl'));
  const engines = new Set<string>();
  for (const { file, abstract } of abstracts) {
    if (!abstract) continue;
    const path = join(pdfDir, file);
    if (!existsSync(path)) continue;
    const extracted = await extractPdfText(readFileSync(path), { engine: requestedEngine() });
    engines.add(extracted.engine);
    const cleaned = cleanPdfText(extracted.text);
    addDocument(full, deepOutputs(cleaned, undefined), (candidate) => rouge(candidate, abstract));
    addDocument(body, deepOutputs(withoutAbstract(cleaned, abstract), undefined), (candidate) =>
      rouge(candidate, abstract),
    );
  }
  full.name += ` [${[...engines].join(', ')}]`;
  body.name += ` [${[...engines].join(', ')}]`;
  return [full, body];
}

function requestedEngine(): 'auto' | 'pdfjs' | 'pdftotext' {
  const index = process.argv.indexOf('--engine');
  const value = index > 0 ? process.argv[index + 1] : undefined;
  return value === 'pdfjs' || value === 'pdftotext' ? value : 'auto';
}

function evaluateSciTldr(): SetResult {
  interface TldrPaper {
    title: string;
    source: string[];
    target: string[];
  }
  const set = emptySet('SciTLDR-A (quick: tldr vs gold TLDRs, max over refs)', 'quick');
  for (const paper of readJsonl<TldrPaper>(join(evalDir, 'summarization', 'scitldr-a.jsonl'))) {
    const text = paper.source.map((sentence) => sentence.trim()).join(' ');
    const summary = summarize({ title: paper.title, text, mode: 'quick' });
    const ours = summary.tldr;
    const budget = countWords(ours);
    const sentences = candidateSentences({ text, mode: 'quick' });
    const lead = withinWordBudget(
      sentences,
      sentences.map((_, index) => index),
      budget,
    );
    const lexrank = withinWordBudget(sentences, lexRankOrder(sentences), budget);
    addDocument(set, { ours, lead, lexrank }, (candidate) =>
      rougeMaxOverReferences(candidate, paper.target),
    );
  }
  return set;
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

interface Row {
  set: string;
  documents: number;
  system: System;
  r1: number;
  r2: number;
  rl: number;
  words: number;
}

function rows(sets: SetResult[]): Row[] {
  return sets.flatMap((set) =>
    SYSTEMS.map((system) => ({
      set: set.name,
      documents: set.documents,
      system,
      r1: 100 * mean(set.scores[system].map((s) => s.rouge1.f1)),
      r2: 100 * mean(set.scores[system].map((s) => s.rouge2.f1)),
      rl: 100 * mean(set.scores[system].map((s) => s.rougeL.f1)),
      words: mean(set.words[system]),
    })),
  );
}

const SYSTEM_LABEL: Record<System, string> = { ours: 'ours', lead: 'Lead', lexrank: 'LexRank' };

function verdicts(table: Row[]): string[] {
  const lines: string[] = [];
  const bySet = new Map<string, Row[]>();
  for (const row of table) bySet.set(row.set, [...(bySet.get(row.set) ?? []), row]);
  for (const [set, setRows] of bySet) {
    const ours = setRows.find((row) => row.system === 'ours') as Row;
    const others = setRows.filter((row) => row.system !== 'ours');
    const beats = others.every((row) => ours.r1 > row.r1 && ours.rl > row.rl);
    lines.push(
      `${beats ? 'PASS' : 'FAIL'}  ${set}: ours beats ${others.map((row) => SYSTEM_LABEL[row.system]).join(' and ')} on R-1 and R-L: ${beats}`,
    );
  }
  return lines;
}

function printTable(table: Row[]): void {
  const header = ['set', 'docs', 'system', 'R-1', 'R-2', 'R-L', 'words'];
  const body = table.map((row) => [
    row.set,
    String(row.documents),
    SYSTEM_LABEL[row.system],
    row.r1.toFixed(2),
    row.r2.toFixed(2),
    row.rl.toFixed(2),
    row.words.toFixed(0),
  ]);
  const widths = header.map((cell, i) =>
    Math.max(cell.length, ...body.map((line) => (line[i] as string).length)),
  );
  const format = (line: string[]): string =>
    line
      .map((cell, i) =>
        i >= 3 ? cell.padStart(widths[i] as number) : cell.padEnd(widths[i] as number),
      )
      .join('  ');
  console.log(format(header));
  for (const line of body) console.log(format(line));
}

function markdown(table: Row[]): string {
  const lines = [
    '| set | docs | system | ROUGE-1 | ROUGE-2 | ROUGE-L | words |',
    '|---|---:|---|---:|---:|---:|---:|',
    ...table.map(
      (row) =>
        `| ${row.set} | ${row.documents} | ${SYSTEM_LABEL[row.system]} ` +
        `| ${row.r1.toFixed(2)} | ${row.r2.toFixed(2)} | ${row.rl.toFixed(2)} ` +
        `| ${row.words.toFixed(0)} |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (!existsSync(evalDir)) {
    console.error(`Evaluation data not found at ${evalDir} (set EVAL_DIR).`);
    process.exitCode = 1;
    return;
  }
  const started = performance.now();
  const sets: SetResult[] = [];
  const summarization = join(evalDir, 'summarization');
  const present = new Set(existsSync(summarization) ? readdirSync(summarization) : []);
  if (present.has('sumpubmed.jsonl'))
    sets.push(evaluateDeepJsonl('sumpubmed.jsonl', 'SumPubMed (deep: body vs abstract)'));
  if (present.has('scisummnet.jsonl'))
    sets.push(evaluateDeepJsonl('scisummnet.jsonl', 'ScisummNet (deep: body vs abstract)'));
  if (existsSync(join(evalDir, 'pdfs', 'abstracts.jsonl'))) sets.push(...(await evaluatePdfs()));
  if (present.has('scitldr-a.jsonl')) sets.push(evaluateSciTldr());
  await closePdfExtractors();

  const table = rows(sets);
  printTable(table);
  console.log('');
  const checks = verdicts(table);
  for (const line of checks) console.log(line);
  console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s, data from ${evalDir}`);

  if (process.argv.includes('--markdown')) console.log(`\n${markdown(table)}`);
  if (checks.some((line) => line.startsWith('FAIL'))) process.exitCode = 1;
}

await main();
