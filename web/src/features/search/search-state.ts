/**
 * The search page's state lives in the URL (`?q=…&sort=…&providers=a,b&page=2&yearFrom=2019&type=dataset`), so back/forward,
 * reload and a pasted link show the same results. These functions read and write that state; anything
 * malformed in a pasted link falls back to the defaults rather than failing.
 */
import type { components, operations } from '../../api/schema';
import type { SearchResult } from '../../api/types';

export type { SearchResult };
export type ProviderId = SearchResult['provider'];
export type ProviderStatus = components['schemas']['ProviderStatus'];

export const SORTS = ['relevance', 'date', 'citations'] as const;
export type Sort = (typeof SORTS)[number];
export const PAGE_SIZE = 10;
/** The API's bound on q. */
export const MAX_QUERY_LENGTH = 500;
const MAX_PAGE = 100;

export const PROVIDER_NAMES: Record<ProviderId, string> = {
  arxiv: 'arXiv',
  pubmed: 'PubMed',
  crossref: 'Crossref',
  openalex: 'OpenAlex',
  semanticscholar: 'Semantic Scholar',
  zenodo: 'Zenodo',
  youtube: 'YouTube',
};
const PROVIDER_IDS = Object.keys(PROVIDER_NAMES) as ProviderId[];

/** The kinds of work GET /api/search filters by (its `type` parameter), with the words the page shows. */
export type WorkType = NonNullable<NonNullable<operations['search']['parameters']['query']>['type']>;
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
export const WORK_TYPES = Object.keys(WORK_TYPE_LABELS) as WorkType[];
/** The API's bounds on the filters. */
export const MAX_VENUE_LENGTH = 200;
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

/** The search filters (none set: every result). */
export interface SearchFilters {
  yearFrom: number | null;
  yearTo: number | null;
  /** Only results with a freely readable PDF. */
  hasPdf: boolean;
  type: WorkType | null;
  venue: string;
}
export const NO_FILTERS: SearchFilters = { yearFrom: null, yearTo: null, hasPdf: false, type: null, venue: '' };

export interface SearchState {
  q: string;
  sort: Sort;
  /** null: every enabled provider (no `providers` in the URL). */
  providers: ProviderId[] | null;
  /** 1-based. */
  page: number;
  filters: SearchFilters;
}

function isProviderId(value: string): value is ProviderId {
  return (PROVIDER_IDS as string[]).includes(value);
}

function isWorkType(value: string | null): value is WorkType {
  return (WORK_TYPES as Array<string | null>).includes(value);
}

function readYear(value: string | null): number | null {
  if (value === null || !/^\d{4}$/.test(value)) return null;
  const year = Number(value);
  return year >= MIN_YEAR && year <= MAX_YEAR ? year : null;
}

function readFilters(params: URLSearchParams): SearchFilters {
  const yearFrom = readYear(params.get('yearFrom'));
  const yearTo = readYear(params.get('yearTo'));
  const type = params.get('type');
  return {
    yearFrom,
    // A range the wrong way round keeps its start only (the API would refuse it).
    yearTo: yearFrom !== null && yearTo !== null && yearTo < yearFrom ? null : yearTo,
    hasPdf: params.get('hasPdf') === 'true',
    type: isWorkType(type) ? type : null,
    venue: (params.get('venue') ?? '').trim().slice(0, MAX_VENUE_LENGTH),
  };
}

export function hasActiveFilters(filters: SearchFilters): boolean {
  return filters.yearFrom !== null || filters.yearTo !== null || filters.hasPdf || filters.type !== null || filters.venue !== '';
}

/** The filters as GET /api/search takes them, only those set. */
export function apiFilters(filters: SearchFilters) {
  return {
    ...(filters.yearFrom !== null ? { yearFrom: filters.yearFrom } : {}),
    ...(filters.yearTo !== null ? { yearTo: filters.yearTo } : {}),
    ...(filters.hasPdf ? { hasPdf: 'true' as const } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.venue ? { venue: filters.venue } : {}),
  };
}

/** The active filters as short phrases ("2019–2021", "With a PDF", "Dataset", "Venue: Nature"), for the page and screen readers. */
export function describeFilters(filters: SearchFilters): string[] {
  const phrases: string[] = [];
  if (filters.yearFrom !== null && filters.yearTo !== null) phrases.push(filters.yearFrom === filters.yearTo ? `Published in ${filters.yearFrom}` : `Published ${filters.yearFrom}–${filters.yearTo}`);
  else if (filters.yearFrom !== null) phrases.push(`Published in or after ${filters.yearFrom}`);
  else if (filters.yearTo !== null) phrases.push(`Published in or before ${filters.yearTo}`);
  if (filters.hasPdf) phrases.push('With a free PDF');
  if (filters.type) phrases.push(WORK_TYPE_LABELS[filters.type]);
  if (filters.venue) phrases.push(`Venue: ${filters.venue}`);
  return phrases;
}

export function readSearchState(params: URLSearchParams): SearchState {
  const q = (params.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH);
  const sortParam = params.get('sort');
  const sort: Sort = (SORTS as readonly string[]).includes(sortParam ?? '') ? (sortParam as Sort) : 'relevance';
  const providersParam = params.get('providers');
  const providers = providersParam === null ? null : [...new Set(providersParam.split(',').filter(isProviderId))];
  const pageNumber = Number(params.get('page') ?? '1');
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 ? Math.min(pageNumber, MAX_PAGE) : 1;
  return { q, sort, providers: providers && providers.length > 0 ? providers : null, page, filters: readFilters(params) };
}

/** The URL parameters of a state; defaults are left out so that links stay short. */
export function searchParamsOf(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.sort !== 'relevance') params.set('sort', state.sort);
  if (state.providers) params.set('providers', state.providers.join(','));
  if (state.page > 1) params.set('page', String(state.page));
  for (const [name, value] of Object.entries(apiFilters(state.filters))) params.set(name, String(value));
  return params;
}

/** What a chip shows: a provider's status in the reply, or `pending` while a streamed search waits for it. */
export type ProviderState = { kind: 'pending' } | { kind: ProviderStatus['status']; count?: number };

/** The state of a provider's status in a reply. */
export function providerStateOf(status: ProviderStatus): ProviderState {
  return { kind: status.status, count: status.count };
}

const STATUS_TEXT: Record<Exclude<ProviderState['kind'], 'ok'>, string> = {
  pending: 'searching…',
  timeout: 'timed out',
  error: 'failed',
  rate_limited: 'rate limited',
  disabled: 'disabled',
};

/** Why a source gave nothing, in words a reader can act on (after its name). */
const FAILURE_REASONS: Record<Exclude<ProviderState['kind'], 'ok' | 'pending'>, string> = {
  timeout: 'did not answer in time',
  error: 'answered with an error',
  rate_limited: 'is refusing requests for now (rate limited)',
  disabled: 'is not set up on this server',
};

/** What a provider chip says: "3 results", "searching…", "timed out", … */
export function describeProviderState(state: ProviderState): string {
  if (state.kind === 'ok') return `${state.count ?? 0} result${state.count === 1 ? '' : 's'}`;
  return STATUS_TEXT[state.kind];
}

/** The same as a sentence, for screen readers and the "no source answered" notice. */
export function explainProviderState(name: string, state: ProviderState): string {
  if (state.kind === 'ok') return `${name} answered with ${describeProviderState(state)}.`;
  if (state.kind === 'pending') return `${name} has not answered yet.`;
  return `${name} ${FAILURE_REASONS[state.kind]}.`;
}
