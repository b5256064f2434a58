/**
 * PDF text extraction per page: pdf.js (in its worker thread, as the service runs it) beside poppler's
 * `pdftotext` (child process) on the same files, the shared evaluation PDFs (`EVAL_DIR`/pdfs, default
 * ../shared/eval/pdfs) or, without them, test/fixtures/pdfs. Scanned files without text are skipped.
 * Each engine is timed on every file, best of a few runs after a warm-up, and the per-page figures
 * are totals over all files divided by their pages.
 *
 * Run alone: `tsx bench/pdf-extract.ts`.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PdfTextError } from '../src/summaries/pdf/errors.js';
import {
  closePdfExtractors,
  extractPdfText,
  type PdfEngine,
} from '../src/summaries/pdf/extract.js';
import { isPdftotextAvailable } from '../src/summaries/pdf/pdftotext-engine.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 3;

export interface PdfExtractBenchResult {
  name: string;
  files: number;
  pages: number;
  pdfjsMsPerPage: number;
  /** Undefined when pdftotext is not on PATH. */
  pdftotextMsPerPage?: number;
  /** pdf.js time over pdftotext time (how many times slower pdf.js is). */
  ratio?: number;
  perFile: Array<{ file: string; pages: number; pdfjsMs: number; pdftotextMs?: number }>;
}

function pdfDirectory(): string {
  const shared = resolve(process.env.EVAL_DIR ?? join(ROOT, '..', 'shared', 'eval'), 'pdfs');
  return existsSync(shared) ? shared : join(ROOT, 'test', 'fixtures', 'pdfs');
}

async function bestTime(pdf: Buffer, engine: PdfEngine): Promise<{ ms: number; pages: number }> {
  let best = Number.POSITIVE_INFINITY;
  let pages = 0;
  for (let run = 0; run < RUNS; run++) {
    const startedAt = process.hrtime.bigint();
    const result = await extractPdfText(pdf, { engine });
    best = Math.min(best, Number(process.hrtime.bigint() - startedAt) / 1e6);
    pages = result.pages;
  }
  return { ms: best, pages };
}

export async function benchPdfExtract(): Promise<PdfExtractBenchResult> {
  const directory = pdfDirectory();
  const withPdftotext = await isPdftotextAvailable();
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.pdf'))
    .sort();
  const perFile: PdfExtractBenchResult['perFile'] = [];
  try {
    for (const file of files) {
      const pdf = readFileSync(join(directory, file));
      try {
        await extractPdfText(pdf, { engine: 'pdfjs' }); // warm-up: starts the worker, loads pdf.js
      } catch (error) {
        if (error instanceof PdfTextError && error.code === 'no_text') continue;
        throw error;
      }
      const pdfjs = await bestTime(pdf, 'pdfjs');
      const pdftotext = withPdftotext ? await bestTime(pdf, 'pdftotext') : undefined;
      perFile.push({ file, pages: pdfjs.pages, pdfjsMs: pdfjs.ms, pdftotextMs: pdftotext?.ms });
    }
  } finally {
    await closePdfExtractors();
  }
  const pages = perFile.reduce((sum, entry) => sum + entry.pages, 0);
  const pdfjsTotal = perFile.reduce((sum, entry) => sum + entry.pdfjsMs, 0);
  const pdftotextTotal = withPdftotext
    ? perFile.reduce((sum, entry) => sum + (entry.pdftotextMs ?? 0), 0)
    : undefined;
  const round = (value: number): number => Math.round(value * 100) / 100;
  return {
    name: `PDF text extraction, ${perFile.length} files, ${pages} pages`,
    files: perFile.length,
    pages,
    pdfjsMsPerPage: round(pdfjsTotal / pages),
    pdftotextMsPerPage: pdftotextTotal === undefined ? undefined : round(pdftotextTotal / pages),
    ratio: pdftotextTotal === undefined ? undefined : round(pdfjsTotal / pdftotextTotal),
    perFile,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchPdfExtract();
  console.log(result.name);
  for (const entry of result.perFile) {
    const poppler = entry.pdftotextMs === undefined ? 'n/a' : `${entry.pdftotextMs.toFixed(1)} ms`;
    console.log(
      `  ${entry.file.padEnd(44)} ${String(entry.pages).padStart(3)} pages  pdf.js ${entry.pdfjsMs.toFixed(1)} ms  pdftotext ${poppler}`,
    );
  }
  console.log(`pdf.js ${result.pdfjsMsPerPage} ms/page`);
  if (result.pdftotextMsPerPage !== undefined) {
    console.log(
      `pdftotext ${result.pdftotextMsPerPage} ms/page; pdf.js/pdftotext = ${result.ratio}×`,
    );
  } else {
    console.log('pdftotext is not installed: only pdf.js measured');
  }
}
