/**
 * The module every worker of worker-pool.ts starts on: it loads the capabilities' worker modules the
 * pool names (workerData), starts their `warmUp` (when the pool was started for it), and runs each
 * task through its module's default export. It knows no capability.
 *
 * No top-level await: piscina first require()s this file, and Node 20 fails a require of a module
 * with one in a way that also fails the import() piscina tries next.
 */
import { workerData } from 'piscina';

interface WorkerModule {
  default: (input: unknown) => unknown;
  warmUp?: () => Promise<void> | void;
}

const { modules: urls, warm } = workerData as { modules: string[]; warm: boolean };

const loading: Promise<Map<string, WorkerModule>> = Promise.all(
  urls.map(async (url) => [url, (await import(url)) as WorkerModule] as const),
).then((loaded) => new Map(loaded));

// Off any task's path: a task that arrives meanwhile runs between the warm-up's steps.
if (warm)
  void loading
    .then(async (modules) => {
      for (const loaded of modules.values()) await loaded.warmUp?.();
    })
    .catch(() => {});

export default async function runTask(task: { module: string; input: unknown }): Promise<unknown> {
  const loaded = (await loading).get(task.module);
  if (!loaded) throw new Error(`No worker module ${task.module}`);
  return loaded.default(task.input);
}
