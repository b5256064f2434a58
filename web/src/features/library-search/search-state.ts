/**
 * The library search's state in the address (`/library?q=…&workspace=…&tag=…&type=…&yearFrom=…&yearTo=…
 * &sort=…&page=…`), so that a reload, Back and a pasted link show the same hits. Values the API would
 * refuse are dropped when read, so a hand-edited address still searches.
 */
import type { paths } from '../../api/schema';

export type LibrarySearchQuery = NonNullable<
  paths['/api/library/search']['get']['parameters']['query']
>;
export const SORTS = ['relevance', 'date', 'added'] as const;
export type Sort = (typeof SORTS)[number];
export const PAGE_SIZE = 20;
/** The API's bounds: q, tag and type, the years, and how far offset may go. */
export const LIMITS = {
  q: 500,
  tag: 50,
  type: 50,
  yearMin: 1000,
  yearMax: 9999,
  offset: 10_000,
} as const;
const MAX_PAGE = Math.floor(LIMITS.offset / PAGE_SIZE) + 1;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface LibrarySearchState {
  q: string;
  /** A workspace's id, or '' for every workspace. */
  workspace: string;
  tag: string;
  type: string;
  yearFrom: string;
  yearTo: string;
  sort: Sort;
  /** 1-based. */
  page: number;
}

/** The filters a form edits (everything but the sort and the page). */
export type LibrarySearchFilters = Omit<LibrarySearchState, 'sort' | 'page'>;

const isSort = (value: string | null): value is Sort =>
  (SORTS as readonly string[]).includes(value ?? '');
const text = (value: string | null, max: number) => (value ?? '').trim().slice(0, max);
export const isYear = (value: string) =>
  /^\d{4}$/.test(value) && Number(value) >= LIMITS.yearMin && Number(value) <= LIMITS.yearMax;

export function readLibrarySearchState(params: URLSearchParams): LibrarySearchState {
  const workspace = params.get('workspace') ?? '';
  const yearFrom = params.get('yearFrom') ?? '';
  const yearTo = params.get('yearTo') ?? '';
  const from = isYear(yearFrom) ? yearFrom : '';
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    q: text(params.get('q'), LIMITS.q),
    workspace: UUID.test(workspace) ? workspace : '',
    tag: text(params.get('tag'), LIMITS.tag),
    type: text(params.get('type'), LIMITS.type),
    yearFrom: from,
    yearTo: isYear(yearTo) && (from === '' || Number(yearTo) >= Number(from)) ? yearTo : '',
    sort: isSort(sort) ? sort : 'relevance',
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
  };
}

/** The address's parameters for a state: defaults and empty filters are left out. */
export function writeLibrarySearchState(state: LibrarySearchState): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['q', 'workspace', 'tag', 'type', 'yearFrom', 'yearTo'] as const)
    if (state[key]) params.set(key, state[key]);
  if (state.sort !== 'relevance') params.set('sort', state.sort);
  if (state.page !== 1) params.set('page', String(state.page));
  return params;
}

/** What GET /api/library/search is asked for this state. */
export function apiQuery(state: LibrarySearchState): LibrarySearchQuery {
  return {
    sort: state.sort,
    limit: PAGE_SIZE,
    offset: (state.page - 1) * PAGE_SIZE,
    ...(state.q ? { q: state.q } : {}),
    ...(state.workspace ? { workspaceId: state.workspace } : {}),
    ...(state.tag ? { tag: state.tag } : {}),
    ...(state.type ? { type: state.type } : {}),
    ...(state.yearFrom ? { yearFrom: Number(state.yearFrom) } : {}),
    ...(state.yearTo ? { yearTo: Number(state.yearTo) } : {}),
  };
}
