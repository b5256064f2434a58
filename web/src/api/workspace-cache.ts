/**
 * The cached reads of workspaces that more than one feature changes (saving, the library's own
 * actions, importing a file, adding PDFs, members, live updates): their query keys, and refreshing
 * them after a change.
 * The keys are the typed queries' own (`[method, path, init]`), so one key without a query is a
 * prefix of every page of that list, whatever its sort and filters.
 */
import type { QueryClient } from '@tanstack/react-query';
import { queries } from './client';
import type { components } from './schema';

type Resource = components['schemas']['Resource'];

/** The list of workspaces (every page of it). */
export const WORKSPACES_KEY = queries.queryOptions('get', '/api/workspaces').queryKey;
export const workspaceKey = (id: string) =>
  queries.queryOptions('get', '/api/workspaces/{id}', { params: { path: { id } } }).queryKey;
/** Every page of a workspace's library list, whatever its sort and filters. */
export const resourcesKey = (id: string) =>
  queries.queryOptions('get', '/api/workspaces/{id}/resources', { params: { path: { id } } })
    .queryKey;
/** Every resource's annotations; `annotationsKey`: one resource's (every page and limit of them). */
export const ANNOTATIONS_KEY = ['get', '/api/resources/{id}/annotations'] as const;
export const annotationsKey = (resourceId: string) =>
  queries.queryOptions('get', '/api/resources/{id}/annotations', {
    params: { path: { id: resourceId } },
  }).queryKey;
export const membersKey = (id: string) =>
  queries.queryOptions('get', '/api/workspaces/{id}/members', { params: { path: { id } } })
    .queryKey;
export const invitationsKey = (id: string) =>
  queries.queryOptions('get', '/api/workspaces/{id}/invitations', { params: { path: { id } } })
    .queryKey;
export const sharesKey = (id: string) =>
  queries.queryOptions('get', '/api/workspaces/{id}/share', { params: { path: { id } } }).queryKey;
/** A workspace's likely duplicates (their groups change when resources come, go or change). */
export const duplicatesKey = (id: string) =>
  queries.queryOptions('get', '/api/workspaces/{id}/duplicates', { params: { path: { id } } })
    .queryKey;
/** A workspace's activity log, every page of it. */
export const activityKey = (id: string) =>
  queries.queryOptions('get', '/api/workspaces/{id}/activity', { params: { path: { id } } })
    .queryKey;

/** The shape each cached page of the library list holds (use-workspaces.ts's useResourcePage). */
export interface ResourcePage {
  resources: Resource[];
  total: number;
}

/**
 * Reads again the list of workspaces (counts) and, for each id, the workspace, its library list and
 * its duplicates.
 */
export async function invalidateWorkspaces(queryClient: QueryClient, ids: string[]): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY }),
    ...ids.flatMap((id) => [
      queryClient.invalidateQueries({ queryKey: workspaceKey(id) }),
      queryClient.invalidateQueries({ queryKey: resourcesKey(id) }),
      queryClient.invalidateQueries({ queryKey: duplicatesKey(id) }),
    ]),
  ]);
}

/** Puts a resource as the API answered it on every cached page of its library list that shows it. */
export function replaceCachedResource(
  queryClient: QueryClient,
  workspaceId: string,
  resource: Resource,
): void {
  queryClient.setQueriesData<ResourcePage>(
    { queryKey: resourcesKey(workspaceId) },
    (current) =>
      current && {
        ...current,
        resources: current.resources.map((item) => (item.id === resource.id ? resource : item)),
      },
  );
}
