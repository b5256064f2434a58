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
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';

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
  /** Runs `input` through the default export of `module` (a URL from workerModule) within `timeoutMs`. */
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
  writeFileSync(file, source);
  return file;
}

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  let pool: Piscina | undefined;
  // Counted here rather than by piscina's maxQueue, which its balancer does not hold to exactly.
  let inFlight = 0;
  const started = (warm: boolean): Piscina => {
    if (pool) return pool;
    pool = new Piscina({
      filename: entryFile(),
      minThreads: options.threads,
      maxThreads: options.threads,
      maxQueue: Math.max(options.queue, 1),
      // Workers are kept: they hold the parsers and the warmed citation engines.
      idleTimeout: Infinity,
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
      workerData: { modules: options.modules, warm },
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
      const signal = AbortSignal.timeout(timeoutMs);
      inFlight++;
      try {
        return (await started(false).run({ module, input }, { signal })) as Result;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (signal.aborted) throw new WorkerTaskFailed('timeout', timeoutMs);
        if (code === 'ERR_WORKER_OUT_OF_MEMORY')
          throw new WorkerTaskFailed('memory', options.heapMb);
        if (error instanceof Error && /Task queue is at limit|No task queue/.test(error.message))
          throw new WorkerPoolBusy();
        throw error;
      } finally {
        inFlight--;
      }
    },
    async close() {
      await pool?.close({ force: true });
    },
  };
}
