/**
 * Prometheus metrics (prom-client) in a registry of each platform's own: buildApp runs many times in
 * one test process, and prom-client's global default registry would refuse the second registration of
 * every name. The platform keeps what every capability shares (requests by route and status, cache
 * lookups, the database pool); a capability declares its own series with `counter`, `histogram` and
 * `gauge`, which return the series already declared under that name when two apps share one platform.
 *
 * The process's own metrics (CPU, memory, heap, GC, event-loop lag) are the process's, not an app's:
 * they are collected once per process in a registry of their own, and every scrape appends them.
 *
 * Labels are bounded: a route is its pattern (`/api/workspaces/:id`, never the URL asked for), a cache
 * is the first segment of the code's own key, and every other label is a value from the code.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A connection pool's state, as pg's Pool counts it. */
export interface PoolStats {
  /** Connections open, idle or checked out. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

export interface MetricsOptions {
  /** The database pool (PostgreSQL); absent for the embedded database, which has none. */
  databasePool?: () => PoolStats;
}

interface SeriesConfig<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
}

export interface Metrics {
  /** `text/plain; version=0.0.4; charset=utf-8`, the exposition format the scrape is written in. */
  readonly contentType: string;
  /** One observation per answered request: method, the route's pattern (or `unmatched`), status. */
  observeRequest(
    method: string,
    route: string | undefined,
    statusCode: number,
    seconds: number,
  ): void;
  /** A lookup in a cache: `cache` names what is cached (`search`, `summary`). */
  countCacheLookup(cache: string, hit: boolean): void;
  counter<L extends string>(config: SeriesConfig<L>): Counter<L>;
  histogram<L extends string>(config: SeriesConfig<L> & { buckets: number[] }): Histogram<L>;
  /** `collect` runs at each scrape (a value read from elsewhere, e.g. a queue's depth). */
  gauge<L extends string>(
    config: SeriesConfig<L> & { collect?: (this: Gauge<L>) => void | Promise<void> },
  ): Gauge<L>;
  /** Every series in the text exposition format: this platform's, then the process's. */
  scrape(): Promise<string>;
}

/** Seconds; from a cached answer (a few ms) to a deep summary or a slow provider (tens of seconds). */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const UNMATCHED_ROUTE = 'unmatched';
const KEYSPACE = /^[a-z][a-z0-9_-]{0,31}$/;

let processRegistry: Registry | undefined;

/** The process's metrics, started once: each start enables an event-loop delay monitor that is never stopped. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The part of a cache key before its first `:` (the code's own prefix), or `other`. */
export function keyspaceOf(key: string): string {
  const head = key.slice(0, Math.max(0, key.indexOf(':')));
  return KEYSPACE.test(head) ? head : 'other';
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const processRegistryNow = processMetrics();
  const registry = new Registry();

  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Requests answered, by method, route pattern and status, and how long each took to answer (its _count is the request count)',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const cacheLookups = new Counter({
    name: 'cache_lookups_total',
    help: 'Cache lookups by cache and result (hit or miss)',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
  });

  const pool = options.databasePool;
  if (pool) {
    const poolGauge = (name: string, help: string, read: (stats: PoolStats) => number): void => {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(pool()));
        },
      });
    };
    poolGauge(
      'db_pool_connections',
      'Connections the database pool holds open (idle or in use)',
      (stats) => stats.total,
    );
    poolGauge(
      'db_pool_connections_idle',
      'Open connections of the database pool not in use',
      (stats) => stats.idle,
    );
    poolGauge(
      'db_pool_waiting_queries',
      'Queries waiting for a connection of the database pool',
      (stats) => stats.waiting,
    );
    poolGauge(
      'db_pool_connections_max',
      'Most connections the database pool opens',
      (stats) => stats.max,
    );
  }

  function declared<T>(name: string, create: () => T): T {
    return (registry.getSingleMetric(name) as T | undefined) ?? create();
  }

  return {
    contentType: registry.contentType,
    observeRequest(method, route, statusCode, seconds) {
      requests.observe(
        { method, route: route ?? UNMATCHED_ROUTE, status_code: statusCode },
        seconds,
      );
    },
    countCacheLookup(cache, hit) {
      cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
    },
    counter: (config) =>
      declared(
        config.name,
        () => new Counter({ ...config, labelNames: [...config.labelNames], registers: [registry] }),
      ),
    histogram: (config) =>
      declared(
        config.name,
        () =>
          new Histogram({ ...config, labelNames: [...config.labelNames], registers: [registry] }),
      ),
    gauge: (config) =>
      declared(
        config.name,
        () => new Gauge({ ...config, labelNames: [...config.labelNames], registers: [registry] }),
      ),
    async scrape() {
      return (await registry.metrics()) + (await processRegistryNow.metrics());
    },
  };
}
