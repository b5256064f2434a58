/**
 * The worker pool's bounds, on real worker threads: a task past its time is stopped, a worker past its
 * heap dies, either as a WorkerTaskFailed; a task past the queue is refused at once; and the pool
 * keeps answering after each. The workers run at a lower priority than this thread; the time limit
 * runs from when a worker starts a task; only the pool's first workers warm up.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorkerPool,
  workerModule,
  WorkerPoolBusy,
  WorkerTaskFailed,
  type WorkerPool,
} from './worker-pool.js';

const HUNGRY = workerModule(new URL('./test-support/', import.meta.url).href, 'hungry-worker');

let pool: WorkerPool;
beforeAll(() => {
  pool = createWorkerPool({ threads: 1, queue: 1, heapMb: 64, modules: [HUNGRY] });
});
afterAll(async () => pool?.close());

const failure = (task: Promise<unknown>) =>
  task.then(
    () => null,
    (error: unknown) => error,
  );

describe('worker pool', () => {
  it('runs a task in a worker and answers with its result', async () => {
    expect(await pool.run(HUNGRY, { kind: 'echo', value: 7 }, 60_000)).toEqual({ echoed: 7 });
  });

  it('stops a task past its time limit, and the next task still runs', async () => {
    const error = await failure(pool.run(HUNGRY, { kind: 'spin' }, 1_000));
    expect(error).toBeInstanceOf(WorkerTaskFailed);
    expect(error).toMatchObject({ reason: 'timeout', limit: 1_000 });
    expect(await pool.run(HUNGRY, { kind: 'echo', value: 1 }, 60_000)).toEqual({ echoed: 1 });
  }, 90_000);

  it('a worker past its heap dies: the task fails as out of memory, the next one runs', async () => {
    const error = await failure(pool.run(HUNGRY, { kind: 'grow' }, 60_000));
    expect(error).toBeInstanceOf(WorkerTaskFailed);
    expect(error).toMatchObject({ reason: 'memory', limit: 64 });
    expect(await pool.run(HUNGRY, { kind: 'echo', value: 2 }, 60_000)).toEqual({ echoed: 2 });
  }, 90_000);

  it('refuses the tasks past the queue at once (WorkerPoolBusy)', async () => {
    // One worker and a queue of one: of four tasks at once, at most two are taken.
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () => failure(pool.run(HUNGRY, { kind: 'spin' }, 3_000))),
    );
    const refused = outcomes.filter((outcome) => outcome instanceof WorkerPoolBusy);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const outcome of outcomes)
      if (!(outcome instanceof WorkerPoolBusy)) expect(outcome).toBeInstanceOf(WorkerTaskFailed);
  }, 90_000);

  it('runs its workers at a lower scheduling priority than the calling thread (Linux nice)', async () => {
    const own = Number(
      readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16],
    );
    const { nice } = await pool.run<{ nice: number }>(HUNGRY, { kind: 'nice' }, 60_000);
    expect(nice).toBe(Math.min(19, own + 10));
  }, 90_000);

  it("counts a task's time limit from when a worker starts it, not while it waits in the queue", async () => {
    // One worker: the second task waits about 1.5 s behind the first, then needs about 100 ms of its
    // 1 s; counted from its submission it would pass the limit before it started.
    const [first, second] = await Promise.all([
      pool.run(HUNGRY, { kind: 'busy', value: 1_500 }, 60_000),
      pool.run(HUNGRY, { kind: 'busy', value: 100 }, 1_000),
    ]);
    expect(first).toEqual({ busy: 1_500 });
    expect(second).toEqual({ busy: 100 });
  }, 90_000);

  it('warms up the workers it starts with, not one that replaces a stopped worker', async () => {
    const warming = createWorkerPool({ threads: 1, queue: 1, heapMb: 64, modules: [HUNGRY] });
    try {
      warming.start();
      expect(await warming.run(HUNGRY, { kind: 'warmed' }, 60_000)).toEqual({ warmed: true });
      await failure(warming.run(HUNGRY, { kind: 'spin' }, 500));
      expect(await warming.run(HUNGRY, { kind: 'warmed' }, 60_000)).toEqual({ warmed: false });
    } finally {
      await warming.close();
    }
  }, 90_000);
});
