/**
 * Workspaces, their resources, annotations and share links: queries through the typed query hooks
 * (their keys are `[method, path, init]`), changes through TanStack mutations over the typed client.
 */
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { api, queries, unwrap } from '../../../api/client';
import { isStale } from '../../../api/errors';
import type { components, paths } from '../../../api/schema';
import type { SearchResult } from '../../../api/types';
import { ifMatch } from '../../../lib/versions';
import {
  duplicatesKey,
  invalidateWorkspaces,
  replaceCachedResource,
  resourcesKey,
  sharesKey,
  workspaceKey,
  WORKSPACES_KEY,
  type ResourcePage,
} from '../../../api/workspace-cache';

/** Tags to add, to take off, or both (the API takes one or the other at least). */
export type BulkTagInput = components['schemas']['BulkTagInput'];

export type Workspace = components['schemas']['Workspace'];
export type Resource = components['schemas']['Resource'];
export type Annotation = components['schemas']['Annotation'];
export type ShareLink = components['schemas']['ShareLink'];
export type HighlightRange = { start: number; end: number; text?: string };
export type ResourceListQuery = NonNullable<
  paths['/api/workspaces/{id}/resources']['get']['parameters']['query']
>;
/** A workspace's links and the workspace list (which counts them), read again after a link changes. */
const refreshShares = (queryClient: QueryClient, workspaceId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: sharesKey(workspaceId) }),
    queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY }),
  ]);
/** How often a page showing a PDF whose text is still being extracted is read again. */
const PDF_POLL_MS = 1_500;

/**
 * The user's workspaces (the API's page is 20 by default; ask for the most it allows). A closed dialog
 * that offers them passes `enabled: false`: it asks nothing until it opens, so a page does not go on
 * fetching after it looks settled (when a lazily loaded dialog mounts).
 */
export function useWorkspaces(enabled = true) {
  return queries.useQuery(
    'get',
    '/api/workspaces',
    { params: { query: { limit: 100 } } },
    { enabled },
  );
}

/** The workspace alone (no resources: the library list pages through them, use-library.ts). */
export function useWorkspace(id: string) {
  return queries.useQuery('get', '/api/workspaces/{id}', {
    params: { path: { id }, query: { resourceLimit: 0 } },
  });
}

export function useShareLinks(id: string) {
  return queries.useQuery('get', '/api/workspaces/{id}/share', { params: { path: { id } } });
}

/** Mutations that change a workspace refresh it, its library list and the list of workspaces (counts). */
function useInvalidate(id?: string) {
  const queryClient = useQueryClient();
  return async () => {
    await invalidateWorkspaces(queryClient, id ? [id] : []);
  };
}

/** A change refused as made from a stale version (412): the workspace is read again, so theirs is what the page shows next. */
function useRefreshWhenStale(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  return async (error: Error) => {
    if (isStale(error)) await invalidate();
  };
}

export function useCreateWorkspace() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (name: string) => unwrap(api.POST('/api/workspaces', { body: { name } })),
    onSuccess: invalidate,
  });
}

export function useRenameWorkspace(id: string) {
  const invalidate = useInvalidate(id);
  const refreshWhenStale = useRefreshWhenStale(id);
  return useMutation({
    onError: refreshWhenStale,
    /** `version`: the workspace's version when the user started renaming (If-Match). */
    mutationFn: ({ name, version }: { name: string; version: number }) =>
      unwrap(
        api.PATCH('/api/workspaces/{id}', {
          params: { path: { id }, header: ifMatch('w', version) },
          body: { name },
        }),
      ),
    onSuccess: invalidate,
  });
}

/** Deletes a workspace as the user saw it (`version`, If-Match): a 412 when it changed since, and the page shows it again. */
export function useDeleteWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      unwrap(
        api.DELETE('/api/workspaces/{id}', {
          params: { path: { id }, header: ifMatch('w', version) },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY });
    },
    onError: async (error, { id }) => {
      if (isStale(error)) await invalidateWorkspaces(queryClient, [id]);
    },
  });
}

/**
 * A resource described by the app (the API also takes a `resourceId` to look up; the app has the
 * record already): a search result's facts, or an item typed by hand with any field of its record.
 */
export type NewResource = {
  title: string;
  url?: string;
  type?: string;
  authors?: string[];
  tags?: string[];
  notes?: string;
  data?: Record<string, unknown>;
} & Omit<ResourceChanges, 'title' | 'url' | 'type' | 'authors' | 'tags' | 'notes' | 'data'>;

