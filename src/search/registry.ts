/**
 * Builds the seven providers from settings (the config module supplies them) and describes them for
 * `GET /api/search/providers`.
 */
import type { Outbound } from '../platform/outbound.js';
import { resolveProviderId } from './identifiers.js';
import type { ProviderLimiter } from './provider-limiter.js';
import { createArxivProvider } from './providers/arxiv.js';
import { createCrossrefProvider } from './providers/crossref.js';
import { createOpenalexProvider } from './providers/openalex.js';
import { createPubmedProvider } from './providers/pubmed.js';
import { createSemanticScholarProvider } from './providers/semanticscholar.js';
import { createYoutubeProvider } from './providers/youtube.js';
import { createZenodoProvider } from './providers/zenodo.js';
import { PROVIDER_IDS } from './types.js';
import type {
  ProviderFactoryOptions,
  ProviderId,
  ProviderObserver,
  SearchProvider,
} from './types.js';

export interface ProviderSettings {
  outbound: Outbound;
  urls: Record<ProviderId, string>;
  youtubeApiKey?: string;
  semanticScholarApiKey?: string;
  contactEmail?: string;
  /** Per-request deadline when a caller gives none. */
  timeoutMs: number;
  /** Replaces a provider's limiter (tests use fast ones; a shared Redis limiter could go here). */
  limiters?: Partial<Record<ProviderId, ProviderLimiter>>;
  /** Told of every provider call and rate-limit hit (the metrics). */
  observer?: ProviderObserver;
}

export type SearchProviders = Readonly<Record<ProviderId, SearchProvider>>;

const FACTORIES: Record<ProviderId, (options: ProviderFactoryOptions) => SearchProvider> = {
  arxiv: createArxivProvider,
  pubmed: createPubmedProvider,
  crossref: createCrossrefProvider,
  openalex: createOpenalexProvider,
  semanticscholar: createSemanticScholarProvider,
  zenodo: createZenodoProvider,
  youtube: createYoutubeProvider,
};

export function createProviders(settings: ProviderSettings): SearchProviders {
  const apiKeys: Partial<Record<ProviderId, string | undefined>> = {
    youtube: settings.youtubeApiKey,
    semanticscholar: settings.semanticScholarApiKey,
  };
  const entries = PROVIDER_IDS.map((id) => {
    const apiKey = apiKeys[id];
    const limiter = settings.limiters?.[id];
    const provider = FACTORIES[id]({
      baseUrl: settings.urls[id],
      outbound: settings.outbound,
      timeoutMs: settings.timeoutMs,
      ...(apiKey ? { apiKey } : {}),
      ...(settings.contactEmail ? { contactEmail: settings.contactEmail } : {}),
      ...(limiter ? { limiter } : {}),
      ...(settings.observer ? { observer: settings.observer } : {}),
    });
    return [id, provider] as const;
  });
  return Object.freeze(Object.fromEntries(entries) as Record<ProviderId, SearchProvider>);
}

export interface ProviderDescription {
  id: ProviderId;
  name: string;
  description: string;
  enabled: boolean;
  /** Requests per minute this service allows itself against the provider's API (its published rate). */
  rateLimit: number;
}

export function describeProviders(providers: SearchProviders): ProviderDescription[] {
  return PROVIDER_IDS.map((id) => {
    const provider = providers[id];
    return {
      id,
      name: provider.name,
      description: provider.description,
      enabled: provider.isEnabled(),
      rateLimit: Math.round(provider.requestsPerSecond * 60),
    };
  });
}

export type ProviderSelection = { ok: true; ids: ProviderId[] } | { ok: false; unknown: string[] };

/**
 * Reads the `providers=` parameter: comma-separated ids (aliases such as `semantic` accepted,
 * duplicates dropped). Absent or empty means every provider. Unknown names are reported, not ignored.
 */
export function parseProviderSelection(value: string | undefined): ProviderSelection {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return { ok: true, ids: [...PROVIDER_IDS] };
  const ids: ProviderId[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const id = resolveProviderId(name);
    if (!id) unknown.push(name);
    else if (!ids.includes(id)) ids.push(id);
  }
  return unknown.length > 0 ? { ok: false, unknown } : { ok: true, ids };
}
