/** What the rest of the service uses from the search capability. */
export type {
  ProviderAnswerCache,
  ProviderId,
  SearchProvider,
  SearchRecord,
} from './types.js';
export { PROVIDER_IDS } from './types.js';
export { ProviderError } from './provider-error.js';
export {
  createProviders,
  describeProviders,
  parseProviderSelection,
} from './registry.js';
export type { ProviderDescription, ProviderSelection, ProviderSettings, SearchProviders } from './registry.js';
export { searchProviders, perProviderLimitFor } from './search.js';
export type { SearchReply, SearchRequest } from './search.js';
export { federatedSearch } from './federate.js';
export type { FederatedSearchOptions, FederatedSearchResult, ProviderStatus, ProviderStatusCode } from './federate.js';
export { mergeRecords } from './merge.js';
export { scoreRecords, sortRecords, paginate, SORT_ORDERS } from './rank.js';
export type { Page, SortOrder } from './rank.js';
export { parseIdentifier, resolveProviderId, PROVIDER_ID_ALIASES } from './identifiers.js';
export type { ParsedIdentifier } from './identifiers.js';
export { lookupResource, LookupUnavailableError } from './lookup.js';
