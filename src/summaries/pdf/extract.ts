/**
 * Text of a PDF, off the main event loop: poppler's `pdftotext` as a child process when the machine has
 * it (faster per page, see docs/performance.md), pdf.js in a worker thread otherwise. Capped in
 * characters; a scanned (image-only) PDF, a non-PDF, an encrypted or broken file and a timeout each
 * fail with a typed `PdfTextError`.
 */
import { closeCleanWorkers } from './clean-off-thread.js';
import { PdfTextError } from './errors.js';
import { closePdfjsWorkers, extractWithPdfjs, type EngineResult } from './pdfjs-engine.js';
import {
  extractWithPdftotext,
  isPdfinfoAvailable,
  isPdftotextAvailable,
  readInfoWithPdfinfo,
} from './pdftotext-engine.js';
import type { PdfInfo } from './pdfjs-protocol.js';
import { hasPdfSignature } from './signature.js';

export type PdfEngine = 'pdftotext' | 'pdfjs';

/** Text beyond this many characters is cut: far more than a summary needs, bounded memory (docs/design.md, Limits). */
const PDF_TEXT_MAX_CHARS = 200_000;
/** How long one extraction may take before it is stopped. */
const PDF_EXTRACT_TIMEOUT_MS = 20_000;
/** Fewer letters than this in the whole document means there is no text layer (a scan). */
const MIN_LETTERS = 20;

export interface ExtractPdfTextOptions {
  /** Characters kept (default 200 000); the rest is cut and `truncated` set. */
  maxChars?: number;
  /** Stops the work (the child process or the worker) when aborted. */
  signal?: AbortSignal;
  /** `auto` (default): pdftotext when on PATH, else pdf.js. */
  engine?: 'auto' | PdfEngine;
  /** Deadline for the extraction (default 20 s). */
  timeoutMs?: number;
}

export interface ExtractedPdfText {
  /** Raw text, pages separated by "\f"; clean it with `cleanPdfText` before summarising. */
  text: string;
  pages: number;
  engine: PdfEngine;
  truncated: boolean;
}

function countLetters(text: string, enough: number): number {
  let letters = 0;
  for (const _ of text.matchAll(/\p{L}/gu)) {
    letters++;
    if (letters >= enough) break;
  }
  return letters;
}

async function chooseEngine(requested: ExtractPdfTextOptions['engine']): Promise<PdfEngine> {
  if (requested === 'pdfjs' || requested === 'pdftotext') return requested;
  return (await isPdftotextAvailable()) ? 'pdftotext' : 'pdfjs';
}

export async function extractPdfText(
  pdf: Buffer | Uint8Array,
  options: ExtractPdfTextOptions = {},
): Promise<ExtractedPdfText> {
  const maxChars = options.maxChars ?? PDF_TEXT_MAX_CHARS;
  const timeoutMs = options.timeoutMs ?? PDF_EXTRACT_TIMEOUT_MS;
  if (!hasPdfSignature(pdf)) throw new PdfTextError('not_pdf', 'The file is not a PDF');

  const startedAt = Date.now();
  const engine = await chooseEngine(options.engine);
  const engineOptions = { maxChars, timeoutMs, signal: options.signal };
  let result: EngineResult;
  let usedEngine = engine;
  if (engine === 'pdftotext') {
    try {
      result = await extractWithPdftotext(pdf, engineOptions);
    } catch (error) {
      // Two parsers forgive different damage: in auto mode a file poppler rejects gets a second try.
      const retry =
        options.engine !== 'pdftotext' && error instanceof PdfTextError && error.code === 'invalid';
      if (!retry) throw error;
      usedEngine = 'pdfjs';
      // One deadline for both engines: the second gets what the first left of it.
      const left = startedAt + timeoutMs - Date.now();
      if (left <= 0)
        throw new PdfTextError('timeout', `PDF text extraction took longer than ${timeoutMs} ms`);
      result = await extractWithPdfjs(pdf, { ...engineOptions, timeoutMs: left });
    }
  } else {
    result = await extractWithPdfjs(pdf, engineOptions);
  }

  if (countLetters(result.text, MIN_LETTERS) < MIN_LETTERS) {
    throw new PdfTextError('no_text', 'The PDF has no text layer (it is probably a scanned image)');
  }
  let text = result.text;
  let truncated = result.truncated;
  if (text.length > maxChars) {
    const cut = text.lastIndexOf(' ', maxChars);
    text = text.slice(0, cut > maxChars * 0.9 ? cut : maxChars);
    truncated = true;
  }
  return { text, pages: result.pages, engine: usedEngine, truncated };
}

/**
 * The document information dictionary's Title and Author (poppler's `pdfinfo` when installed, else
 * pdf.js in its worker; no page text is read),
 * for a record made from a PDF when no identifier is found in its text.
 */
export async function readPdfInfo(
  pdf: Buffer | Uint8Array,
  options: { signal?: AbortSignal; timeoutMs?: number; engine?: 'auto' | 'pdfjs' } = {},
): Promise<PdfInfo> {
  if (!hasPdfSignature(pdf)) throw new PdfTextError('not_pdf', 'The file is not a PDF');
  const timeoutMs = options.timeoutMs ?? PDF_EXTRACT_TIMEOUT_MS;
  if (options.engine !== 'pdfjs' && (await isPdfinfoAvailable())) {
    const read = await readInfoWithPdfinfo(pdf, { timeoutMs, signal: options.signal }).catch(
      () => null,
    );
    if (read) return read;
  }
  const result = await extractWithPdfjs(pdf, {
    maxChars: 0,
    timeoutMs,
    signal: options.signal,
    infoOnly: true,
  });
  return result.info ?? {};
}

/** Stops idle extraction and cleaning workers (call on shutdown). */
export async function closePdfExtractors(): Promise<void> {
  await Promise.all([closePdfjsWorkers(), closeCleanWorkers()]);
}
