/**
 * A workspace's citations as BibTeX, RIS or CSL-JSON files. Fetched through the API client (so an
 * expired session is refreshed) and saved only when the reply is the file: a failure shows the API's
 * message (and, for a 429, when to try again) instead of saving its JSON as the export.
 */
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { attachmentFilename, saveBlob } from '../../../api/download';
import { describeError } from '../../../api/errors';

const EXPORTS = [
  { format: 'bibtex', label: 'BibTeX', extension: 'bib' },
  { format: 'ris', label: 'RIS', extension: 'ris' },
  { format: 'csljson', label: 'CSL-JSON', extension: 'json' },
] as const;
type ExportFormat = (typeof EXPORTS)[number]['format'];

async function downloadExport(
  id: string,
  format: ExportFormat,
  fallbackName: string,
): Promise<void> {
  const reply = api.GET('/api/workspaces/{id}/export', {
    params: { path: { id }, query: { format } },
    parseAs: 'blob',
  });
  const blob = await unwrap(reply);
  const { response } = await reply;
  saveBlob(blob, attachmentFilename(response.headers.get('content-disposition'), fallbackName));
}

export function ExportButtons({
  workspaceId,
  workspaceName,
}: {
  workspaceId: string;
  workspaceName: string;
}) {
  const download = useMutation({
    mutationFn: ({ format, fallbackName }: { format: ExportFormat; fallbackName: string }) =>
      downloadExport(workspaceId, format, fallbackName),
  });
  const pending = download.isPending ? download.variables.format : null;
  const pendingLabel = EXPORTS.find((item) => item.format === pending)?.label;
  return (
    <>
      <p className="export-links">
        {EXPORTS.map((item) => (
          <button
            key={item.format}
            type="button"
            className="button"
            // aria-disabled, not disabled: the focus stays on the button while its file is prepared.
            aria-disabled={pending !== null}
            aria-busy={pending === item.format}
            onClick={() => {
              if (pending === null)
                download.mutate({
                  format: item.format,
                  fallbackName: `${workspaceName}.${item.extension}`,
                });
            }}
          >
            {pending === item.format && <span className="spinner" aria-hidden="true" />}
            {item.label}
          </button>
        ))}
      </p>
      <p className="visually-hidden" role="status">
        {pendingLabel ? `Preparing the ${pendingLabel} file…` : ''}
      </p>
      {download.isError && (
        <p className="field-error" role="alert">
          The export could not be made: {describeError(download.error)}
        </p>
      )}
    </>
  );
}
