/**
 * Sending a citation file to POST /api/workspaces/{id}/import: first as a dry run (what would happen,
 * nothing written), then for real; the real import refreshes the workspace and its library list.
 * Failures are worded for the person who chose the file (importErrorMessage).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, multipartBody, unwrap } from '../../../api/client';
import { ApiError, describeError } from '../../../api/errors';
import type { components } from '../../../api/schema';
import { invalidateWorkspaces } from '../../../api/workspace-cache';

export type ImportReport = components['schemas']['ImportReport'];
export type ImportEntry = components['schemas']['ImportEntry'];

/** The API's bounds on one file (docs/api.md, Import): checked here too, so a large file is never sent. */
export const IMPORT_MAX_MB = 10;
const IMPORT_MAX_BYTES = IMPORT_MAX_MB * 1024 * 1024;

function sendImport(workspaceId: string, file: File, dryRun: boolean): Promise<ImportReport> {
  return unwrap(
    api.POST('/api/workspaces/{id}/import', {
      params: { path: { id: workspaceId }, query: { dryRun } },
      body: { file },
      bodySerializer: multipartBody,
    }),
  );
}

/** The file's problem before it is sent (too large, empty), or null. */
export function fileProblem(file: File): string | null {
  if (file.size === 0)
    return `${file.name} is empty: choose the file your reference manager exported.`;
  if (file.size > IMPORT_MAX_BYTES)
    return `${file.name} is larger than ${IMPORT_MAX_MB} MB. Export the library in parts (a collection at a time) and import each file.`;
  return null;
}

/** What went wrong, as a sentence for the person who chose the file. */
export function importErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return describeError(error);
  if (error.status === 413)
    return `The file is larger than ${IMPORT_MAX_MB} MB. Export the library in parts (a collection at a time) and import each file.`;
  if (error.status === 415)
    return 'This kind of file cannot be imported. Choose a BibTeX (.bib), RIS (.ris) or CSL-JSON (.json) file.';
  if (error.status === 400 && error.field === 'file') {
    switch (error.details.reason) {
      case 'unknown_format':
        return 'This file is not BibTeX, RIS or CSL-JSON. Export the library from your reference manager in one of those formats and choose that file.';
      case 'no_entries':
        return 'This file holds no references to import.';
      case 'unreadable':
        return `The file could not be read. ${error.message}`;
      default:
        // too_many_entries and the rest: the API's message says what to do.
        return error.message;
    }
  }
  return describeError(error);
}

/** The dry run: what importing `file` would do. */
export function usePreviewImport(workspaceId: string) {
  return useMutation({ mutationFn: (file: File) => sendImport(workspaceId, file, true) });
}

/** The import itself; the workspace, its library list and the workspace counts are read again. */
export function useImport(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => sendImport(workspaceId, file, false),
    onSuccess: () => invalidateWorkspaces(queryClient, [workspaceId]),
  });
}
