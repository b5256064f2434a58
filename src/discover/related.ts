/**
 * A work's references, citations or similar works from every graph provider at once (OpenAlex and
 * Semantic Scholar), through search's federation: each provider under its deadline and limiter, its
 * answer cached (scope `related`), its status reported; then duplicates folded as search folds them
 * and the merged list ordered and paged.
 */
import {
  federatedSearch,
  mergeRecords,
  type ProviderFailureLog,
  type ProviderStatus,
} from '../search/index.js';
import type {
  SearchProvider,
  SearchProviders,
  SearchRecord,
  WorkRelation,
} from '../search/index.js';
import type { Cache } from '../platform/cache.js';
import { GRAPH_PROVIDERS, graphKey, providerWorkId, type GraphIds } from './work-ids.js';

export interface RelatedRequest {
  ids: GraphIds;
  relation: WorkRelation;
  providers: SearchProviders;
  /** How many neighbours each provider is asked for (50 or 100: see `perProviderLimitFor`). */
  perProviderLimit: number;
  deadlineMs: number;
  cache?: Cache;
  cacheTtlSeconds?: number;
  signal?: AbortSignal;
  deferWork?: (work: () => void) => void;
  log?: ProviderFailureLog;
}

export interface RelatedAnswer {
  /** Merged, de-duplicated and ordered (see `orderRelated`). */
  records: SearchRecord[];
  providers: ProviderStatus[];
}

/**
 * The provider as federation asks it: its `search` answers the relation for this work. A provider that
 * knows none of the work's identifiers, or has no citation graph, is not asked (status `disabled`).
 */
function askingRelated(
  provider: SearchProvider,
  relation: WorkRelation,
  workId: string | null,
): SearchProvider {
  const related = provider.related;
  const askable = provider.isEnabled() && workId !== null && related !== undefined;
  return {
    ...provider,
    isEnabled: () => askable,
    search: (_query, options) => {
      if (!askable) return Promise.resolve({ records: [] });
      return related.call(provider, relation, workId, options);
    },
  };
}

/**
 * References and citations: most cited first (known counts before unknown), then newest. Similar works:
 * by the providers' own orders fused (reciprocal rank, k = 60), as search fuses them.
 */
function orderRelated(records: SearchRecord[], relation: WorkRelation): SearchRecord[] {
  if (relation === 'similar') {
    const fused = (record: SearchRecord) =>
      Object.values(record.ranks ?? {}).reduce((sum, rank) => sum + 1 / (60 + rank), 0);
    return [...records].sort((a, b) => fused(b) - fused(a));
  }
  return [...records].sort(
    (a, b) =>
      Number(b.citationsKnown) - Number(a.citationsKnown) ||
      b.citations - a.citations ||
      (b.year ?? 0) - (a.year ?? 0) ||
      a.title.localeCompare(b.title),
  );
}

export async function findRelated(request: RelatedRequest): Promise<RelatedAnswer> {
  const providers = GRAPH_PROVIDERS.map((id) =>
    askingRelated(request.providers[id], request.relation, providerWorkId(id, request.ids)),
  );
  const federated = await federatedSearch({
    providers,
    query: `${request.relation} ${graphKey(request.ids)}`,
    perProviderLimit: request.perProviderLimit,
    deadlineMs: request.deadlineMs,
    cache: request.cache,
    cacheTtlSeconds: request.cacheTtlSeconds,
    cacheScope: 'related',
    signal: request.signal,
    deferWork: request.deferWork,
    log: request.log,
  });
  return {
    records: orderRelated(mergeRecords(federated.records), request.relation),
    providers: federated.providers,
  };
}
