/** The search capability assembled from the config and platform: providers, cache, lookup. */
import type { Config } from '../config.js';
import type { ResolvedResource, ResourceResolver } from '../context.js';
import type { Platform } from '../platform/index.js';
import { lookupResource } from './lookup.js';
import { createProviders, type SearchProviders } from './registry.js';
import type { SearchRecord } from './types.js';

export interface SearchService {
  providers: SearchProviders;
  resolveResource: ResourceResolver;
}

export function toResolvedResource(record: SearchRecord): ResolvedResource {
  return {
    id: record.id,
    title: record.title,
    authors: record.authors,
    abstract: record.abstract,
    url: record.url,
    provider: record.provider,
    ...(record.publishedDate ? { publishedDate: record.publishedDate } : {}),
    ...(record.doi ? { doi: record.doi } : {}),
    ...(record.arxivId ? { arxivId: record.arxivId } : {}),
    ...(record.pmid ? { pmid: record.pmid } : {}),
    ...(record.pdfUrl ? { pdfUrl: record.pdfUrl } : {}),
  };
}

export function createSearchService(config: Config, platform: Platform): SearchService {
  const providers = createProviders({
    outbound: platform.outbound,
    urls: config.providers.urls,
    youtubeApiKey: config.providers.youtubeApiKey,
    semanticScholarApiKey: config.providers.semanticScholarApiKey,
    contactEmail: config.providers.contactEmail,
    timeoutMs: config.providers.timeoutMs,
  });
  return {
    providers,
    resolveResource: async (identifier, signal) => {
      const record = await lookupResource(identifier, providers, { signal });
      return record ? toResolvedResource(record) : null;
    },
  };
}
