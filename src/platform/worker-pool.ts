/**
 * One pool of worker threads (piscina) for work whose cost a user's input decides (STYLE.md rule 12):
 * the request thread hands a task to a worker and awaits its answer, so that a hostile or merely large
 * input costs a worker, never the event loop that answers everyone else.
 *
 * Each task runs in a module of its capability (`<capability>/<name>-worker.ts`, its default export
 * the handler), loaded in every worker when the pool starts (worker-pool-entry.ts): a module's
 * `warmUp` export runs then (when the pool was started with start()), so that what it builds once (citation engines) is ready before the first
 * request. A task has a time limit (its worker is stopped when it passes it) and every worker a heap
 * limit (a worker past it dies): either is a WorkerTaskFailed the caller turns into a 4xx. Past the
 * queue's bound a task is refused at once (WorkerPoolBusy).
 *
 * The workers run at a lower priority than the request thread (WORKER_NICE_INCREMENT). Only the
 * workers started with the pool warm up: one that replaces a stopped or dead worker does not, so
 * that a hostile file that kills workers does not also buy a warm-up's CPU each time.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';

/**
 * How much lower than the request thread's the workers' scheduling priority is (Linux nice, per
 * thread; piscina applies it through its optional dependency @napi-rs/nice, and silently runs the
 * workers at the request thread's priority where that cannot load). At +10 the kernel gives a busy
 * worker about a tenth of the CPU weight of the event loop, so on a machine with fewer free cores
 * than busy threads health and other requests are answered first and the workers take what is left.
 */
const WORKER_NICE_INCREMENT = 10;

export interface WorkerPoolOptions {
  threads: number;
  /** Tasks that may wait for a worker; one more is refused. */
  queue: number;
  /** Each worker's old-generation heap, in MB. */
  heapMb: number;
  /** Worker modules (`import.meta.url`-relative URLs from workerModule) loaded in every worker. */
  modules: string[];
}

/** Why a task did not finish: it passed its time limit, or its worker ran out of heap. */
export class WorkerTaskFailed extends Error {
  constructor(
    readonly reason: 'timeout' | 'memory',
    readonly limit: number,
  ) {
    super(
      reason === 'timeout'
        ? `Task took longer than ${limit} ms`
        : `Task needed more than ${limit} MB`,
    );
    this.name = 'WorkerTaskFailed';
  }
}

/** Every worker is busy and the queue is full. */
export class WorkerPoolBusy extends Error {
  constructor() {
    super('Every worker is busy');
    this.name = 'WorkerPoolBusy';
  }
}

export interface WorkerPool {
  /**
   * Starts the workers now, each warming its modules up (`warmUp`), in the background: the server
   * calls it once it listens. Without it the workers start at the first task, without warming up.
   */
  start(): void;
  /**
   * Runs `input` through the default export of `module` (a URL from workerModule) within `timeoutMs`,
   * counted from when a worker starts the task (time waiting in the queue does not count; the queue
   * is bounded, and each task ahead by its own limit).
   */
  run<Result>(module: string, input: unknown, timeoutMs: number): Promise<Result>;
  close(): Promise<void>;
}

/**
 * The URL of a worker module beside `here` (the caller's `import.meta.url`): `<name>.js` in the
 * compiled build, `<name>.ts` when running from source (vitest, tsx).
 */
export function workerModule(here: string, name: string): string {
  return new URL(`./${name}${here.endsWith('.ts') ? '.ts' : '.js'}`, here).href;
}

/**
 * The file each worker starts on. Compiled: worker-pool-entry.js. From source: a small ES module
 * (written once to the temporary folder) that registers tsx's loader in the worker and then loads
 * worker-pool-entry.ts (`execArgv: ['--import', 'tsx']` does not reach worker threads on Node 20).
 */
function entryFile(): string {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return fileURLToPath(new URL('./worker-pool-entry.js', here));
  const tsxApi = pathToFileURL(
    createRequire(here)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const entry = new URL('./worker-pool-entry.ts', here).href;
  // No top-level await: piscina first require()s the file, and Node 20 fails a require of a module
  // with one in a way that also fails the import() piscina tries next.
  const source =
    `const loading = import(${JSON.stringify(tsxApi)})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });\n` +
    'export default async function runTask(task) { return (await loading).default(task); }\n';
  const file = join(
    tmpdir(),
    `rw-worker-pool-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.mjs`,
  );
  // Written aside and renamed into place: test processes running side by side write the same file,
  // and a worker starting in one must never read it half written by another.
  if (!existsSync(file)) {
    const aside = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(aside, source);
    renameSync(aside, file);
  }
  return file;
}

/** A worker's young generation (its short-lived objects), in MB: see `resourceLimits` below. */
const WORKER_YOUNG_GENERATION_MB = 16;

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  let pool: Piscina | undefined;
  // Counted here rather than by piscina's maxQueue, which its balancer does not hold to exactly.
  let inFlight = 0;
  const started = (warm: boolean): Piscina => {
    if (pool) return pool;
    // Each worker takes the next number as it starts: those numbered below `threads` are the pool's
    // first workers (the ones that warm up), any later one a replacement.
    const workersStarted = new Int32Array(new SharedArrayBuffer(4));
    pool = new Piscina({
      filename: entryFile(),
      minThreads: options.threads,
      maxThreads: options.threads,
      maxQueue: Math.max(options.queue, 1),
      // Workers are kept: they hold the parsers and the warmed citation engines.
      idleTimeout: Infinity,
      // The young generation bounded too: on Node 24, a worker past its old-generation limit with the
      // default (larger, growing) young generation takes the whole process down with a fatal
      // "Reached heap limit" instead of failing the worker (ERR_WORKER_OUT_OF_MEMORY); Node 20 did not.
      resourceLimits: {
        maxOldGenerationSizeMb: options.heapMb,
        maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
      },
      niceIncrement: WORKER_NICE_INCREMENT,
      workerData: {
        modules: options.modules,
        warm,
        workersStarted,
        firstWorkers: options.threads,
      },
    });
    // A worker that dies between tasks (its heap) is replaced by piscina; nothing waits on it here.
    pool.on('error', () => {});
    return pool;
  };
  return {
    start() {
      started(true);
    },
    async run<Result>(module: string, input: unknown, timeoutMs: number): Promise<Result> {
      if (inFlight >= options.threads + options.queue) throw new WorkerPoolBusy();
      // The worker says on this port when it starts the task; the time limit runs from then.
      const abort = new AbortController();
      const { port1: startedHere, port2: startedThere } = new MessageChannel();
      let limit: NodeJS.Timeout | undefined;
      startedHere.once('message', () => {
        limit = setTimeout(() => abort.abort(), timeoutMs);
      });
      inFlight++;
      try {
        return (await started(false).run(
          { module, input, started: startedThere },
          { signal: abort.signal, transferList: [startedThere] },
        )) as Result;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (abort.signal.aborted) throw new WorkerTaskFailed('timeout', timeoutMs);
        if (code === 'ERR_WORKER_OUT_OF_MEMORY')
          throw new WorkerTaskFailed('memory', options.heapMb);
        if (error instanceof Error && /Task queue is at limit|No task queue/.test(error.message))
          throw new WorkerPoolBusy();
        throw error;
      } finally {
        clearTimeout(limit);
        startedHere.close();
        inFlight--;
      }
    },
    async close() {
      await pool?.close({ force: true });
    },
  };
}
