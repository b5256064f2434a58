/**
 * Runs pdf.js in a small pool of worker threads. A job that overruns its deadline or is aborted
 * terminates its worker (pdf.js cannot be interrupted otherwise); a fresh one takes its place.
 *
 * The worker file sits next to this module (see worker-thread.ts).
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { PdfTextError } from './errors.js';
import type { PdfInfo, PdfjsJob, PdfjsResult } from './pdfjs-protocol.js';
import { IdleWorkers, startWorker } from './worker-thread.js';

export interface EngineOptions {
  maxChars: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** pdf.js only: read the information dictionary instead of the text. */
  infoOnly?: boolean;
}

export interface EngineResult {
  text: string;
  pages: number;
  truncated: boolean;
  info?: PdfInfo;
}

const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));

function createWorker(): Worker {
  return startWorker(import.meta.url, 'pdfjs-worker');
}

interface PendingJob {
  job: PdfjsJob;
  options: EngineOptions;
  /** The deadline covers waiting for a worker as well as the work itself. */
  deadline: number;
  resolve: (result: EngineResult) => void;
  reject: (error: Error) => void;
  /** Removes the job from the queue when its caller gives up before a worker is free. */
  cancelWait: () => void;
}

const idle = new IdleWorkers(POOL_SIZE);
const queue: PendingJob[] = [];
let running = 0;
let nextId = 1;

function settleNext(): void {
  while (running < POOL_SIZE && queue.length > 0) {
    const pending = queue.shift() as PendingJob;
    pending.cancelWait();
    running++;
    run(pending);
  }
}

function run(pending: PendingJob): void {
  const worker = idle.take() ?? createWorker();
  const { job, options } = pending;
  let done = false;

  const finish = (keepWorker: boolean, outcome: () => void): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    if (keepWorker) idle.keep(worker);
    else void worker.terminate();
    running--;
    outcome();
    settleNext();
  };
  const onMessage = (result: PdfjsResult): void => {
    if (result.id !== job.id) return;
    finish(true, () => {
      if (result.ok)
        pending.resolve({
          text: result.text,
          pages: result.pages,
          truncated: result.truncated,
          info: result.info,
        });
      else pending.reject(new PdfTextError(result.code, result.message));
    });
  };
  const onError = (error: Error): void =>
    finish(false, () =>
      pending.reject(new PdfTextError('invalid', `The PDF could not be read: ${error.message}`)),
    );
  const onExit = (): void =>
    finish(false, () =>
      pending.reject(new PdfTextError('invalid', 'The PDF reader stopped unexpectedly')),
    );
  const onAbort = (): void =>
    finish(false, () =>
      pending.reject(new PdfTextError('aborted', 'PDF text extraction was aborted')),
    );
  const timer = setTimeout(
    () =>
      finish(false, () =>
        pending.reject(
          new PdfTextError(
            'timeout',
            `PDF text extraction took longer than ${options.timeoutMs} ms`,
          ),
        ),
      ),
    Math.max(0, pending.deadline - Date.now()),
  );

  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) {
    onAbort();
    return;
  }
  worker.postMessage(job, [job.data.buffer as ArrayBuffer]);
}

/** Extracts page texts with pdf.js off the main thread. Pages are separated by "\f". */
export function extractWithPdfjs(data: Uint8Array, options: EngineOptions): Promise<EngineResult> {
  if (options.signal?.aborted)
    return Promise.reject(new PdfTextError('aborted', 'PDF text extraction was aborted'));
  // A private copy: the worker takes ownership of the bytes it is sent.
  const copy = new Uint8Array(data.byteLength);
  copy.set(data);
  return new Promise<EngineResult>((resolve, reject) => {
    const leaveQueue = (error: PdfTextError): void => {
      const index = queue.indexOf(pending);
      if (index === -1) return;
      queue.splice(index, 1);
      pending.cancelWait();
      reject(error);
    };
    const onAbort = (): void =>
      leaveQueue(new PdfTextError('aborted', 'PDF text extraction was aborted'));
    const waitTimer = setTimeout(
      () =>
        leaveQueue(
          new PdfTextError(
            'timeout',
            `PDF text extraction took longer than ${options.timeoutMs} ms`,
          ),
        ),
      options.timeoutMs,
    );
    const pending: PendingJob = {
      job: { id: nextId++, data: copy, maxChars: options.maxChars, infoOnly: options.infoOnly },
      options,
      deadline: Date.now() + options.timeoutMs,
      resolve,
      reject,
      cancelWait: () => {
        clearTimeout(waitTimer);
        options.signal?.removeEventListener('abort', onAbort);
      },
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    queue.push(pending);
    settleNext();
  });
}

/** Stops the idle pdf.js workers (for shutdown and tests). Running jobs finish first. */
export async function closePdfjsWorkers(): Promise<void> {
  await idle.close();
}
