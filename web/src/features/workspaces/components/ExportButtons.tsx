/**
 * A workspace's citations as BibTeX, BibLaTeX, RIS or CSL-JSON files. Fetched through the API client (so an
 * expired session is refreshed) and saved only when the reply is the file: a failure shows the API's
 * message (and, for a 429, when to try again) instead of saving its JSON as the export.
 */
import { api } from '../../../api/client';
import { downloadReply } from '../../../api/download';
import { describeError } from '../../../api/errors';
import { DownloadButtons } from '../../../components/DownloadButtons';

const EXPORTS = [
  { key: 'bibtex', label: 'BibTeX', what: 'BibTeX', extension: 'bib' },
  { key: 'biblatex', label: 'BibLaTeX', what: 'BibLaTeX', extension: 'bib' },
  { key: 'ris', label: 'RIS', what: 'RIS', extension: 'ris' },
  { key: 'csljson', label: 'CSL-JSON', what: 'CSL-JSON', extension: 'json' },
] as const;
type ExportFormat = (typeof EXPORTS)[number]['key'];

export function ExportButtons({
  workspaceId,
  workspaceName,
}: {
  workspaceId: string;
  workspaceName: string;
}) {
  const download = (format: ExportFormat) =>
    downloadReply(
      api.GET('/api/workspaces/{id}/export', {
        params: { path: { id: workspaceId }, query: { format } },
        parseAs: 'blob',
      }),
      `${workspaceName}.${EXPORTS.find((item) => item.key === format)?.extension ?? 'txt'}`,
    );
  return (
    <DownloadButtons
      choices={EXPORTS}
      download={download}
      failure={(error) => `The export could not be made: ${describeError(error)}`}
    />
  );
}
