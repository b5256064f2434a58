/**
 * Per-provider politeness: at most `maxConcurrency` requests in flight (a p-queue), and requests spaced so that the
 * upstream's published rate is never exceeded (a token bucket, kept as a "theoretical arrival time" so
 * that a slot can be reserved and its wait known in advance).
 *
 * The limiter lives in one process; several processes each keep their own budget.
 */
import PQueue from 'p-queue';

export interface ProviderLimiterOptions {
  requestsPerSecond: number;
  maxConcurrency: number;
  /** Requests allowed back to back before spacing applies. Default: the whole-number rate, at least 1. */
  burst?: number;
  now?: () => number;
}

export type LimiterRefusal =
  'no_rate_slot_before_deadline' | 'no_concurrency_slot_before_deadline' | 'aborted';

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

export function createProviderLimiter(options: ProviderLimiterOptions): ProviderLimiter {
  const now = options.now ?? Date.now;
  const rate = options.requestsPerSecond;
  if (!(rate > 0)) throw new Error('requestsPerSecond must be positive');
  const maxConcurrency = Math.max(1, Math.floor(options.maxConcurrency));
  const intervalMs = 1000 / rate;
  const burst = Math.max(1, Math.floor(options.burst ?? rate));
  const burstToleranceMs = (burst - 1) * intervalMs;

  let theoreticalArrival = 0;
  // p-queue keeps the connection slots. Its own rate limit (intervalCap per interval) is a fixed window
  // that cannot say in advance when the next start comes, so the rate stays the token bucket below:
  // a request whose rate slot falls after its deadline is refused at once instead of waiting for it.
  const slots = new PQueue({ concurrency: maxConcurrency });

  /** Waits for a free slot; resolves to the function that frees it. */
  function waitForConcurrencySlot(
    deadlineAt: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<() => void> {
    return new Promise((resolve, reject) => {
      // Aborted only while the request waits: p-queue frees a running task's slot when its signal aborts.
      const waiting = new AbortController();
      let refusal: LimiterRefusal = 'aborted';
      let timer: NodeJS.Timeout | undefined;
      const giveUp = (reason: LimiterRefusal): void => {
        refusal = reason;
        waiting.abort();
      };
      const onAbort = (): void => giveUp('aborted');
      const stopWaiting = (): void => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (deadlineAt !== undefined) {
        timer = setTimeout(
          () => giveUp('no_concurrency_slot_before_deadline'),
          Math.max(0, deadlineAt - now()),
        );
      }
      slots
        .add(
          () =>
            new Promise<void>((release) => {
              stopWaiting();
              resolve(release);
            }),
          { signal: waiting.signal },
        )
        .catch(() => {
          stopWaiting();
          reject(new LimiterRefusedError(refusal));
        });
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
    const release = await waitForConcurrencySlot(deadlineAt, signal);
    try {
      const waitMs = reserveRateSlot(deadlineAt);
      if (waitMs > 0) await sleep(waitMs, signal);
    } catch (error) {
      release();
      if (error instanceof LimiterRefusedError) throw error;
      throw new LimiterRefusedError('aborted');
    }
    return release;
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
export function parseRetryAfter(
  value: string | undefined,
  nowMs: number = Date.now(),
): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
