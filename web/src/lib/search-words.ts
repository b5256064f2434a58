/**
 * The words for a search's sources and filters, shared by the search page (features/search) and the
 * alerts that follow a search (features/alerts): "arXiv", "Book chapter", "Published 2019–2021".
 */
import type { operations } from '../api/schema';
import type { SearchResult } from '../api/types';

export type ProviderId = SearchResult['provider'];

export const PROVIDER_NAMES: Record<ProviderId, string> = {
  arxiv: 'arXiv',
  pubmed: 'PubMed',
  crossref: 'Crossref',
  openalex: 'OpenAlex',
  semanticscholar: 'Semantic Scholar',
  zenodo: 'Zenodo',
  youtube: 'YouTube',
};

export function isProviderId(value: string): value is ProviderId {
  return Object.hasOwn(PROVIDER_NAMES, value);
}

/** The kinds of work GET /api/search filters by (its `type` parameter), with the words the page shows. */
export type WorkType = NonNullable<
  NonNullable<operations['search']['parameters']['query']>['type']
>;
export const WORK_TYPE_LABELS: Record<WorkType, string> = {
  article: 'Article',
  preprint: 'Preprint',
  book: 'Book',
  chapter: 'Book chapter',
  conference: 'Conference paper',
  dataset: 'Dataset',
  software: 'Software',
  thesis: 'Thesis',
  video: 'Video',
  other: 'Other',
};

/** The search filters (none set: every result). */
export interface SearchFilters {
  yearFrom: number | null;
  yearTo: number | null;
  /** Only results with a freely readable PDF. */
  hasPdf: boolean;
  type: WorkType | null;
  venue: string;
}

/** A year range as a phrase ("Published 2019–2021", "Published in or after 2019"), or null for none. */
export function describeYears(
  from: number | string | null,
  to: number | string | null,
): string | null {
  const first = from === '' ? null : from;
  const last = to === '' ? null : to;
  if (first !== null && last !== null)
    return String(first) === String(last) ? `Published in ${first}` : `Published ${first}–${last}`;
  if (first !== null) return `Published in or after ${first}`;
  if (last !== null) return `Published in or before ${last}`;
  return null;
}

/** The active filters as short phrases ("2019–2021", "With a PDF", "Dataset", "Venue: Nature"), for the page and screen readers. */
export function describeFilters(filters: SearchFilters): string[] {
  const phrases: string[] = [];
  const years = describeYears(filters.yearFrom, filters.yearTo);
  if (years) phrases.push(years);
  if (filters.hasPdf) phrases.push('With a free PDF');
  if (filters.type) phrases.push(WORK_TYPE_LABELS[filters.type]);
  if (filters.venue) phrases.push(`Venue: ${filters.venue}`);
  return phrases;
}
