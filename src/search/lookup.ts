/**
 * Resolves one identifier to one normalised record by asking the providers that can know it, most
 * authoritative first (a DOI: Crossref, then OpenAlex, then Semantic Scholar; an arXiv id: arXiv, then
 * Semantic Scholar; a PMID: PubMed, then OpenAlex, then Semantic Scholar).
 */
import { describeError } from '../platform/error-causes.js';
import type { ProviderFailureLog } from './federate.js';
import { parseIdentifier } from './identifiers.js';
import type { ParsedIdentifier } from './identifiers.js';
import { arxivIdFromDoi, stripArxivVersion } from './text.js';
import { plainTextRecord } from './plain-text.js';
import type { ProviderId, SearchProvider, SearchRecord } from './types.js';

const DEFAULT_LOOKUP_TIMEOUT_MS = 10_000;

/** Every provider that could answer failed (rather than saying it does not know the id). */
export class LookupUnavailableError extends Error {
  constructor(readonly causes: unknown[]) {
    super('No provider could be reached to resolve the identifier');
    this.name = 'LookupUnavailableError';
  }
}

export interface LookupOptions {
  signal?: AbortSignal;
  /** Budget for the whole lookup, across the providers tried. */
  timeoutMs?: number;
  /** Each provider's failure is logged here at `warn`, with its cause. */
  log?: ProviderFailureLog;
}

type ProviderSet = Partial<Record<ProviderId, SearchProvider>> | SearchProvider[];

/** Which provider to ask with which native id, in order. */
export function lookupPlan(identifier: ParsedIdentifier): Array<[ProviderId, string]> {
  switch (identifier.kind) {
    case 'result': {
      const { provider, nativeId } = identifier;
      if (provider === 'crossref')
        return [
          ['crossref', nativeId],
          ['openalex', `doi:${nativeId}`],
        ];
      if (provider === 'arxiv')
        return [
          ['arxiv', nativeId],
          ['semanticscholar', `ARXIV:${stripArxivVersion(nativeId)}`],
        ];
      if (provider === 'pubmed')
        return [
          ['pubmed', nativeId],
          ['openalex', `pmid:${nativeId}`],
        ];
      return [[provider, nativeId]];
    }
    case 'doi': {
      const { doi } = identifier;
      const fromArxiv = arxivIdFromDoi(doi);
      const zenodoRecord = /^10\.5281\/zenodo\.(\d+)$/i.exec(doi)?.[1];
      const generic: Array<[ProviderId, string]> = [
        ['crossref', doi],
        ['openalex', `doi:${doi}`],
        ['semanticscholar', `DOI:${doi}`],
      ];
      if (fromArxiv) return [['arxiv', fromArxiv], ...generic];
      if (zenodoRecord) return [['zenodo', zenodoRecord], ...generic];
      return generic;
    }
    case 'arxiv':
      return [
        ['arxiv', identifier.arxivId],
        ['semanticscholar', `ARXIV:${stripArxivVersion(identifier.arxivId)}`],
      ];
    case 'pmid':
      return [
        ['pubmed', identifier.pmid],
        ['openalex', `pmid:${identifier.pmid}`],
        ['semanticscholar', `PMID:${identifier.pmid}`],
      ];
    case 'openalex':
      return [['openalex', identifier.openalexId]];
  }
}

/**
 * One record for an identifier, or null when it cannot be read or no provider knows it. Throws
 * LookupUnavailableError when nothing was found and at least one provider failed, so that callers can
 * tell "not found" (404) from "could not ask" (503).
 */
export async function lookupResource(
  identifier: string,
  providers: ProviderSet,
  options: LookupOptions = {},
): Promise<SearchRecord | null> {
  const parsed = parseIdentifier(identifier);
  if (!parsed) return null;
  const byId = Array.isArray(providers)
    ? Object.fromEntries(providers.map((provider) => [provider.id, provider]))
    : providers;
  const deadlineAt = Date.now() + (options.timeoutMs ?? DEFAULT_LOOKUP_TIMEOUT_MS);
  const failures: unknown[] = [];
  for (const [providerId, nativeId] of lookupPlan(parsed)) {
    const provider = byId[providerId];
    if (!provider || !provider.isEnabled()) continue;
    if (Date.now() >= deadlineAt || options.signal?.aborted) break;
    try {
      const record = await provider.lookup(nativeId, { signal: options.signal, deadlineAt });
      if (record) return plainTextRecord(record);
    } catch (error) {
      failures.push(error);
      if (!options.signal?.aborted) {
        options.log?.warn(
          { provider: providerId, identifier, cause: describeError(error) },
          'identifier lookup failed at a provider',
        );
      }
    }
  }
  if (failures.length > 0) throw new LookupUnavailableError(failures);
  return null;
}
