/**
 * A workspace's own PDFs: resources made from PDFs (several at once, one upload after the other, from
 * a drop or a file chooser), a PDF attached to a resource or removed from it. Each change refreshes
 * the library list; a PDF's text is extracted in the background, and the list reads itself again
 * while one is pending (use-workspaces.ts's useResourcePage).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api, multipartBody, unwrap } from '../../../api/client';
import { ApiError, describeError } from '../../../api/errors';
import {
  invalidateWorkspaces,
  replaceCachedResource,
  resourcesKey,
} from '../../../api/workspace-cache';
import { useToast } from '../../../components/Toasts';
import { plural } from '../../../lib/plural';

/** The API's bound on one PDF (docs/api.md, Resource PDFs): checked here too, so a large file is never sent. */
const PDF_MAX_MB = 50;

/** The file's problem before it is sent (not a PDF by its name and type, empty, too large), or null. */
function pdfProblem(file: File): string | null {
  if (file.type !== 'application/pdf' && !/\.pdf$/i.test(file.name))
    return `${file.name} is not a PDF (citation files go through Import…).`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > PDF_MAX_MB * 1024 * 1024) return `${file.name} is larger than ${PDF_MAX_MB} MB.`;
  return null;
}

/** What the API refused, as a sentence about the file. */
function pdfErrorMessage(file: File, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 413) return `${file.name} is larger than ${PDF_MAX_MB} MB.`;
    if (error.status === 415)
      return `${file.name} is not a PDF: its contents are not a PDF's, whatever its name says.`;
    if (error.status === 409) return `${file.name} is already in this workspace.`;
  }
  return `${file.name}: ${describeError(error)}`;
}

export interface PdfUploads {
  /** Sends each PDF among `files` as a new resource; the others are reported. */
  add: (files: File[]) => void;
  /** What is being sent now ("Uploading a.pdf (1 of 3)…"), or null. */
  progress: string | null;
  /** The files of the last batch that were not added, and why. */
  problems: string[];
}

/** Resources made from PDFs, one upload at a time (a second drop waits for the first). */
export function usePdfUploads(workspaceId: string): PdfUploads {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [progress, setProgress] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const queue = useRef(Promise.resolve());

  const upload = async (files: File[]) => {
    const refused: string[] = [];
    const pdfs = files.filter((file) => {
      const problem = pdfProblem(file);
      if (problem) refused.push(problem);
      return problem === null;
    });
    setProblems(refused);
    let added = 0;
    for (const [index, file] of pdfs.entries()) {
      setProgress(`Uploading ${file.name} (${index + 1} of ${pdfs.length})…`);
      try {
        await unwrap(
          api.POST('/api/workspaces/{id}/resources', {
            params: { path: { id: workspaceId } },
            body: { file },
            bodySerializer: multipartBody,
          }),
        );
        added += 1;
        await invalidateWorkspaces(queryClient, [workspaceId]);
      } catch (error) {
        refused.push(pdfErrorMessage(file, error));
        setProblems([...refused]);
      }
    }
    setProgress(null);
    if (added > 0) toast(`Added ${plural(added, 'PDF')}; their text is being extracted`);
  };

  return {
    add: (files) => {
      // upload() reports each file's failure itself; the catch keeps one surprise from stopping the queue.
      queue.current = queue.current.then(() => upload(files)).catch(() => undefined);
    },
    progress,
    problems,
  };
}

/** Attaches a PDF to a resource (replacing any); the reply (extraction pending) shows at once. */
export function useAttachPdf(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ resourceId, file }: { resourceId: string; file: File }) => {
      const problem = pdfProblem(file);
      if (problem) throw new Error(problem);
      return unwrap(
        api.PUT('/api/workspaces/{id}/resources/{resourceId}/pdf', {
          params: { path: { id: workspaceId, resourceId } },
          body: { file },
          bodySerializer: multipartBody,
        }),
      ).catch((error: unknown) => {
        throw new Error(pdfErrorMessage(file, error));
      });
    },
    onSuccess: async (resource) => {
      replaceCachedResource(queryClient, workspaceId, resource);
      await queryClient.invalidateQueries({ queryKey: resourcesKey(workspaceId) });
    },
  });
}

/** Removes a resource's PDF (its file and extracted text); the resource stays. */
export function useRemovePdf(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (resourceId: string) =>
      unwrap(
        api.DELETE('/api/workspaces/{id}/resources/{resourceId}/pdf', {
          params: { path: { id: workspaceId, resourceId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourcesKey(workspaceId) }),
  });
}
