/**
 * The whole of `GET /api/search` below the route: ask the selected providers, fold duplicates, score,
 * sort and cut the requested page. The route validates parameters and presents the reply.
 */
import { federatedSearch } from './federate.js';
import { applyFilters, hasFilters } from './filters.js';
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
  /**
   * Called as each provider settles, with the page as it stands: the records of the providers settled
   * so far, merged, ranked and cut as the final reply is, and their statuses (the search stream).
   */
  onProgress?: (settled: ProviderStatus, page: SearchReply) => void;
  /** See `FederatedSearchOptions.beforeProviderCalls`: the search limit is counted there. */
  beforeProviderCalls?: () => Promise<void>;
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
  // Filtered after merging: a provider that ignored a filter cannot let a non-matching work through.
  const rankedPage = (records: SearchRecord[], providers: ProviderStatus[]): SearchReply => {
    const kept = applyFilters(merger.merge(records), request.filters);
    return {
      ...paginate(sortRecords(scorer.score(kept), request.sort), request.offset, request.limit),
      query: request.query,
      took: Date.now() - startedAt,
      providers: hasFilters(request.filters)
        ? providers.map((status) => countKept(status, kept))
        : providers,
    };
  };
  const settledRecords: SearchRecord[] = [];
  const settledStatuses = new Map<ProviderId, ProviderStatus>();
  const onProgress = request.onProgress;
  const onSettled = onProgress
    ? (status: ProviderStatus, records: SearchRecord[]) => {
        settledRecords.push(...records);
        settledStatuses.set(status.id, status);
        // In the order the providers were given, as the final reply lists them.
        const statuses = request.providers.flatMap(
          (provider) => settledStatuses.get(provider.id) ?? [],
        );
        onProgress(status, rankedPage(settledRecords, statuses));
      }
    : undefined;
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
    onSettled,
    beforeProviderCalls: request.beforeProviderCalls,
    // Each answer's per-record merge and scoring work is done while slower providers are awaited.
    onAnswer: (records) => {
      merger.prepare(records);
      scorer.prepare(records);
    },
  });
  return rankedPage(federated.records, federated.providers);
}

/** A provider's count once filtered: the kept works it contributed to (what its chip says it found). */
function countKept(status: ProviderStatus, kept: SearchRecord[]): ProviderStatus {
  if (status.status !== 'ok') return status;
  return { ...status, count: kept.filter((record) => record.sources.includes(status.id)).length };
}
