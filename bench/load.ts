/**
 * The load generator, run as its own process so that it never shares a CPU queue with the server it
 * measures. Two modes:
 *
 * - `autocannon`: `connections` keep-alive connections for `durationSeconds`, every request as fast as
 *   the server answers. Per-request variation (a unique URL or title) is made in `setupRequest`.
 *   Latencies are recorded here from autocannon's `response` event (fractional ms), because its own
 *   histogram keeps whole milliseconds, too coarse for sub-millisecond routes. With several origins
 *   (processes of the same service) the connections are split evenly among them, all at once, and the
 *   result is one: every request's latency and the total rate. With `journey`, each connection goes
 *   through the journey's steps (bench/journey.ts) instead of one request.
 * - `paced`: one connection per origin, `samples` rounds each started no sooner than `intervalMs` after
 *   the previous one; in each round every origin gets the same request, in alternating order (for
 *   routes whose cost is waiting on someone else, e.g. search providers).
 *
 * Input: one JSON argument (`LoadSpec`). Output: one JSON line, a `LoadResult` per origin, on stdout.
 */
import { request as httpRequest, Agent } from 'node:http';
import autocannon from 'autocannon';
import { journeyRequests, type JourneyPlan } from './journey.js';

export type Variation =
  /** POST …/resources: round-robin over `workspaceIds`, a unique resource URL per request. */
  | { kind: 'resource'; workspaceIds: string[]; runId: string }
  /** POST /api/summarize: a unique title per request (a summary-cache miss every time). */
  | { kind: 'summary-title'; runId: string }
  /** GET /api/search: a unique query per request (a provider-answer-cache miss every time). */
  | { kind: 'search-query'; runId: string };

export interface LoadSpec {
  mode: 'autocannon' | 'paced';
  /** `http://127.0.0.1:<port>`; in autocannon mode the connections are split among them. */
  origins: string[];
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  variation?: Variation;
  /** autocannon mode: the journey's steps instead of `method`/`path`. */
  journey?: JourneyPlan;
  connections: number;
  durationSeconds: number;
  /** paced mode */
  samples?: number;
  intervalMs?: number;
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

const SEARCH_WORDS = [
  'augmenting',
  'large',
  'language',
  'models',
  'chemistry',
  'tools',
  'protein',
  'folding',
  'turing',
  'graph',
];

function searchQuery(runId: string, n: number): string {
  const words = [
    SEARCH_WORDS[n % 10],
    SEARCH_WORDS[(n * 3 + 1) % 10],
    SEARCH_WORDS[(n * 7 + 2) % 10],
  ];
  return `${words.join(' ')} ${runId}${n}`;
}

/** The n-th request of a spec: its path and body. */
export function nthRequest(spec: LoadSpec, n: number): { path: string; body?: string } {
  const variation = spec.variation;
  if (!variation) return { path: spec.path, body: spec.body };
  switch (variation.kind) {
    case 'resource': {
      const workspaceId = variation.workspaceIds[n % variation.workspaceIds.length];
      return {
        path: `/api/workspaces/${workspaceId}/resources`,
        body: JSON.stringify({
          title: `Benchmark resource ${variation.runId}-${n}`,
          url: `https://bench.example.org/papers/${variation.runId}-${n}`,
          notes: 'Added by the benchmark',
          tags: ['bench', 'load'],
          authors: ['A. Author', 'B. Author'],
        }),
      };
    }
    case 'summary-title': {
      const base = JSON.parse(spec.body ?? '{}') as Record<string, unknown>;
      return {
        path: spec.path,
        body: JSON.stringify({
          ...base,
          title: `${String(base.title ?? 'Paper')} ${variation.runId}-${n}`,
        }),
      };
    }
    case 'search-query':
      return {
        path: `/api/search?q=${encodeURIComponent(searchQuery(variation.runId, n))}&limit=20`,
        body: spec.body,
      };
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

function summarise(
  latencies: number[],
  statusCodes: Record<string, number>,
  errors: number,
  seconds: number,
): LoadResult {
  latencies.sort((a, b) => a - b);
  const requests = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  const non2xx = Object.entries(statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    requests,
    requestsPerSecond: Math.round(requests / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    non2xx,
    errors,
    statusCodes,
  };
}

function singleRequest(spec: LoadSpec, counter: { n: number }): autocannon.Request[] {
  return [
    {
      method: spec.method,
      path: spec.path,
      headers: spec.headers,
      ...(spec.body !== undefined ? { body: spec.body } : {}),
      ...(spec.variation
        ? {
            setupRequest: (request: autocannon.Request): autocannon.Request => {
              const next = nthRequest(spec, counter.n++);
              return {
                ...request,
                path: next.path,
                ...(next.body !== undefined ? { body: next.body } : {}),
              };
            },
          }
        : {}),
    },
  ];
}

async function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  if (spec.origins.length === 0 || spec.connections < spec.origins.length)
    throw new Error('autocannon mode needs an origin and at least one connection for each');
  const counter = { n: 0 };
  const journeyCounter = { visits: 0 };
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const startedAt = process.hrtime.bigint();
  const runs = spec.origins.map((origin, index) => {
    // An even split; the first origins take the remainder.
    const connections =
      Math.floor(spec.connections / spec.origins.length) +
      (index < spec.connections % spec.origins.length ? 1 : 0);
    return new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: origin,
          connections,
          duration: spec.durationSeconds,
          requests: spec.journey
            ? journeyRequests(spec.journey, journeyCounter)
            : singleRequest(spec, counter),
        },
        (error: Error | null, result: autocannon.Result) =>
          error ? reject(error) : resolve(result),
      );
      instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
        statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
      });
    });
  });
  const results = await Promise.all(runs);
  const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const errors = results.reduce((sum, result) => sum + result.errors + result.timeouts, 0);
  return summarise(latencies, statusCodes, errors, Math.min(seconds, spec.durationSeconds + 0.5));
}

