/**
 * The identifiers a work is followed through the citation graph by, and the id each graph provider is
 * asked with: OpenAlex by its W-id, else `doi:…`, `pmid:…`, or an arXiv id's DataCite DOI; Semantic
 * Scholar by its paper id, else `DOI:…`, `ARXIV:…`, `PMID:…`. A work neither knows (a YouTube video, a
 * page found by URL alone) has no graph ids.
 */
import { parseIdentifier, stripArxivVersion, type ParsedIdentifier } from '../search/index.js';
import type { SavedWorkIds } from '../workspaces/index.js';

export type GraphProviderId = 'openalex' | 'semanticscholar';
export const GRAPH_PROVIDERS: readonly GraphProviderId[] = ['openalex', 'semanticscholar'];

export interface GraphIds {
  doi?: string;
  arxivId?: string;
  pmid?: string;
  openalexId?: string;
  semanticScholarId?: string;
}

const ARXIV_DOI = /^10\.48550\/arxiv\.(.+)$/i;
const ZENODO_RECORD = /^\d+$/;

function withoutEmpty(ids: GraphIds): GraphIds {
  return Object.fromEntries(
    Object.entries(ids).filter(([, value]) => typeof value === 'string' && value !== ''),
  );
}

function fromDoi(doi: string): GraphIds {
  const lower = doi.toLowerCase();
  const arxiv = ARXIV_DOI.exec(lower)?.[1];
  return arxiv ? { doi: lower, arxivId: arxiv } : { doi: lower };
}

export function graphIdsOfIdentifier(parsed: ParsedIdentifier): GraphIds {
  switch (parsed.kind) {
    case 'doi':
      return fromDoi(parsed.doi);
    case 'arxiv':
      return { arxivId: stripArxivVersion(parsed.arxivId).toLowerCase() };
    case 'pmid':
      return { pmid: parsed.pmid };
    case 'openalex':
      return { openalexId: parsed.openalexId };
    case 'result':
      switch (parsed.provider) {
        case 'crossref':
          return fromDoi(parsed.nativeId);
        case 'arxiv':
          return { arxivId: stripArxivVersion(parsed.nativeId).toLowerCase() };
        case 'pubmed':
          return { pmid: parsed.nativeId };
        case 'openalex':
          return { openalexId: parsed.nativeId };
        case 'semanticscholar':
          return { semanticScholarId: parsed.nativeId };
        case 'zenodo':
          return ZENODO_RECORD.test(parsed.nativeId)
            ? { doi: `10.5281/zenodo.${parsed.nativeId}` }
            : {};
        case 'youtube':
          return {};
      }
  }
}

/** A saved resource's graph ids: what it was saved with, plus what the search id it was added by says. */
export function graphIdsOfSaved(saved: SavedWorkIds): GraphIds {
  const parsed = saved.sourceId ? parseIdentifier(saved.sourceId) : null;
  const fromSource = parsed ? graphIdsOfIdentifier(parsed) : {};
  const arxivId = saved.arxivId ? stripArxivVersion(saved.arxivId).toLowerCase() : undefined;
  return withoutEmpty({
    ...fromSource,
    ...(saved.doi ? fromDoi(saved.doi) : {}),
    ...(arxivId ? { arxivId } : {}),
    ...(saved.pmid ? { pmid: saved.pmid } : {}),
  });
}

export function hasGraphIds(ids: GraphIds): boolean {
  return Object.keys(withoutEmpty(ids)).length > 0;
}

/** The id `provider` is asked with, or null when it knows none of the work's identifiers. */
export function providerWorkId(provider: GraphProviderId, ids: GraphIds): string | null {
  if (provider === 'openalex') {
    if (ids.openalexId) return ids.openalexId;
    if (ids.doi) return `doi:${ids.doi}`;
    if (ids.pmid) return `pmid:${ids.pmid}`;
    if (ids.arxivId) return `doi:10.48550/arxiv.${ids.arxivId}`;
    return null;
  }
  if (ids.semanticScholarId) return ids.semanticScholarId;
  if (ids.doi) return `DOI:${ids.doi}`;
  if (ids.arxivId) return `ARXIV:${ids.arxivId}`;
  if (ids.pmid) return `PMID:${ids.pmid}`;
  return null;
}

/** One string per work and provider ids, the same whatever order the ids were found in (cache keys). */
export function graphKey(ids: GraphIds): string {
  return GRAPH_PROVIDERS.map(
    (provider) => `${provider}=${providerWorkId(provider, ids) ?? ''}`,
  ).join(' ');
}
