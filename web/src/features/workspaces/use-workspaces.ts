/** Workspaces, their resources, annotations and share links through the typed client and TanStack Query. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';

export type Workspace = components['schemas']['Workspace'];
export type WorkspaceDetail = components['schemas']['WorkspaceWithResources'];
export type Resource = components['schemas']['Resource'];
export type Annotation = components['schemas']['Annotation'];
export type ShareLink = components['schemas']['ShareLink'];
export type HighlightRange = { start: number; end: number; text?: string };

const WORKSPACES_KEY = ['workspaces'] as const;
const workspaceKey = (id: string) => ['workspace', id] as const;
const sharesKey = (id: string) => ['workspace', id, 'shares'] as const;

/** The user's workspaces (the API's page is 20 by default; ask for the most it allows). */
export function useWorkspaces() {
  return useQuery({
    queryKey: WORKSPACES_KEY,
    queryFn: ({ signal }) => unwrap(api.GET('/api/workspaces', { params: { query: { limit: 100 } }, signal })),
  });
}

export function useWorkspace(id: string) {
  return useQuery({
    queryKey: workspaceKey(id),
    queryFn: ({ signal }) => unwrap(api.GET('/api/workspaces/{id}', { params: { path: { id } }, signal })) as Promise<WorkspaceDetail>,
  });
}

export function useShareLinks(id: string) {
  return useQuery({
    queryKey: sharesKey(id),
    queryFn: ({ signal }) => unwrap(api.GET('/api/workspaces/{id}/share', { params: { path: { id } }, signal })) as Promise<ShareLink[]>,
  });
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
    mutationFn: (name: string) => unwrap(api.POST('/api/workspaces', { body: { name } })) as Promise<Workspace>,
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
      unwrap(api.POST('/api/workspaces/{id}/resources', { params: { path: { id: workspaceId } }, body: resource })) as Promise<Resource>,
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
    mutationFn: (expiresInDays: number) => unwrap(api.POST('/api/workspaces/{id}/share', { params: { path: { id: workspaceId } }, body: { expiresInDays } })) as Promise<ShareLink>,
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
