/**
 * Starts a worker thread on a module that sits next to the caller: `<name>.js` in the compiled build,
 * or `<name>.ts` when running from source (vitest, tsx), which is then loaded through tsx.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** `here` is the caller's `import.meta.url`; `name` the worker module's file name without extension. */
export function startWorker(here: string, name: string): Worker {
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, here));
  // From source: register tsx's loader inside the worker, then load the TypeScript worker module.
  // (`execArgv: ['--import', 'tsx']` does not reach worker threads on Node 20.)
  const tsxApi = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const workerUrl = new URL(`./${name}.ts`, here).href;
  const bootstrap =
    `import(${JSON.stringify(tsxApi)})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}); })` +
    '.catch((error) => { setImmediate(() => { throw error; }); });';
  return new Worker(bootstrap, { eval: true });
}
