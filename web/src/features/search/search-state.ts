/**
 * The search page's state lives in the URL (`?q=…&sort=…&providers=a,b&page=2&yearFrom=2019&type=dataset`), so back/forward,
 * reload and a pasted link show the same results. These functions read and write that state; anything
 * malformed in a pasted link falls back to the defaults rather than failing.
 */
import type { components } from '../../api/schema';
import type { SearchResult } from '../../api/types';
import {
  isProviderId,
  WORK_TYPE_LABELS,
  type ProviderId,
  type SearchFilters,
  type WorkType,
} from '../../lib/search-words';

export type { SearchResult };
// The words of sources and filters live in lib/ (the alerts speak them too); the search page reads them from here.
export {
  describeFilters,
  PROVIDER_NAMES,
  WORK_TYPE_LABELS,
  type ProviderId,
  type SearchFilters,
  type WorkType,
} from '../../lib/search-words';
export type ProviderStatus = components['schemas']['ProviderStatus'];

export const SORTS = ['relevance', 'date', 'citations'] as const;
export type Sort = (typeof SORTS)[number];
export const PAGE_SIZE = 10;
/** The API's bound on q. */
export const MAX_QUERY_LENGTH = 500;
const MAX_PAGE = 100;

export const WORK_TYPES = Object.keys(WORK_TYPE_LABELS) as WorkType[];
/** The API's bounds on the filters. */
export const MAX_VENUE_LENGTH = 200;
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

export const NO_FILTERS: SearchFilters = {
  yearFrom: null,
  yearTo: null,
  hasPdf: false,
  type: null,
  venue: '',
};

export interface SearchState {
  q: string;
  sort: Sort;
  /** null: every enabled provider (no `providers` in the URL). */
  providers: ProviderId[] | null;
  /** 1-based. */
  page: number;
  filters: SearchFilters;
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
  return (
    filters.yearFrom !== null ||
    filters.yearTo !== null ||
    filters.hasPdf ||
    filters.type !== null ||
    filters.venue !== ''
  );
}

/** The filters as GET /api/search takes them, only those set. */
export function apiFilters(filters: SearchFilters) {
  return {
    ...(filters.yearFrom !== null ? { yearFrom: filters.yearFrom } : {}),
    ...(filters.yearTo !== null ? { yearTo: filters.yearTo } : {}),
    ...(filters.hasPdf ? { hasPdf: true } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.venue ? { venue: filters.venue } : {}),
  };
}

export function readSearchState(params: URLSearchParams): SearchState {
  const q = (params.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH);
  const sortParam = params.get('sort');
  const sort: Sort = (SORTS as readonly string[]).includes(sortParam ?? '')
    ? (sortParam as Sort)
    : 'relevance';
  const providersParam = params.get('providers');
  const providers =
    providersParam === null ? null : [...new Set(providersParam.split(',').filter(isProviderId))];
  const pageNumber = Number(params.get('page') ?? '1');
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 ? Math.min(pageNumber, MAX_PAGE) : 1;
  return {
    q,
    sort,
    providers: providers && providers.length > 0 ? providers : null,
    page,
    filters: readFilters(params),
  };
}

/** The URL parameters of a state; defaults are left out so that links stay short. */
export function searchParamsOf(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.sort !== 'relevance') params.set('sort', state.sort);
  if (state.providers) params.set('providers', state.providers.join(','));
  if (state.page > 1) params.set('page', String(state.page));
  for (const [name, value] of Object.entries(apiFilters(state.filters)))
    params.set(name, String(value));
  return params;
}

/** What a chip shows: a provider's status in the reply, or `pending` while a streamed search waits for it. */
export type ProviderState =
  | { kind: 'pending' }
  | { kind: ProviderStatus['status']; count?: number; reason?: ProviderStatus['reason'] };

/** The state of a provider's status in a reply. */
export function providerStateOf(status: ProviderStatus): ProviderState {
  return { kind: status.status, count: status.count, reason: status.reason };
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
  error: 'failed',
  rate_limited: 'is refusing requests for now (rate limited)',
  disabled: 'is not set up on this server',
};

/** An `error` told apart: a source never reached did not answer with anything. */
const ERROR_REASONS: Record<
  NonNullable<ProviderStatus['reason']>,
  { chip: string; why: string }
> = {
  unreachable: { chip: 'unreachable', why: 'could not be reached' },
  error_response: { chip: 'failed', why: 'answered with an error' },
  bad_response: { chip: 'failed', why: 'answered with something that could not be read' },
};

const errorReasonOf = (state: ProviderState) =>
  state.kind === 'error' && 'reason' in state && state.reason
    ? ERROR_REASONS[state.reason]
    : undefined;

/** What a provider chip says: "3 results", "searching…", "timed out", … */
export function describeProviderState(state: ProviderState): string {
  if (state.kind === 'ok') return `${state.count ?? 0} result${state.count === 1 ? '' : 's'}`;
  return errorReasonOf(state)?.chip ?? STATUS_TEXT[state.kind];
}

/** The same as a sentence, for screen readers and the "no source answered" notice. */
export function explainProviderState(name: string, state: ProviderState): string {
  if (state.kind === 'ok') return `${name} answered with ${describeProviderState(state)}.`;
  if (state.kind === 'pending') return `${name} has not answered yet.`;
  return `${name} ${errorReasonOf(state)?.why ?? FAILURE_REASONS[state.kind]}.`;
}
