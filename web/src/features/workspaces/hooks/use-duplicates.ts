/**
 * A workspace's likely duplicates (GET …/duplicates, in groups) and merging one group into the
 * resource chosen to keep (POST …/duplicates/merge, with the versions the user saw: a 409 when one
 * changed or went meanwhile, and the groups are read again so the page shows them as they are now).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, queries, unwrap } from '../../../api/client';
import { ApiError } from '../../../api/errors';
import type { components } from '../../../api/schema';
import { duplicatesKey, invalidateWorkspaces } from '../../../api/workspace-cache';

export type DuplicateGroup = components['schemas']['DuplicateGroup'];
export type DuplicateReason = DuplicateGroup['reason'];

export function useDuplicates(workspaceId: string, enabled = true) {
  return queries.useQuery(
    'get',
    '/api/workspaces/{id}/duplicates',
    { params: { path: { id: workspaceId } } },
    { enabled },
  );
}

/** The merge was refused because a resource of it changed or was removed meanwhile (nothing merged). */
export function isChangedMeanwhile(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 409 &&
    (error.details.reason === 'changed' || error.details.reason === 'gone')
  );
}

export function useMergeDuplicates(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    /** `versions`: each resource's version as the page showed it. */
    mutationFn: ({
      keep,
      merge,
      versions,
    }: {
      keep: string;
      merge: string[];
      versions: Record<string, number>;
    }) =>
      unwrap(
        api.POST('/api/workspaces/{id}/duplicates/merge', {
          params: { path: { id: workspaceId } },
          body: { keep, merge, expectedVersions: versions },
        }),
      ),
    onSuccess: () => invalidateWorkspaces(queryClient, [workspaceId]),
    onError: async (error) => {
      if (isChangedMeanwhile(error))
        await queryClient.invalidateQueries({ queryKey: duplicatesKey(workspaceId) });
    },
  });
}
