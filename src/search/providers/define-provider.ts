/**
 * `defineProvider`: what a provider module states about its API (id, names, published rate, the
 * headers it needs, how to search and look up), turned into the factory the registry calls with
 * settings. Everything every provider does alike (the limiter, the upstream client, the base address,
 * the description for `GET /api/search/providers`) happens here, once.
 */
import { isProviderError } from '../provider-error.js';
import { createProviderLimiter } from '../provider-limiter.js';
import type {
  ProviderCallOutcome,
  ProviderFactoryOptions,
  ProviderId,
  ProviderLookupOptions,
  ProviderObserver,
  ProviderOperation,
  ProviderRelatedOptions,
  ProviderSearchAnswer,
  ProviderSearchOptions,
  SearchProvider,
  SearchRecord,
  WorkRelation,
} from '../types.js';
import { createUpstreamClient, joinUrl } from './upstream.js';
import type { UpstreamClient } from './upstream.js';

/** What the upstream API publishes: requests per second, and how many may be in flight at once. */
export interface ProviderRate {
  requestsPerSecond: number;
  maxConcurrency: number;
}

/** What a provider's `search` and `lookup` work with. */
export interface ProviderApi {
  upstream: UpstreamClient;
  /** The API's address for `path` below the configured base address, with the query's set values. */
  url(path: string, query?: Record<string, string | number | undefined>): string;
  apiKey?: string;
  contactEmail?: string;
}

export interface ProviderDefinition {
  id: ProviderId;
  name: string;
  description: string;
  /** The published rate, or a function of the settings where it depends on them (Crossref's polite pool). */
  rate: ProviderRate | ((settings: ProviderFactoryOptions) => ProviderRate);
  /** The `accept` header of every request; none when absent. */
  accept?: string;
  /** Further headers of every request, from the settings (an API key). */
  headers?: (settings: ProviderFactoryOptions) => Record<string, string>;
  /** Requests one search makes one after the other; see `SearchProvider.requestsPerSearch`. */
  requestsPerSearch?: number;
  /** Whether the provider can be asked with these settings; always, when absent. */
  isEnabled?: (settings: ProviderFactoryOptions) => boolean;
  search(
    api: ProviderApi,
    query: string,
    options: ProviderSearchOptions,
  ): Promise<ProviderSearchAnswer>;
  lookup(
    api: ProviderApi,
    nativeId: string,
    options: ProviderLookupOptions,
  ): Promise<SearchRecord | null>;
  /** A work's neighbours in the citation graph, for the providers that have one (OpenAlex, Semantic Scholar). */
  related?(
    api: ProviderApi,
    relation: WorkRelation,
    nativeId: string,
    options: ProviderRelatedOptions,
  ): Promise<ProviderSearchAnswer>;
}

export type ProviderFactory = (settings: ProviderFactoryOptions) => SearchProvider;

export function defineProvider(definition: ProviderDefinition): ProviderFactory {
  return (settings) => {
    const rate =
      typeof definition.rate === 'function' ? definition.rate(settings) : definition.rate;
    const limiter = settings.limiter ?? createProviderLimiter(rate);
    const upstream = createUpstreamClient({
      provider: definition.id,
      outbound: settings.outbound,
      limiter,
      timeoutMs: settings.timeoutMs,
      contactEmail: settings.contactEmail,
      ...(settings.observer ? { observer: settings.observer } : {}),
      headers: {
        ...(definition.accept ? { accept: definition.accept } : {}),
        ...definition.headers?.(settings),
      },
    });
    const api: ProviderApi = {
      upstream,
      url: (path, query) => joinUrl(settings.baseUrl, path, query),
      ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      ...(settings.contactEmail ? { contactEmail: settings.contactEmail } : {}),
    };
    const enabled = definition.isEnabled?.(settings) ?? true;
    const related = definition.related;
    return {
      id: definition.id,
      name: definition.name,
      description: definition.description,
      requestsPerSecond: rate.requestsPerSecond,
      maxConcurrency: limiter.maxConcurrency,
      ...(definition.requestsPerSearch ? { requestsPerSearch: definition.requestsPerSearch } : {}),
      isEnabled: () => enabled,
      search: observed(
        settings.observer,
        definition.id,
        'search',
        (query: string, options: ProviderSearchOptions) => definition.search(api, query, options),
      ),
      lookup: observed(
        settings.observer,
        definition.id,
        'lookup',
        (nativeId: string, options: ProviderLookupOptions = {}) =>
          definition.lookup(api, nativeId, options),
      ),
      ...(related
        ? {
            related: observed(
              settings.observer,
              definition.id,
              'related',
              (relation: WorkRelation, nativeId: string, options: ProviderRelatedOptions) =>
                related(api, relation, nativeId, options),
            ),
          }
        : {}),
    };
  };
}

/** The call, with its outcome and duration told to the observer when it settles; the call itself when there is none. */
function observed<A extends unknown[], R>(
  observer: ProviderObserver | undefined,
  provider: ProviderId,
  operation: ProviderOperation,
  call: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  if (!observer) return call;
  return async (...args) => {
    const startedAt = performance.now();
    let outcome: ProviderCallOutcome = 'ok';
    try {
      return await call(...args);
    } catch (error) {
      outcome = isProviderError(error) ? error.kind : 'error';
      throw error;
    } finally {
      observer.call(provider, operation, outcome, (performance.now() - startedAt) / 1000);
    }
  };
}