function once(
  agent: Agent,
  spec: LoadSpec,
  origin: string,
  path: string,
  body: string | undefined,
): Promise<{ status: number; ms: number }> {
  const url = new URL(path, origin);
  const startedAt = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: spec.method,
        agent,
        headers: {
          ...spec.headers,
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - startedAt) / 1e6,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function runPaced(spec: LoadSpec): Promise<LoadResult[]> {
  const measured = spec.origins.map(
    (
      origin,
    ): {
      origin: string;
      agent: Agent;
      latencies: number[];
      statusCodes: Record<string, number>;
      errors: number;
    } => ({
      origin,
      agent: new Agent({ keepAlive: true, maxSockets: 1 }),
      latencies: [],
      statusCodes: {},
      errors: 0,
    }),
  );
  const samples = spec.samples ?? 10;
  const interval = spec.intervalMs ?? 0;
  const startedAt = Date.now();
  for (let n = 0; n < samples; n++) {
    const slot = startedAt + n * interval;
    if (slot > Date.now()) await new Promise((resolve) => setTimeout(resolve, slot - Date.now()));
    const next = nthRequest(spec, n);
    const order = n % 2 === 0 ? measured : [...measured].reverse();
    for (const target of order) {
      try {
        const { status, ms } = await once(target.agent, spec, target.origin, next.path, next.body);
        target.statusCodes[status] = (target.statusCodes[status] ?? 0) + 1;
        if (status >= 200 && status < 300) target.latencies.push(ms);
      } catch {
        target.errors++;
      }
    }
  }
  const seconds = (Date.now() - startedAt) / 1000;
  return measured.map((target) => {
    target.agent.destroy();
    return summarise(target.latencies, target.statusCodes, target.errors, seconds);
  });
}

const raw = process.argv[2];
if (raw) {
  const spec = JSON.parse(raw) as LoadSpec;
  const results = spec.mode === 'paced' ? await runPaced(spec) : [await runAutocannon(spec)];
  process.stdout.write(`${JSON.stringify(results)}\n`);
}
