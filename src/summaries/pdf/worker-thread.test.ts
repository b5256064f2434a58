/** The PDF path's worker threads: a bounded heap, and idle workers that are stopped after a while. */
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { IdleWorkers, startWorker } from './worker-thread.js';

/** startWorker loads `<name>.ts` next to its first argument: these workers sit in test-support/. */
const HERE = new URL('./test-support/anchor.ts', import.meta.url).href;

async function started(name: string, heapLimitMb?: number): Promise<Worker> {
  const worker = startWorker(HERE, name, heapLimitMb);
  await once(worker, 'online');
  return worker;
}

describe('startWorker', () => {
  it('stops a worker that grows past its heap limit, with an out-of-memory error', async () => {
    const worker = startWorker(HERE, 'heap-hog-worker', 32);
    const [error] = (await once(worker, 'error')) as [Error & { code?: string }];
    expect(error.code).toBe('ERR_WORKER_OUT_OF_MEMORY');
  });
});

describe('IdleWorkers', () => {
  it('stops a kept worker that gets no job within the idle time', async () => {
    const idle = new IdleWorkers(1, 50);
    const worker = await started('idle-worker');
    const exited = once(worker, 'exit');
    idle.keep(worker);
    await exited;
    expect(idle.take()).toBeUndefined();
  });

  it('hands a kept worker back for the next job, and stops what is past its capacity', async () => {
    const idle = new IdleWorkers(1, 60_000);
    const [first, second] = await Promise.all([started('idle-worker'), started('idle-worker')]);
    const secondExited = once(second, 'exit');
    idle.keep(first);
    idle.keep(second);
    await secondExited;
    expect(idle.take()).toBe(first);
    expect(idle.take()).toBeUndefined();
    // The worker taken back still answers (it was not stopped by its idle timer).
    first.postMessage('ping');
    expect((await once(first, 'message'))[0]).toBe('ping');
    const firstExited = once(first, 'exit');
    idle.keep(first);
    await idle.close();
    await firstExited;
  });
});
