/** A worker module for worker-pool.test.ts: answers, spins for ever, or grows its heap without bound. */
export default function hungry(input: { kind: 'echo' | 'spin' | 'grow'; value?: number }): unknown {
  if (input.kind === 'echo') return { echoed: input.value };
  if (input.kind === 'spin') for (;;);
  const kept: string[][] = [];
  for (;;) kept.push(Array.from({ length: 10_000 }, (_, i) => `${i}-${kept.length}`));
}
