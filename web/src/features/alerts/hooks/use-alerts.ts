/**
 * The user's alerts through the typed client: the list, create, change (pause, frequency, query),
 * delete, "Run now", a run history that asks again while a run is under way, and the unsubscribe
 * link's two calls (which need no session).
 */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, queries, unwrap } from '../../../api/client';
import type { AlertChange, NewAlert } from '../api/alerts';
import { runPollInterval } from '../alert-words';

const ALERTS_KEY = queries.queryOptions('get', '/api/alerts').queryKey;
/** Every page of an alert's runs. */
const runsKey = (id: string) => ['alerts', id, 'runs'] as const;

export function useAlerts() {
  return queries.useQuery('get', '/api/alerts', undefined, { select: (reply) => reply.alerts });
}

export function useCreateAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewAlert) => unwrap(api.POST('/api/alerts', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}

export function useChangeAlert(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertChange) =>
      unwrap(api.PATCH('/api/alerts/{id}', { params: { path: { id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}

export function useDeleteAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/alerts/{id}', { params: { path: { id } } })),
    onSuccess: (_nothing, id) => {
      queryClient.removeQueries({ queryKey: runsKey(id) });
      return queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
    },
  });
}

/** Runs the alert now: the new run heads its history at once, which then follows it until it finishes. */
export function useRunAlert(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/alerts/{id}/run', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: runsKey(id) }),
  });
}

/**
 * An alert's runs, newest first, a page at a time (`nextCursor`). Read only when `enabled` (the history
 * is open, or a run was started here); while the newest run is queued or running, or its e-mail is
 * going out, it is read again (runPollInterval), and stops once that is over.
 */
export function useAlertRuns(id: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: runsKey(id),
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET('/api/alerts/{id}/runs', {
          params: { path: { id }, query: pageParam ? { cursor: pageParam } : {} },
          signal,
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled,
    refetchInterval: (query) => runPollInterval(query.state.data?.pages[0]?.runs[0]),
  });
}

/** After a run finished: the list shows it as the last run, with the next one. */
export function useRefreshAlerts() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }), [queryClient]);
}

export function useUnsubscribePreview(token: string) {
  return queries.useQuery(
    'get',
    '/api/alerts/unsubscribe/{token}',
    { params: { path: { token } } },
    { retry: false },
  );
}

export function useUnsubscribe(token: string) {
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/alerts/unsubscribe/{token}', { params: { path: { token } } })),
  });
}
