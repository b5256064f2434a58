/** Members and invitations of a workspace: queries through the typed hooks, changes through mutations. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, queries, unwrap } from '../../../api/client';
import type { components } from '../../../api/schema';
import {
  invalidateWorkspaces,
  invitationsKey,
  membersKey,
  WORKSPACES_KEY,
} from '../../../api/workspace-cache';

export type Member = components['schemas']['Member'];
export type GrantedRole = components['schemas']['MemberRole'];

/** Both lists in one page: a workspace holds at most 100 members and 50 pending invitations. */
const listInit = (id: string) => ({ params: { path: { id }, query: { limit: 100 } } });

export function useMembers(id: string) {
  return queries.useQuery('get', '/api/workspaces/{id}/members', listInit(id));
}

export function useInvitations(id: string) {
  return queries.useQuery('get', '/api/workspaces/{id}/invitations', listInit(id));
}

/** After a change: the members, the invitations, and the workspace (a transfer changes the asker's role) with the list. */
function useRefresh(id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: membersKey(id) }),
      queryClient.invalidateQueries({ queryKey: invitationsKey(id) }),
      invalidateWorkspaces(queryClient, [id]),
    ]);
}

export function useInvite(id: string) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (body: { email: string; role: GrantedRole }) =>
      unwrap(api.POST('/api/workspaces/{id}/invitations', { params: { path: { id } }, body })),
    onSuccess: refresh,
  });
}

export function useRevokeInvitation(id: string) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (invitationId: string) =>
      unwrap(
        api.DELETE('/api/workspaces/{id}/invitations/{invitationId}', {
          params: { path: { id, invitationId } },
        }),
      ),
    onSuccess: refresh,
  });
}

export function useChangeRole(id: string) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: components['schemas']['RoleInput'] }) =>
      unwrap(
        api.PATCH('/api/workspaces/{id}/members/{userId}', {
          params: { path: { id, userId } },
          body: { role },
        }),
      ),
    onSuccess: refresh,
  });
}

/** Removes another member (the owner). */
export function useRemoveMember(id: string) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(
        api.DELETE('/api/workspaces/{id}/members/{userId}', { params: { path: { id, userId } } }),
      ),
    onSuccess: refresh,
  });
}

/**
 * Leaves the workspace (DELETE …/members/{own id}). Only the list is read again: the workspace itself
 * would now be a 404, and reading it before the page has moved on would show "not found" and unmount the
 * section whose callback moves it on.
 */
export function useLeaveWorkspace(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(
        api.DELETE('/api/workspaces/{id}/members/{userId}', { params: { path: { id, userId } } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY }),
  });
}

export function useInvitationPreview(token: string) {
  return queries.useQuery(
    'get',
    '/api/invitations/{token}',
    { params: { path: { token } } },
    { retry: false },
  );
}

/** Joins a share link's workspace (POST /api/share/{token}/join): the reply is the workspace with the role it gave. */
export function useJoinShareLink(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/share/{token}/join', { params: { path: { token } } })),
    onSuccess: (workspace) => invalidateWorkspaces(queryClient, [workspace.id]),
  });
}

export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/invitations/{token}/accept', { params: { path: { token } } })),
    onSuccess: (accepted) => invalidateWorkspaces(queryClient, [accepted.workspaceId]),
  });
}
