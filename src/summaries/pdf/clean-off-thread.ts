/**
 * Cleans a PDF's extracted text (clean-text.ts) in a worker thread, under a time budget: the text is
 * whatever the PDF's author wrote, and cleaning it on the event loop would let one PDF stall every
 * other request. A job that overruns its budget or whose caller gives up terminates its worker; one
 * idle worker is kept for the next job (worker-thread.ts).
 */
import type { CleanJob, CleanResult } from './clean-worker.js';
import { PdfTextError } from './errors.js';
import { IdleWorkers, startWorker } from './worker-thread.js';

/** How long cleaning one text may take (it takes milliseconds for 200,000 characters). */
const CLEAN_TIMEOUT_MS = 5_000;

const idle = new IdleWorkers(1);
let nextId = 1;

export interface CleanOffThreadOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export function cleanPdfTextOffThread(
  text: string,
  options: CleanOffThreadOptions = {},
): Promise<string> {
  const { signal } = options;
  if (signal?.aborted)
    return Promise.reject(new PdfTextError('aborted', 'PDF text cleaning was aborted'));
  const timeoutMs = options.timeoutMs ?? CLEAN_TIMEOUT_MS;
  const worker = idle.take() ?? startWorker(import.meta.url, 'clean-worker');
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    let done = false;
    const finish = (keepWorker: boolean, outcome: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (keepWorker) idle.keep(worker);
      else void worker.terminate();
      outcome();
    };
    const onMessage = (result: CleanResult): void => {
      if (result.id !== id) return;
      finish(true, () =>
        result.ok
          ? resolve(result.text)
          : reject(
              new PdfTextError('invalid', `The PDF text could not be cleaned: ${result.message}`),
            ),
      );
    };
    const onError = (error: Error): void =>
      finish(false, () =>
        reject(new PdfTextError('invalid', `The PDF text could not be cleaned: ${error.message}`)),
      );
    const onExit = (): void =>
      finish(false, () =>
        reject(new PdfTextError('invalid', 'The PDF text cleaner stopped unexpectedly')),
      );
    const onAbort = (): void =>
      finish(false, () => reject(new PdfTextError('aborted', 'PDF text cleaning was aborted')));
    const timer = setTimeout(
      () =>
        finish(false, () =>
          reject(
            new PdfTextError('timeout', `Cleaning the PDF text took longer than ${timeoutMs} ms`),
          ),
        ),
      timeoutMs,
    );
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ id, text } satisfies CleanJob);
  });
}

/** Stops the idle cleaning worker (for shutdown and tests). */
export async function closeCleanWorkers(): Promise<void> {
  await idle.close();
}
