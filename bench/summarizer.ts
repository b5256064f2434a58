/**
 * Summarizer throughput: MB of text per second on a 200 000-character paper text, deep mode. The
 * text is the cleaned extraction of the real papers in test/fixtures/pdfs, repeated until it reaches
 * 200 000 characters (their sections, citations and noise included), so it is what deep mode sees.
 *
 * Run alone: `tsx bench/summarizer.ts`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cleanPdfText } from '../src/summaries/clean-text.js';
import { closePdfExtractors, extractPdfText } from '../src/summaries/pdf/extract.js';
import { summarize } from '../src/summaries/summarize.js';

const FIXTURE_PDFS = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'test',
  'fixtures',
  'pdfs',
);
const TEXT_CHARS = 200_000;

export interface SummarizerBenchResult {
  name: string;
  chars: number;
  /** Best batch, milliseconds per summary. */
  msPerOp: number;
  /** Median batch, milliseconds per summary. */
  medianMsPerOp: number;
  /** MB (10^6 characters) of text summarised per second, from the best batch. */
  mbPerSec: number;
}

/** The cleaned text of the fixture papers, repeated to `TEXT_CHARS` characters. */
export async function buildPaperText(): Promise<string> {
  const parts: string[] = [];
  for (const file of readdirSync(FIXTURE_PDFS)
    .filter((name) => name.endsWith('.pdf'))
    .sort()) {
    const { text } = await extractPdfText(readFileSync(join(FIXTURE_PDFS, file)));
    parts.push(cleanPdfText(text));
  }
  await closePdfExtractors();
  const one = parts.join('\n\n');
  let text = one;
  while (text.length < TEXT_CHARS) text += `\n\n${one}`;
  return text.slice(0, TEXT_CHARS);
}

/**
 * Best of several batches: on a shared machine the fastest batch is the closest to the code's own
 * cost; the median is reported beside it.
 */
export async function benchSummarizer(): Promise<SummarizerBenchResult> {
  const text = await buildPaperText();
  const run = (): number =>
    summarize({ title: 'Document-level representation learning', text, mode: 'deep' }).bullets
      .length;
  for (let i = 0; i < 10; i++) run();
  const batches: number[] = [];
  let checksum = 0;
  for (let batch = 0; batch < 10; batch++) {
    const perBatch = 5;
    const startedAt = process.hrtime.bigint();
    for (let i = 0; i < perBatch; i++) checksum += run();
    batches.push(Number(process.hrtime.bigint() - startedAt) / 1e6 / perBatch);
  }
  if (checksum === 0) throw new Error('The summarizer chose no sentence');
  batches.sort((a, b) => a - b);
  const best = batches[0] as number;
  const median = batches[Math.floor(batches.length / 2)] as number;
  return {
    name: `summarizer, deep mode, ${text.length} characters`,
    chars: text.length,
    msPerOp: Math.round(best * 100) / 100,
    medianMsPerOp: Math.round(median * 100) / 100,
    mbPerSec: Math.round((text.length / 1e6 / (best / 1000)) * 10) / 10,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchSummarizer();
  console.log(
    `${result.name}: ${result.msPerOp} ms (median ${result.medianMsPerOp} ms) per summary, ${result.mbPerSec} MB/s`,
  );
}
