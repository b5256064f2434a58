/**
 * What the rest of the service uses from the search capability beyond the service and routes app.ts
 * wires: asking providers at once (federation, its answer cache and statuses), folding duplicates,
 * reading identifiers, and the public shape of a result (discover's related works use them).
 */
export { federatedSearch, type ProviderFailureLog, type ProviderStatus } from './federate.js';
export { parseIdentifier, type ParsedIdentifier } from './identifiers.js';
export { duplicateGroups, mergeRecords } from './merge.js';
export { presentProviderStatus, presentSearchResult } from './presenters.js';
export { ProviderStatusSchema, SearchResultSchema } from './schemas.js';
export { perProviderLimitFor, searchProviders } from './search.js';
export { RESULT_TYPES } from './filters.js';
export { stripArxivVersion } from './text.js';
export type { LibraryPlaces } from './routes.js';
export {
  DETAIL_TEXT_FIELDS,
  PROVIDER_IDS,
  type BibliographicDetails,
  type ProviderId,
  type SearchProvider,
  type SearchRecord,
  type WorkRelation,
} from './types.js';
export type { SearchProviders } from './registry.js';
