/**
 * The order test files start in (vitest.config.ts's `sequence.sequencer`). With two workers on two
 * cores, a file that mostly waits (a journey in Chromium, the built service as a process) is best run
 * beside one that computes (an app test), so the two kinds alternate, slowest first within each;
 * the unit files, short and many, come last and fill the gaps at the end.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Projects whose files spend their time waiting on another process. */
const WAITING = new Set(['browser', 'e2e']);
/** Projects whose files compute: the real app in the test process. */
const COMPUTING = new Set(['app', 'app-shared']);

/** Waiting and computing files alternate, each kind in the order given; every other file after them. */
export function interleave<T extends { project: { name: string } }>(files: readonly T[]): T[] {
  const waiting = files.filter((file) => WAITING.has(file.project.name));
  const computing = files.filter((file) => COMPUTING.has(file.project.name));
  const rest = files.filter(
    (file) => !WAITING.has(file.project.name) && !COMPUTING.has(file.project.name),
  );
  const alternating: T[] = [];
  for (let i = 0; i < Math.max(waiting.length, computing.length); i += 1) {
    if (i < waiting.length) alternating.push(waiting[i]!);
    if (i < computing.length) alternating.push(computing[i]!);
  }
  return [...alternating, ...rest];
}

export default class InterleavingSequencer extends BaseSequencer {
  // Vitest's own order within a project: failed last time first, then the slowest last time (or,
  // with no record, as on a clean clone, the largest file).
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return interleave(await super.sort(files));
  }
}
