/** The search providers' series: calls by outcome, their duration, and rate-limit hits, per provider. */
import { DURATION_BUCKETS, type Metrics } from '../platform/metrics.js';
import type { ProviderObserver } from './types.js';

export function providerMetrics(metrics: Metrics): ProviderObserver {
  const calls = metrics.counter({
    name: 'search_provider_calls_total',
    help:
      'Searches, lookups and related-works calls (operation `related`: ' +
      'references, citations, similar) asked of each provider, by outcome (ok, ' +
      'or why it failed: timeout, rate_limited, upstream, bad_response, ' +
      'network, aborted, error)',
    labelNames: ['provider', 'operation', 'outcome'] as const,
  });
  const durations = metrics.histogram({
    name: 'search_provider_call_duration_seconds',
    help: 'How long a search, lookup or related-works call of each provider took, retries and waits for the limiter included',
    labelNames: ['provider', 'operation'] as const,
    buckets: DURATION_BUCKETS,
  });
  const rateLimited = metrics.counter({
    name: 'search_provider_rate_limit_hits_total',
    help: "Requests to a provider refused for its rate: by the API (429, `upstream`) or by this process's own limiter (`local`)",
    labelNames: ['provider', 'by'] as const,
  });
  return {
    call(provider, operation, outcome, seconds) {
      calls.inc({ provider, operation, outcome });
      durations.observe({ provider, operation }, seconds);
    },
    rateLimited(provider, by) {
      rateLimited.inc({ provider, by });
    },
  };
}
