/**
 * An alert's types, read from the API's own (schema.d.ts, by path: whatever the schemas are named),
 * and the alert's filters to and from the search page's. Nothing here calls the API (hooks/ does).
 */
import type { paths } from '../../../api/schema';
import type { ProviderId, SearchFilters } from '../../../lib/search-words';

type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

export type Alert = JsonOf<paths['/api/alerts']['get']['responses'][200]>['alerts'][number];
export type AlertRun = JsonOf<
  paths['/api/alerts/{id}/runs']['get']['responses'][200]
>['runs'][number];
export type NewAlert = JsonOf<paths['/api/alerts']['post']['requestBody']>;
export type AlertChange = JsonOf<paths['/api/alerts/{id}']['patch']['requestBody']>;
export type AlertFilters = NonNullable<Alert['filters']>;
export type AlertFrequency = Alert['frequency'];

export const FREQUENCIES = ['daily', 'weekly'] as const satisfies readonly AlertFrequency[];

/** The API's bound on an alert's query (as on a search's). */
export const MAX_ALERT_QUERY_LENGTH = 500;

/** The search page's filters as an alert keeps them: only those set; null when none is. */
export function alertFiltersOf(filters: SearchFilters): AlertFilters | null {
  const kept: AlertFilters = {
    ...(filters.yearFrom !== null ? { yearFrom: filters.yearFrom } : {}),
    ...(filters.yearTo !== null ? { yearTo: filters.yearTo } : {}),
    ...(filters.hasPdf ? { hasPdf: true } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.venue ? { venue: filters.venue } : {}),
  };
  return Object.keys(kept).length > 0 ? kept : null;
}

/** An alert's filters as the search page's (to say them in the same words). */
export function searchFiltersOf(filters: AlertFilters | null): SearchFilters {
  return {
    yearFrom: filters?.yearFrom ?? null,
    yearTo: filters?.yearTo ?? null,
    hasPdf: filters?.hasPdf === true,
    type: filters?.type ?? null,
    venue: filters?.venue ?? '',
  };
}

/** What POST /api/alerts takes for the search on screen (every enabled source: no `providers`). */
export function newAlertOf(
  search: { query: string; providers: ProviderId[] | null; filters: SearchFilters },
  frequency: AlertFrequency,
): NewAlert {
  const filters = alertFiltersOf(search.filters);
  return {
    query: search.query,
    frequency,
    ...(search.providers ? { providers: search.providers } : {}),
    ...(filters ? { filters } : {}),
  };
}
