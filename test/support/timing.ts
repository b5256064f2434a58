/**
 * Wall-clock checks on a shared 2-core machine compare with a baseline measured in the same test, at
 * the same moment and load, never with a fixed number of milliseconds: `timed` measures both.
 */

/** What `work` gives and how many milliseconds it took (performance.now). */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/**
 * The most a bounded piece of work may take: what the same work takes unhindered now (`baselineMs`,
 * measured in the test), plus `boundMs` (the deadline or delay it must not exceed), plus half of
 * `failureMs` beyond that (the longer wait the check is there to rule out).
 */
export const withinBound = (baselineMs: number, boundMs: number, failureMs: number) =>
  baselineMs + boundMs + (failureMs - boundMs) / 2;
