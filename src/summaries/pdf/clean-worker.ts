/**
 * Worker thread that cleans text extracted from a PDF (clean-text.ts), so that however the text is
 * made, cleaning it never holds the server's event loop. Answers each `CleanJob` with a `CleanResult`.
 */
import { parentPort } from 'node:worker_threads';
import { cleanPdfText } from '../clean-text.js';

export interface CleanJob {
  id: number;
  text: string;
}

export type CleanResult =
  { id: number; ok: true; text: string } | { id: number; ok: false; message: string };

parentPort?.on('message', (job: CleanJob) => {
  try {
    parentPort?.postMessage({
      id: job.id,
      ok: true,
      text: cleanPdfText(job.text),
    } satisfies CleanResult);
  } catch (error) {
    parentPort?.postMessage({
      id: job.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    } satisfies CleanResult);
  }
});
