import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProviderError } from './provider-error.js';
import { LimiterRefusedError, createProviderLimiter, parseRetryAfter } from './provider-limiter.js';
import { createPubmedProvider } from './providers/pubmed.js';
import type { Outbound, OutboundResponse } from '../platform/outbound.js';
import { afterQueuedWrites, createUpstreamClient } from './providers/upstream.js';
import { createTestOutbound, startFixtureServer, unlimited } from './test-support/harness.js';
import type { FixtureServer } from './test-support/harness.js';
import { timed, withinBound } from '../../test/support/timing.js';

/** How a promise stands once the fake clock has moved on: its value and the fake time it settled at. */
function track<T>(promise: Promise<T>): { settled: boolean; value?: T; at?: number } {
  const state: { settled: boolean; value?: T; at?: number } = { settled: false };
  void promise.then((value) => Object.assign(state, { settled: true, value, at: Date.now() }));
  return state;
}

// The limiter waits on its own timers (setTimeout) and reads Date.now: a fake clock moves both.
describe('createProviderLimiter', () => {
  let t0: number;
  beforeEach(() => {
    vi.useFakeTimers();
    t0 = Date.now();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('spaces requests at the configured rate once the burst is used', async () => {
    const limiter = createProviderLimiter({ requestsPerSecond: 20, maxConcurrency: 10, burst: 1 });
    const starts: number[] = [];
    const all = Promise.all(
      [0, 1, 2, 3].map(async () => {
        const release = await limiter.acquire();
        starts.push(Date.now() - t0);
        release();
      }),
    );
    await vi.advanceTimersByTimeAsync(1000);
    await all;
    // 20 per second is one every 50 ms, the first at once.
    expect(starts.sort((a, b) => a - b)).toEqual([0, 50, 100, 150]);
  });

  it('lets a burst through at once', async () => {
    const limiter = createProviderLimiter({ requestsPerSecond: 3, maxConcurrency: 10 });
    const burst = track(
      (async () => {
        for (let i = 0; i < 3; i++) (await limiter.acquire())();
      })(),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(burst).toMatchObject({ settled: true, at: t0 });
    // The fourth waits for the next slot, a third of a second on.
    const fourth = track(limiter.acquire());
    await vi.advanceTimersByTimeAsync(300);
    expect(fourth.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(fourth.settled).toBe(true);
    fourth.value?.();
  });

  it('keeps at most maxConcurrency in flight and hands the slot to the next waiter', async () => {
    const limiter = createProviderLimiter({ requestsPerSecond: 1000, maxConcurrency: 2 });
    const first = await limiter.acquire();
    await limiter.acquire();
    const third = track(limiter.acquire());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(third.settled).toBe(false);
    first();
    await vi.advanceTimersByTimeAsync(0);
    expect(third.settled).toBe(true);
    third.value?.();
  });

  it('refuses at once when the next rate slot falls after the deadline', async () => {
    const limiter = createProviderLimiter({ requestsPerSecond: 1, maxConcurrency: 5 });
    (await limiter.acquire())();
    const refusal = track(
      limiter.acquire({ deadlineAt: Date.now() + 200 }).catch((error: unknown) => error),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(refusal.settled).toBe(true);
    expect(refusal.at).toBe(t0);
    expect(refusal.value).toBeInstanceOf(LimiterRefusedError);
    expect((refusal.value as LimiterRefusedError).reason).toBe('no_rate_slot_before_deadline');
  });

  it('gives up waiting for a concurrency slot at the deadline', async () => {
    const limiter = createProviderLimiter({ requestsPerSecond: 1000, maxConcurrency: 1 });
    const held = await limiter.acquire();
    const refusal = track(
      limiter.acquire({ deadlineAt: Date.now() + 60 }).catch((error: unknown) => error),
    );
    await vi.advanceTimersByTimeAsync(59);
    expect(refusal.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(refusal).toMatchObject({ settled: true, at: t0 + 60 });
    expect((refusal.value as LimiterRefusedError).reason).toBe(
      'no_concurrency_slot_before_deadline',
    );
    held();
    // The refused waiter left the queue: the slot is free again.
    const next = track(limiter.acquire({ deadlineAt: Date.now() + 50 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(next.settled).toBe(true);
    next.value?.();
  });

  it('keeps a started request in its slot past its deadline, and refuses a waiter whose signal aborts', async () => {
    const limiter = createProviderLimiter({ requestsPerSecond: 1000, maxConcurrency: 1 });
    const held = await limiter.acquire({ deadlineAt: Date.now() + 20 });
    await vi.advanceTimersByTimeAsync(40);
    const late = track(
      limiter.acquire({ deadlineAt: Date.now() + 30 }).catch((error: unknown) => error),
    );
    await vi.advanceTimersByTimeAsync(30);
    expect((late.value as LimiterRefusedError).reason).toBe('no_concurrency_slot_before_deadline');
    const controller = new AbortController();
    const waiting = limiter.acquire({ signal: controller.signal }).catch((error: unknown) => error);
    controller.abort();
    expect(((await waiting) as LimiterRefusedError).reason).toBe('aborted');
    held();
    const next = track(limiter.acquire({ deadlineAt: Date.now() + 50 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(next.settled).toBe(true);
    next.value?.();
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});

describe('upstream retry policy', () => {
  let server: FixtureServer;
  const outbound = createTestOutbound();

  beforeAll(async () => {
    server = await startFixtureServer([
      {
        path: '/once',
        times: 1,
        status: 429,
        headers: { 'retry-after': '1' },
        fixture: 'semanticscholar/error_429_too_many_requests.json',
      },
      { path: '/once', body: 'ok' },
      {
        path: '/no-header',
        status: 429,
        fixture: 'semanticscholar/error_429_too_many_requests.json',
      },
      { path: '/always', status: 503, headers: { 'retry-after': '0' }, body: 'busy' },
      { path: '/far', status: 429, headers: { 'retry-after': '30' }, body: 'later' },
      { path: '/at-once', body: 'ok' },
      { path: '/server-error', status: 500, headers: { 'retry-after': '0' }, body: 'broken' },
      { path: '/esearch.fcgi', fixture: 'pubmed/esearch_term-biopython.xml' },
      { path: '/efetch.fcgi', fixture: 'pubmed/efetch_pubmed_two_articles_abstracts.xml' },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await outbound.close();
  });

  const client = () =>
    createUpstreamClient({
      provider: 'semanticscholar',
      outbound,
      limiter: unlimited(),
      timeoutMs: 5_000,
    });
  const countTo = (path: string) => server.requestsTo(path).length;

  it('retries once after Retry-After on 429 and returns the retry', async () => {
    const response = await client().get(`${server.url}/once`, { deadlineAt: Date.now() + 5_000 });
    expect(response.status).toBe(200);
    const [first, second] = server.requestsTo('/once');
    expect(countTo('/once')).toBe(2);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('does not retry a 429 without Retry-After', async () => {
    const response = await client().get(`${server.url}/no-header`);
    expect(response.status).toBe(429);
    expect(countTo('/no-header')).toBe(1);
  });

  it('retries a 503 at most once', async () => {
    const response = await client().get(`${server.url}/always`);
    expect(response.status).toBe(503);
    expect(countTo('/always')).toBe(2);
  });

  it('never waits past the deadline to retry', async () => {
    const deadlineMs = 2_000;
    const far = await timed(() =>
      client().get(`${server.url}/far`, { deadlineAt: Date.now() + deadlineMs }),
    );
    expect(far.value.status).toBe(429);
    expect(countTo('/far')).toBe(1);
    // Answered as soon as one request is (measured now: the baseline), well before the deadline
    // it would wait out if it waited for the Retry-After.
    const baseline = await timed(() => client().get(`${server.url}/at-once`));
    expect(baseline.value.status).toBe(200);
    expect(far.ms).toBeLessThan(withinBound(baseline.ms, 0, deadlineMs));
  });

  it('does not retry other statuses even with Retry-After', async () => {
    await client().get(`${server.url}/server-error`);
    expect(countTo('/server-error')).toBe(1);
  });

  it('maps a request that outlives its deadline to a timeout ProviderError', async () => {
    server.addRoute({ path: '/slow', delayMs: 2_000, body: 'late' });
    const failure = await client()
      .get(`${server.url}/slow`, { deadlineAt: Date.now() + 150 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ kind: 'timeout' });
  });

  it('keeps a real provider under its published rate (PubMed: 3 per second)', async () => {
    const pubmed = createPubmedProvider({ baseUrl: server.url, outbound, timeoutMs: 5_000 });
    // Two searches are four requests (esearch + efetch each); the fourth must wait for the bucket.
    await Promise.all([
      pubmed.search('biopython', { limit: 20 }),
      pubmed.search('biopython', { limit: 20 }),
    ]);
    const times = [...server.requestsTo('/esearch.fcgi'), ...server.requestsTo('/efetch.fcgi')]
      .map((request) => request.at)
      .sort((a, b) => a - b);
    expect(times).toHaveLength(4);
    // The fourth leaves 333 ms after the first; measured where they arrive, the first can be late by its
    // connection's set-up on a loaded machine (298 ms was seen in CI). Without the limiter all four
    // arrive within a few milliseconds, so 250 still tells the two apart.
    expect((times[3] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(250);
  });
});

describe('upstream answer hand-over', () => {
  /** An outbound client whose answers are ready at once (the body is already read). */
  const instant: Outbound = {
    request: async (url) => {
      const body = Buffer.from('{}');
      return {
        status: 200,
        headers: {},
        url,
        body,
        text: () => '{}',
        json: <T>() => ({}) as T,
      } satisfies OutboundResponse;
    },
  };

  it('hands over an answer that leads to a second request before answers asked for earlier', async () => {
    const client = createUpstreamClient({
      provider: 'pubmed',
      outbound: instant,
      limiter: unlimited(),
      timeoutMs: 5_000,
    });
    const order: string[] = [];
    await Promise.all([
      client.get('http://upstream.test/works').then(() => order.push('final answer')),
      client
        .get('http://upstream.test/esearch', { leadsToFollowUp: true })
        .then(() => order.push('ids for a follow-up')),
    ]);
    expect(order).toEqual(['ids for a follow-up', 'final answer']);
  });

  it('waits for work queued in this turn of the event loop and the next (undici writes reused connections there)', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('queued before'));
    const waited = afterQueuedWrites().then(() => order.push('handed over'));
    setImmediate(() => {
      order.push('queued after');
      setImmediate(() => order.push('queued by a callback of that turn'));
    });
    await waited;
    expect(order).toEqual(['queued before', 'queued after', 'handed over']);
  });
});
