/** The summaries' series: lookups in the summary cache, and the summary streams open now. */
import type { Metrics } from '../platform/metrics.js';
import type { SummaryCache } from './cache.js';

/** The same cache, each lookup counted as `cache="summary"` (a hit from the shared store or from memory alike). */
export function countSummaryLookups(cache: SummaryCache, metrics: Metrics): SummaryCache {
  return {
    description: cache.description,
    get: async <T>(key: string) => {
      const hit = await cache.get<T>(key);
      metrics.countCacheLookup('summary', hit !== null);
      return hit;
    },
    set: (key, value) => cache.set(key, value),
    once: (key, compute) => cache.once(key, compute),
  };
}

export function openStreamsGauge(metrics: Metrics) {
  return metrics.gauge({
    name: 'summary_streams_open',
    help: 'Summary event streams (GET /api/summarize) open now',
    labelNames: [] as const,
  });
}
