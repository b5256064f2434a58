/**
 * Workspaces, their resources, annotations and share links: queries through the typed query hooks
 * (their keys are `[method, path, init]`), changes through TanStack mutations over the typed client.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, queries, unwrap } from '../../api/client';
import type { components } from '../../api/schema';

export type Workspace = components['schemas']['Workspace'];
export type WorkspaceDetail = components['schemas']['WorkspaceWithResources'];
export type Resource = components['schemas']['Resource'];
export type Annotation = components['schemas']['Annotation'];
export type ShareLink = components['schemas']['ShareLink'];
export type HighlightRange = { start: number; end: number; text?: string };

/** Every page of the list (its key is a prefix of each page's key, whatever the query). */
const WORKSPACES_KEY = queries.queryOptions('get', '/api/workspaces').queryKey;
const workspaceKey = (id: string) => queries.queryOptions('get', '/api/workspaces/{id}', { params: { path: { id } } }).queryKey;
const sharesKey = (id: string) => queries.queryOptions('get', '/api/workspaces/{id}/share', { params: { path: { id } } }).queryKey;

/** The user's workspaces (the API's page is 20 by default; ask for the most it allows). */
export function useWorkspaces() {
  return queries.useQuery('get', '/api/workspaces', { params: { query: { limit: 100 } } });
}

export function useWorkspace(id: string) {
  return queries.useQuery('get', '/api/workspaces/{id}', { params: { path: { id } } });
}

export function useShareLinks(id: string) {
  return queries.useQuery('get', '/api/workspaces/{id}/share', { params: { path: { id } } });
}

/** Mutations that change a workspace refresh it and the list (counts). */
function useInvalidate(id?: string) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY }), id ? queryClient.invalidateQueries({ queryKey: workspaceKey(id) }) : null]);
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
  return useMutation({
    mutationFn: (name: string) => unwrap(api.PATCH('/api/workspaces/{id}', { params: { path: { id } }, body: { name } })),
    onSuccess: invalidate,
  });
}

export function useDeleteWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/workspaces/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY });
    },
  });
}

/** A resource described by the app (the API also takes a `resourceId` to look up; the app has the record already). */
export interface NewResource {
  title: string;
  url?: string;
  type?: string;
  authors?: string[];
  tags?: string[];
  notes?: string;
  data?: Record<string, unknown>;
}

export function useAddResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ workspaceId, resource }: { workspaceId: string; resource: NewResource }) =>
      unwrap(api.POST('/api/workspaces/{id}/resources', { params: { path: { id: workspaceId } }, body: resource })),
    onSuccess: async (_reply, { workspaceId }) => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY }), queryClient.invalidateQueries({ queryKey: workspaceKey(workspaceId) })]);
    },
  });
}

export function useRemoveResource(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  return useMutation({
    mutationFn: (resourceId: string) => unwrap(api.DELETE('/api/workspaces/{id}/resources/{resourceId}', { params: { path: { id: workspaceId, resourceId } } })),
    onSuccess: invalidate,
  });
}

/** Changes a saved resource's notes and tags; the reply replaces the resource in the cached workspace. */
export function useUpdateResource(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ resourceId, notes, tags }: { resourceId: string; notes: string; tags: string[] }) =>
      unwrap(api.PATCH('/api/workspaces/{id}/resources/{resourceId}', { params: { path: { id: workspaceId, resourceId } }, body: { notes, tags } })),
    onSuccess: async (resource) => {
      queryClient.setQueryData<WorkspaceDetail>(workspaceKey(workspaceId), (current) =>
        current && { ...current, resources: current.resources.map((item) => (item.id === resource.id ? resource : item)) },
      );
      // The workspace's updatedAt moved: the list is read again when next shown.
      await queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY });
    },
  });
}

export function useCreateAnnotation(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  return useMutation({
    mutationFn: ({ resourceId, body, ranges }: { resourceId: string; body: string; ranges?: HighlightRange[] }) =>
      unwrap(api.POST('/api/resources/{id}/annotations', { params: { path: { id: resourceId } }, body: { body, ...(ranges ? { highlights: { ranges } } : {}) } })),
    onSuccess: invalidate,
  });
}

export function useUpdateAnnotation(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) => unwrap(api.PATCH('/api/annotations/{id}', { params: { path: { id } }, body: { body } })),
    onSuccess: invalidate,
  });
}

export function useDeleteAnnotation(workspaceId: string) {
  const invalidate = useInvalidate(workspaceId);
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/annotations/{id}', { params: { path: { id } } })),
    onSuccess: invalidate,
  });
}

export function useCreateShareLink(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (expiresInDays: number) => unwrap(api.POST('/api/workspaces/{id}/share', { params: { path: { id: workspaceId } }, body: { expiresInDays } })),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: sharesKey(workspaceId) }), queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY })]);
    },
  });
}

export function useRevokeShareLink(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) => unwrap(api.DELETE('/api/workspaces/{id}/share/{shareId}', { params: { path: { id: workspaceId, shareId } } })),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: sharesKey(workspaceId) }), queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY })]);
    },
  });
}
