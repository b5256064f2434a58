/**
 * Per-provider politeness: at most `maxConcurrency` requests in flight, and requests spaced so that the
 * upstream's published rate is never exceeded (a token bucket, kept as a "theoretical arrival time" so
 * that a slot can be reserved and its wait known in advance).
 *
 * The limiter lives in one process; several processes each keep their own budget.
 */

export interface ProviderLimiterOptions {
  requestsPerSecond: number;
  maxConcurrency: number;
  /** Requests allowed back to back before spacing applies. Default: the whole-number rate, at least 1. */
  burst?: number;
  now?: () => number;
}

export type LimiterRefusal = 'no_rate_slot_before_deadline' | 'no_concurrency_slot_before_deadline' | 'aborted';

export class LimiterRefusedError extends Error {
  constructor(readonly reason: LimiterRefusal) {
    super(`Request not started: ${reason.replaceAll('_', ' ')}`);
    this.name = 'LimiterRefusedError';
  }
}

export interface AcquireOptions {
  /** Epoch ms; a request that could not start by then is refused at once rather than queued. */
  deadlineAt?: number;
  signal?: AbortSignal;
}

export interface ProviderLimiter {
  readonly requestsPerSecond: number;
  readonly maxConcurrency: number;
  /** Waits for a concurrency slot and a rate slot; resolves to the function that frees the concurrency slot. */
  acquire(options?: AcquireOptions): Promise<() => void>;
}

interface Waiter {
  grant: () => void;
  fail: (error: Error) => void;
}

export function createProviderLimiter(options: ProviderLimiterOptions): ProviderLimiter {
  const now = options.now ?? Date.now;
  const rate = options.requestsPerSecond;
  if (!(rate > 0)) throw new Error('requestsPerSecond must be positive');
  const maxConcurrency = Math.max(1, Math.floor(options.maxConcurrency));
  const intervalMs = 1000 / rate;
  const burst = Math.max(1, Math.floor(options.burst ?? rate));
  const burstToleranceMs = (burst - 1) * intervalMs;

  let theoreticalArrival = 0;
  let inFlight = 0;
  const queue: Waiter[] = [];

  function release(): void {
    const next = queue.shift();
    if (next) next.grant();
    else inFlight -= 1;
  }

  function waitForConcurrencySlot(deadlineAt: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    if (inFlight < maxConcurrency) {
      inFlight += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const cleanup = (): void => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
      };
      const waiter: Waiter = {
        // The slot passes straight from the releaser to this waiter, so inFlight stays unchanged.
        grant: () => {
          cleanup();
          resolve();
        },
        fail: (error) => {
          cleanup();
          reject(error);
        },
      };
      const onAbort = (): void => waiter.fail(new LimiterRefusedError('aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (deadlineAt !== undefined) {
        timer = setTimeout(
          () => waiter.fail(new LimiterRefusedError('no_concurrency_slot_before_deadline')),
          Math.max(0, deadlineAt - now()),
        );
      }
      queue.push(waiter);
    });
  }

  /** Reserves the next rate slot unless it falls after the deadline; returns how long to wait for it. */
  function reserveRateSlot(deadlineAt: number | undefined): number {
    const current = now();
    const start = Math.max(current, theoreticalArrival - burstToleranceMs);
    if (deadlineAt !== undefined && start > deadlineAt) {
      throw new LimiterRefusedError('no_rate_slot_before_deadline');
    }
    theoreticalArrival = Math.max(theoreticalArrival, current) + intervalMs;
    return start - current;
  }

  async function acquire({ deadlineAt, signal }: AcquireOptions = {}): Promise<() => void> {
    if (signal?.aborted) throw new LimiterRefusedError('aborted');
    await waitForConcurrencySlot(deadlineAt, signal);
    let released = false;
    const releaseOnce = (): void => {
      if (released) return;
      released = true;
      release();
    };
    try {
      const waitMs = reserveRateSlot(deadlineAt);
      if (waitMs > 0) await sleep(waitMs, signal);
    } catch (error) {
      releaseOnce();
      if (error instanceof LimiterRefusedError) throw error;
      throw new LimiterRefusedError('aborted');
    }
    return releaseOnce;
  }

  return { requestsPerSecond: rate, maxConcurrency, acquire };
}

/** Resolves after `ms`, or rejects when the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Milliseconds to wait from a `Retry-After` header (delay-seconds or an HTTP date), or null when the
 * header is absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
