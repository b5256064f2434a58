/**
 * The whole of `GET /api/search` below the route: ask the selected providers, fold duplicates, score,
 * sort and cut the requested page. The route validates parameters and presents the reply.
 */
import { federatedSearch } from './federate.js';
import { applyFilters } from './filters.js';
import type { SearchFilters } from './filters.js';
import type { ProviderFailureLog, ProviderStatus } from './federate.js';
import { createRecordMerger } from './merge.js';
import { createRecordScorer, paginate, sortRecords } from './rank.js';
import type { SortOrder } from './rank.js';
import type { ProviderAnswerCache, ProviderId, SearchProvider, SearchRecord } from './types.js';

export interface SearchRequest {
  query: string;
  /** The selected providers, in any order; disabled ones are reported as `disabled`. */
  providers: SearchProvider[];
  sort: SortOrder;
  /** Sent to the providers that support them and applied to the merged list (filters.ts). */
  filters?: SearchFilters;
  offset: number;
  limit: number;
  deadlineMs?: number;
  providerDeadlinesMs?: Partial<Record<ProviderId, number>>;
  cache?: ProviderAnswerCache;
  cacheTtlSeconds?: number;
  signal?: AbortSignal;
  /** Runs work the reply does not need (cache writes); see `FederatedSearchOptions.deferWork`. */
  deferWork?: (work: () => void) => void;
  /** Providers' failures are logged here at `warn`, with their cause. */
  log?: ProviderFailureLog;
}

export interface SearchReply {
  results: SearchRecord[];
  /** Records in the merged list the page was cut from. */
  total: number;
  hasMore: boolean;
  query: string;
  /** Milliseconds the whole search took. */
  took: number;
  providers: ProviderStatus[];
}

/**
 * How many records to ask each provider for. The merged list is paged, not each provider, so a fixed
 * bucket serves several pages from the same (cached) answers; deeper pages ask for the maximum.
 */
export function perProviderLimitFor(offset: number, limit: number): number {
  return offset + limit <= 50 ? 50 : 100;
}

export async function searchProviders(request: SearchRequest): Promise<SearchReply> {
  const startedAt = Date.now();
  const merger = createRecordMerger();
  const scorer = createRecordScorer(request.query);
  const federated = await federatedSearch({
    providers: request.providers,
    query: request.query,
    perProviderLimit: perProviderLimitFor(request.offset, request.limit),
    filters: request.filters,
    deadlineMs: request.deadlineMs,
    providerDeadlinesMs: request.providerDeadlinesMs,
    cache: request.cache,
    cacheTtlSeconds: request.cacheTtlSeconds,
    signal: request.signal,
    deferWork: request.deferWork,
    log: request.log,
    // Each answer's per-record merge and scoring work is done while slower providers are awaited.
    onAnswer: (records) => {
      merger.prepare(records);
      scorer.prepare(records);
    },
  });
  // Filtered after merging: a provider that ignored a filter cannot let a non-matching work through.
  const ranked = sortRecords(scorer.score(applyFilters(merger.merge(federated.records), request.filters)), request.sort);
  const page = paginate(ranked, request.offset, request.limit);
  return {
    ...page,
    query: request.query,
    took: Date.now() - startedAt,
    providers: federated.providers,
  };
}
