/**
 * A resource's annotations as the viewer shows them, and the changes it makes: through the typed
 * client; each change reads the list again, and marks the workspace's library list stale (it shows
 * annotations too) so that it is read again when next shown.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, queries, unwrap } from '../../../api/client';
import type { components } from '../../../api/schema';
import { ifMatch } from '../../../lib/versions';
import type { AnnotationColor } from '../../../lib/annotations';
import type { PdfAnchor } from '../anchors';

export type Annotation = components['schemas']['Annotation'];

/** The API keeps at most 100 annotations on a resource, and gives up to 100 a page: one request reads them all. */
const ALL_OF_A_RESOURCE = 100;

const listOptions = (resourceId: string) =>
  queries.queryOptions('get', '/api/resources/{id}/annotations', {
    params: { path: { id: resourceId }, query: { limit: ALL_OF_A_RESOURCE } },
  });

export function usePdfAnnotations(resourceId: string) {
  return useQuery(listOptions(resourceId));
}

function useRefresh(workspaceId: string, resourceId: string) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: listOptions(resourceId).queryKey }),
      queryClient.invalidateQueries({
        queryKey: queries.queryOptions('get', '/api/workspaces/{id}/resources', {
          params: { path: { id: workspaceId } },
        }).queryKey,
        refetchType: 'none',
      }),
    ]);
  };
}

export function useAnnotateSelection(workspaceId: string, resourceId: string) {
  const refresh = useRefresh(workspaceId, resourceId);
  return useMutation({
    mutationFn: ({ body, color, pdf }: { body: string; color: AnnotationColor; pdf: PdfAnchor }) =>
      unwrap(
        api.POST('/api/resources/{id}/annotations', {
          params: { path: { id: resourceId } },
          body: { body, color, highlights: { pdf } },
        }),
      ),
    onSuccess: refresh,
  });
}

/**
 * Deletes the annotation as the user saw it (If-Match its version): one someone changed meanwhile is
 * refused (412), and the list is read again, so the user sees theirs before pressing Delete again.
 */
export function useDeletePdfAnnotation(workspaceId: string, resourceId: string) {
  const refresh = useRefresh(workspaceId, resourceId);
  return useMutation({
    mutationFn: ({ id, version }: Pick<Annotation, 'id' | 'version'>) =>
      unwrap(
        api.DELETE('/api/annotations/{id}', {
          params: { path: { id }, header: ifMatch('a', version) },
        }),
      ),
    onSuccess: refresh,
    onError: refresh,
  });
}
