/** The search capability assembled from the config and platform: providers, cache, lookup. */
import type { Config } from '../config.js';
import type { ResolvedResource, ResourceResolver } from '../context.js';
import type { Platform } from '../platform/index.js';
import type { ProviderFailureLog } from './federate.js';
import { lookupResource } from './lookup.js';
import { providerMetrics } from './metrics.js';
import { presentSearchResult } from './presenters.js';
import { createProviders, type SearchProviders } from './registry.js';
import type { SearchRecord } from './types.js';

export interface SearchService {
  providers: SearchProviders;
  resolveResource: ResourceResolver;
}

/**
 * The public record, as the workspaces capability receives it, with the bibliographic details a
 * resource made from it keeps (the search reply itself does not carry them).
 */
export function toResolvedResource(record: SearchRecord): ResolvedResource {
  const { publishedDate, ...fields } = presentSearchResult(record);
  return {
    ...fields,
    ...(publishedDate ? { publishedDate } : {}),
    ...(record.details ? { details: record.details } : {}),
  };
}

/** `log` receives the lookups' provider failures (the app's logger); searches log to their request's. */
export function createSearchService(
  config: Config,
  platform: Platform,
  log?: ProviderFailureLog,
): SearchService {
  const providers = createProviders({
    outbound: platform.outbound,
    urls: config.providers.urls,
    youtubeApiKey: config.providers.youtubeApiKey,
    semanticScholarApiKey: config.providers.semanticScholarApiKey,
    contactEmail: config.providers.contactEmail,
    timeoutMs: config.providers.timeoutMs,
    observer: providerMetrics(platform.metrics),
  });
  return {
    providers,
    resolveResource: async (identifier, signal) => {
      const record = await lookupResource(identifier, providers, { signal, log });
      return record ? toResolvedResource(record) : null;
    },
  };
}
