/**
 * The module every worker of worker-pool.ts starts on: it loads the capabilities' worker modules the
 * pool names (workerData), starts their `warmUp` (when the pool was started for it), and runs each
 * task through its module's default export. It knows no capability.
 *
 * No top-level await: piscina first require()s this file, and Node 20 fails a require of a module
 * with one in a way that also fails the import() piscina tries next.
 */
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'piscina';

interface WorkerModule {
  default: (input: unknown) => unknown;
  warmUp?: () => Promise<void> | void;
}

const {
  modules: urls,
  warm,
  workersStarted,
  firstWorkers,
} = workerData as {
  modules: string[];
  warm: boolean;
  workersStarted: Int32Array;
  firstWorkers: number;
};
/** A worker started with the pool, not one that replaces a stopped or dead one. */
const firstWorker = Atomics.add(workersStarted, 0, 1) < firstWorkers;

const loading: Promise<Map<string, WorkerModule>> = Promise.all(
  urls.map(async (url) => [url, (await import(url)) as WorkerModule] as const),
).then((loaded) => new Map(loaded));

// Off any task's path: a task that arrives meanwhile runs between the warm-up's steps. A replacement
// does not warm up: it builds an engine when a request first needs it.
if (warm && firstWorker)
  void loading
    .then(async (modules) => {
      for (const loaded of modules.values()) await loaded.warmUp?.();
    })
    .catch(() => {});

export default async function runTask(task: {
  module: string;
  input: unknown;
  /** Told when the task starts (its time limit runs from then), after this worker's own loading. */
  started: MessagePort;
}): Promise<unknown> {
  const loaded = (await loading).get(task.module);
  task.started.postMessage(null);
  task.started.close();
  if (!loaded) throw new Error(`No worker module ${task.module}`);
  return loaded.default(task.input);
}