/** The resource body for a search result: its facts, and the identifiers the API recognises a work by. */
export function resourceFromResult(result: SearchResult): NewResource {
  const data = Object.fromEntries(
    Object.entries({
      provider: result.provider,
      sourceId: result.id,
      sources: result.sources,
      abstract: result.abstract,
      publishedDate: result.publishedDate,
      citations: result.citations,
      venue: result.venue,
      doi: result.doi,
      arxivId: result.arxivId,
      pmid: result.pmid,
      pdfUrl: result.pdfUrl,
    }).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
  return {
    title: result.title,
    ...(result.url ? { url: result.url } : {}),
    ...(result.type ? { type: result.type } : {}),
    authors: result.authors.slice(0, 50),
    data,
  };
}

export function useAddResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ workspaceId, resource }: { workspaceId: string; resource: NewResource }) =>
      unwrap(
        api.POST('/api/workspaces/{id}/resources', {
          params: { path: { id: workspaceId } },
          body: resource,
        }),
      ),
    onSuccess: async (_reply, { workspaceId }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY }),
        queryClient.invalidateQueries({ queryKey: workspaceKey(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: resourcesKey(workspaceId) }),
      ]);
    },
  });
}

export function useRemoveResource(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  const refreshWhenStale = useRefreshWhenStale(workspaceId);
  return useMutation({
    onError: refreshWhenStale,
    mutationFn: ({ resourceId, version }: { resourceId: string; version: number }) =>
      unwrap(
        api.DELETE('/api/workspaces/{id}/resources/{resourceId}', {
          params: { path: { id: workspaceId, resourceId }, header: ifMatch('r', version) },
        }),
      ),
    onSuccess: invalidate,
  });
}

/** What a PATCH of a resource may change: any field of it and of its record (`null` clears one). */
export type ResourceChanges = components['schemas']['ResourceUpdateInput'];

/**
 * The fields a PATCH names that the duplicates finder compares, or that it reads them from
 * (src/workspaces/duplicates/store.ts: identifiers, title, year, first author).
 */
const LIKENESS_FIELDS = [
  'doi',
  'arxivId',
  'pmid',
  'title',
  'issued',
  'creators',
  'authors',
  'data',
] as const;

/**
 * Changes a saved resource (its notes and tags, or any field of its record), made from `version`
 * (If-Match: a 412 when someone else changed it since); the reply replaces the resource in the cached
 * library list.
 */
export function useUpdateResource(workspaceId: string) {
  const queryClient = useQueryClient();
  const refreshWhenStale = useRefreshWhenStale(workspaceId);
  return useMutation({
    onError: refreshWhenStale,
    mutationFn: ({
      resourceId,
      version,
      ...changes
    }: ResourceChanges & { resourceId: string; version: number }) =>
      unwrap(
        api.PATCH('/api/workspaces/{id}/resources/{resourceId}', {
          params: { path: { id: workspaceId, resourceId }, header: ifMatch('r', version) },
          body: changes,
        }),
      ),
    onSuccess: async (resource, changes) => {
      replaceCachedResource(queryClient, workspaceId, resource);
      // The workspace's updatedAt moved, and the tags, year or venue may no longer match a filter or
      // keep the sort: read again when next shown. A change of what makes two resources alike (an
      // identifier, the title, the year, the creators) may make or end a duplicate: those read again.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY }),
        queryClient.invalidateQueries({ queryKey: resourcesKey(workspaceId), refetchType: 'none' }),
        LIKENESS_FIELDS.some((field) => field in changes)
          ? queryClient.invalidateQueries({ queryKey: duplicatesKey(workspaceId) })
          : undefined,
      ]);
    },
  });
}

/** What "Update from source" proposes: the fields the source says differently, from `version`. */
export type RefreshProposal = components['schemas']['ResourceRefresh'];

/**
 * "Update from source": looks the resource's DOI (arXiv id, PMID) up now and answers the changes the
 * source proposes; nothing is written (the pane applies the accepted ones with useUpdateResource at
 * the proposal's version). A mutation, not a query: each press asks the providers again, and nothing
 * is kept.
 */
export function useRefreshProposal(workspaceId: string) {
  return useMutation({
    mutationFn: (resourceId: string) =>
      unwrap(
        api.GET('/api/workspaces/{id}/resources/{resourceId}/refresh', {
          params: { path: { id: workspaceId, resourceId } },
        }),
      ),
  });
}

export function useCreateAnnotation(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  return useMutation({
    mutationFn: ({
      resourceId,
      body,
      ranges,
    }: {
      resourceId: string;
      body: string;
      ranges?: HighlightRange[];
    }) =>
      unwrap(
        api.POST('/api/resources/{id}/annotations', {
          params: { path: { id: resourceId } },
          body: { body, ...(ranges ? { highlights: { ranges } } : {}) },
        }),
      ),
    onSuccess: invalidate,
  });
}

