/**
 * Worker threads of the PDF path: starting one on a module that sits next to the caller (`<name>.js` in
 * the compiled build, or `<name>.ts` when running from source under vitest or tsx, then loaded through
 * tsx), each with a bounded heap, and keeping idle ones for the next job for a while.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker's JavaScript heap is capped: one hostile or pathological PDF makes that worker fail (an
 * `error` event, which the pools turn into a typed PdfTextError) instead of growing the process
 * without bound. The real papers of the extraction tests need a small part of it.
 */
const WORKER_HEAP_LIMIT_MB = 256;
/** The young generation and the stack are bounded as well (pdf.js needs a few MB of each). */
const WORKER_YOUNG_LIMIT_MB = 32;
const WORKER_STACK_MB = 4;

/** An idle worker holds its heap (tens of MB); after this long without a job it is stopped. */
const IDLE_WORKER_MS = 30_000;

/** `here` is the caller's `import.meta.url`; `name` the worker module's file name without extension. */
export function startWorker(
  here: string,
  name: string,
  heapLimitMb = WORKER_HEAP_LIMIT_MB,
): Worker {
  const resourceLimits = {
    maxOldGenerationSizeMb: heapLimitMb,
    maxYoungGenerationSizeMb: WORKER_YOUNG_LIMIT_MB,
    stackSizeMb: WORKER_STACK_MB,
  };
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, here), { resourceLimits });
  // From source: register tsx's loader inside the worker, then load the TypeScript worker module.
  // (`execArgv: ['--import', 'tsx']` does not reach worker threads on Node 20.)
  const tsxApi = pathToFileURL(
    createRequire(here)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const workerUrl = new URL(`./${name}.ts`, here).href;
  const bootstrap =
    `import(${JSON.stringify(tsxApi)})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}); })` +
    '.catch((error) => { setImmediate(() => { throw error; }); });';
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

/**
 * Idle workers kept for the next job, at most `capacity`; each is stopped after `idleMs` without one,
 * so that a process which has stopped reading PDFs gives their memory back.
 */
export class IdleWorkers {
  readonly #idle = new Map<Worker, NodeJS.Timeout>();

  constructor(
    private readonly capacity: number,
    private readonly idleMs = IDLE_WORKER_MS,
  ) {}

  /** Keeps `worker` (unreferenced, so it holds no process open) for the next job, or stops it when full. */
  keep(worker: Worker): void {
    if (this.#idle.size >= this.capacity) {
      void worker.terminate();
      return;
    }
    worker.unref();
    const timer = setTimeout(() => {
      this.#idle.delete(worker);
      void worker.terminate();
    }, this.idleMs);
    timer.unref();
    this.#idle.set(worker, timer);
  }

  /** An idle worker, referenced again, or undefined when none is kept. */
  take(): Worker | undefined {
    const next = this.#idle.entries().next();
    if (next.done) return undefined;
    const [worker, timer] = next.value;
    clearTimeout(timer);
    this.#idle.delete(worker);
    worker.ref();
    return worker;
  }

  /** Stops every idle worker (shutdown and tests). */
  async close(): Promise<void> {
    const kept = [...this.#idle];
    this.#idle.clear();
    await Promise.all(
      kept.map(([worker, timer]) => {
        clearTimeout(timer);
        return worker.terminate();
      }),
    );
  }
}
