/**
 * A worker module for worker-pool.test.ts: answers, spins for ever or for a while, grows its heap
 * without bound, tells its thread's scheduling priority or whether this worker warmed up.
 */
import { readFileSync } from 'node:fs';

let warmed = false;

export function warmUp(): void {
  warmed = true;
}

export default function hungry(input: {
  kind: 'echo' | 'spin' | 'grow' | 'busy' | 'nice' | 'warmed';
  value?: number;
}): unknown {
  if (input.kind === 'echo') return { echoed: input.value };
  if (input.kind === 'warmed') return { warmed };
  // Linux: field 19 of the thread's stat is its nice value (the fields after the command's `) `).
  if (input.kind === 'nice')
    return {
      nice: Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16]),
    };
  if (input.kind === 'busy') {
    const until = Date.now() + (input.value ?? 0);
    while (Date.now() < until);
    return { busy: input.value };
  }
  if (input.kind === 'spin') for (;;);
  const kept: string[][] = [];
  for (;;) kept.push(Array.from({ length: 10_000 }, (_, i) => `${i}-${kept.length}`));
}
