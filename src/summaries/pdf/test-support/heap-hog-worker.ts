/** A worker that keeps allocating until its heap limit stops it (worker-thread.test.ts). */
const kept: number[][] = [];
for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => i));
