/**
 * The library list's state in the address (sort, order, filters, page, page size, the resource open in
 * the panel), so that a reload or Back shows the same list. Values the API would refuse are dropped
 * here, so a hand-edited address still shows a list.
 */
import type { ResourceListQuery } from './hooks/use-workspaces';

export const SORTS = ['title', 'author', 'year', 'venue', 'added'] as const;
export type Sort = (typeof SORTS)[number];
export type Order = 'asc' | 'desc';
export const PAGE_SIZES = [10, 25, 50, 100] as const;
const DEFAULT_SIZE = 25;

/** The filters of the list, in the order the form shows them. */
export const LIBRARY_FILTERS = ['q', 'tag', 'type', 'yearFrom', 'yearTo'] as const;
export type LibraryFilters = Pick<LibraryState, (typeof LIBRARY_FILTERS)[number]>;

export interface LibraryState {
  sort: Sort;
  order: Order;
  q: string;
  tag: string;
  type: string;
  yearFrom: string;
  yearTo: string;
  /** 1-based. */
  page: number;
  size: number;
  /** The resource open in the detail panel. */
  open: string | null;
}

/** The order a sort starts in (the API's default): newest first for added and year, A to Z for the rest. */
export function defaultOrder(sort: Sort): Order {
  return sort === 'added' || sort === 'year' ? 'desc' : 'asc';
}

const isSort = (value: string | null): value is Sort =>
  (SORTS as readonly string[]).includes(value ?? '');
const year = (value: string | null) => (value && /^\d{1,4}$/.test(value) ? value : '');
const text = (value: string | null, max: number) => (value ?? '').trim().slice(0, max);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function readLibraryState(params: URLSearchParams): LibraryState {
  const raw = params.get('sort');
  const sort = isSort(raw) ? raw : 'added';
  const order = params.get('order');
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  const open = params.get('resource');
  return {
    sort,
    order: order === 'asc' || order === 'desc' ? order : defaultOrder(sort),
    q: text(params.get('q'), 200),
    tag: text(params.get('tag'), 50),
    type: text(params.get('type'), 50),
    yearFrom: year(params.get('yearFrom')),
    yearTo: year(params.get('yearTo')),
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
    open: open && UUID.test(open) ? open : null,
  };
}

/** The address's parameters for a state: defaults are left out, so the plain list has a plain address. */
export function writeLibraryState(state: LibraryState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.sort !== 'added') params.set('sort', state.sort);
  if (state.order !== defaultOrder(state.sort)) params.set('order', state.order);
  for (const key of ['q', 'tag', 'type', 'yearFrom', 'yearTo'] as const)
    if (state[key]) params.set(key, state[key]);
  if (state.page !== 1) params.set('page', String(state.page));
  if (state.size !== DEFAULT_SIZE) params.set('size', String(state.size));
  if (state.open) params.set('resource', state.open);
  return params;
}

/** What the API is asked for this state (empty filters left out). */
export function apiQuery(state: LibraryState): ResourceListQuery {
  return {
    sort: state.sort,
    order: state.order,
    limit: state.size,
    offset: (state.page - 1) * state.size,
    ...(state.q ? { q: state.q } : {}),
    ...(state.tag ? { tag: state.tag } : {}),
    ...(state.type ? { type: state.type } : {}),
    ...(state.yearFrom ? { yearFrom: Number(state.yearFrom) } : {}),
    ...(state.yearTo ? { yearTo: Number(state.yearTo) } : {}),
  };
}