export function useUpdateAnnotation(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  const refreshWhenStale = useRefreshWhenStale(workspaceId);
  return useMutation({
    onError: refreshWhenStale,
    mutationFn: ({ id, body, version }: { id: string; body: string; version: number }) =>
      unwrap(
        api.PATCH('/api/annotations/{id}', {
          params: { path: { id }, header: ifMatch('a', version) },
          body: { body },
        }),
      ),
    onSuccess: invalidate,
  });
}

export function useDeleteAnnotation(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  const refreshWhenStale = useRefreshWhenStale(workspaceId);
  return useMutation({
    onError: refreshWhenStale,
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      unwrap(
        api.DELETE('/api/annotations/{id}', {
          params: { path: { id }, header: ifMatch('a', version) },
        }),
      ),
    onSuccess: invalidate,
  });
}

export function useCreateShareLink(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      expiresInDays,
      readOnly,
      allowJoin,
    }: {
      expiresInDays: number;
      readOnly: boolean;
      allowJoin: boolean;
    }) =>
      unwrap(
        api.POST('/api/workspaces/{id}/share', {
          params: { path: { id: workspaceId } },
          // An editable link is always joinable: the service refuses allowJoin: false with it.
          body: readOnly ? { expiresInDays, readOnly, allowJoin } : { expiresInDays, readOnly },
        }),
      ),
    onSuccess: () => refreshShares(queryClient, workspaceId),
  });
}

/** Turns joining through a read-only link on or off (the owner's). */
export function useSetShareLinkJoin(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ shareId, allowJoin }: { shareId: string; allowJoin: boolean }) =>
      unwrap(
        api.PATCH('/api/workspaces/{id}/share/{shareId}', {
          params: { path: { id: workspaceId, shareId } },
          body: { allowJoin },
        }),
      ),
    onSuccess: () => refreshShares(queryClient, workspaceId),
  });
}

export function useRevokeShareLink(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) =>
      unwrap(
        api.DELETE('/api/workspaces/{id}/share/{shareId}', {
          params: { path: { id: workspaceId, shareId } },
        }),
      ),
    onSuccess: () => refreshShares(queryClient, workspaceId),
  });
}

/** Resumes a link paused when the account was claimed by its mailbox's owner (same address as before). */
export function useResumeShareLink(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) =>
      unwrap(
        api.POST('/api/workspaces/{id}/share/{shareId}/resume', {
          params: { path: { id: workspaceId, shareId } },
        }),
      ),
    onSuccess: () => refreshShares(queryClient, workspaceId),
  });
}

/**
 * A page of the workspace's library list, sorted and filtered by the server. Its key is the typed
 * query's own (so that changes invalidate it by prefix); the call is the client's, for the total the
 * API sends in X-Total-Count. The page shown stays while the next one loads. While a resource on it
 * has a PDF with extraction `pending`, the page is read again every PDF_POLL_MS, until none has.
 */
export function useResourcePage(workspaceId: string, query: ResourceListQuery) {
  const init = { params: { path: { id: workspaceId }, query } };
  return useQuery({
    queryKey: queries.queryOptions('get', '/api/workspaces/{id}/resources', init).queryKey,
    queryFn: async ({ signal }): Promise<ResourcePage> => {
      const { data, response } = await api.GET('/api/workspaces/{id}/resources', {
        ...init,
        signal,
      });
      const resources = data ?? [];
      return {
        resources,
        total: Number(response.headers.get('x-total-count') ?? resources.length),
      };
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.resources.some((resource) => resource.pdf?.extraction === 'pending')
        ? PDF_POLL_MS
        : false,
  });
}

export function useTagResources(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  return useMutation({
    mutationFn: (body: BulkTagInput) =>
      unwrap(
        api.POST('/api/workspaces/{id}/resources/bulk/tag', {
          params: { path: { id: workspaceId } },
          body,
        }),
      ),
    onSuccess: invalidate,
  });
}

/** Both workspaces change: each is read again. */
export function useMoveResources(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { resourceIds: string[]; targetWorkspaceId: string }) =>
      unwrap(
        api.POST('/api/workspaces/{id}/resources/bulk/move', {
          params: { path: { id: workspaceId } },
          body,
        }),
      ),
    onSuccess: (reply) => invalidateWorkspaces(queryClient, [workspaceId, reply.targetWorkspaceId]),
  });
}

export function useRemoveResources(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  return useMutation({
    mutationFn: (resourceIds: string[]) =>
      unwrap(
        api.POST('/api/workspaces/{id}/resources/bulk/remove', {
          params: { path: { id: workspaceId } },
          body: { resourceIds },
        }),
      ),
    onSuccess: invalidate,
  });
}
