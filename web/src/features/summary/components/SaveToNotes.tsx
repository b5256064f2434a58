/**
 * "Save to notes" in the summary dialog of a result already in the library: the TL;DR and key points,
 * headed with the mode and the date, are appended to the saved resource's notes by the service
 * (POST …/notes), so an edit made meanwhile is kept. Notes that would pass their limit are refused
 * with the service's sentence; the button names the workspace when the work is saved in several.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { describeError } from '../../../api/errors';
import type { SearchResult } from '../../../api/types';
import { invalidateWorkspaces } from '../../../api/workspace-cache';

type LibraryPlace = NonNullable<SearchResult['inLibrary']>[number];

/** The text appended: a heading with the mode and the date (ISO, so it reads the same in any locale), the TL;DR, the key points. */
export function summaryNote(
  summary: { tldr: string | null; bullets: string[] | null },
  mode: 'quick' | 'deep',
  today = new Date(),
): string {
  const lines = [`Summary (${mode}, ${today.toISOString().slice(0, 10)})`];
  if (summary.tldr) lines.push(`TL;DR: ${summary.tldr}`);
  if (summary.bullets?.length)
    lines.push('Key points:', ...summary.bullets.map((bullet) => `- ${bullet}`));
  return lines.join('\n');
}

export function SaveToNotes({ places, text }: { places: LibraryPlace[]; text: string }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (place: LibraryPlace) =>
      unwrap(
        api.POST('/api/workspaces/{id}/resources/{resourceId}/notes', {
          params: { path: { id: place.workspaceId, resourceId: place.resourceId } },
          body: { text },
        }),
      ),
    onSuccess: (_resource, place) => invalidateWorkspaces(queryClient, [place.workspaceId]),
  });
  const saved = save.isSuccess ? save.variables : null;
  return (
    <div className="summary-save">
      {places.map((place) => (
        <button
          key={place.resourceId}
          type="button"
          className="button"
          aria-disabled={save.isPending || undefined}
          onClick={() => {
            if (!save.isPending) save.mutate(place);
          }}
        >
          {places.length === 1 ? 'Save to notes' : `Save to notes in ${place.workspaceName}`}
        </button>
      ))}
      <p role="status">
        {saved ? `Saved to the notes of this paper in ${saved.workspaceName}.` : ''}
      </p>
      {save.isError && (
        <p className="field-error" role="alert">
          The summary was not saved: {describeError(save.error)}
        </p>
      )}
    </div>
  );
}
