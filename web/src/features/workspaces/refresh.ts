/**
 * "Update from source" in words: what the item pane says of a lookup that failed, the provider's
 * name, and the PATCH body of the changes the user accepted. Pure functions: the component draws them.
 */
import { ApiError, describeError } from '../../api/errors';
import { isProviderId, PROVIDER_NAMES } from '../../lib/search-words';
import type { components } from '../../api/schema';
import type { ResourceChanges } from './record-fields';

type Resource = components['schemas']['Resource'];
export type RefreshChange = components['schemas']['ResourceRefresh']['changes'][number];

/** The identifiers a refresh looks up, most authoritative first (as the service does), in words. */
const IDENTIFIERS = [
  ['doi', 'DOI'],
  ['arxivId', 'arXiv ID'],
  ['pmid', 'PMID'],
] as const;

/** Whether the resource has something to look up (a DOI, an arXiv id or a PMID). */
export function canRefresh(resource: Resource): boolean {
  return IDENTIFIERS.some(([field]) => Boolean(resource[field]));
}

/** "Crossref" for `crossref`; an unknown provider as it is named. */
export function providerName(provider: string): string {
  return isProviderId(provider) ? PROVIDER_NAMES[provider] : provider;
}

/** What the pane says when the lookup failed: nothing found, the sources down, or the API's words (a 429's with when to try again). */
export function refreshErrorText(error: unknown, resource: Resource): string {
  if (!(error instanceof ApiError)) return describeError(error);
  if (error.status === 404 && error.details.reason === 'not_found') {
    const known = IDENTIFIERS.find(([field]) => field === error.field);
    if (known) {
      const [field, words] = known;
      return `Nothing to update from: no source knows the ${words} ${resource[field] ?? ''} now.`;
    }
  }
  if (error.status === 503)
    return `The sources did not answer, so nothing was looked up. Try again ${
      error.retryAfter ? `in ${error.retryAfter} seconds` : 'in a moment'
    }.`;
  return describeError(error);
}

/** The PATCH body that applies the accepted changes: each field set to what the source proposed. */
export function proposalChanges(accepted: RefreshChange[]): ResourceChanges {
  // Each `proposed` is, by the API's contract, what a PATCH of its field saves (the reply's schema says so).
  return Object.fromEntries(accepted.map((change) => [change.field, change.proposed]));
}
