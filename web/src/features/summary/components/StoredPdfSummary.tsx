/**
 * `Summarise the PDF` on a kept resource whose PDF's text is ready: the Summary dialog opens in deep
 * mode on the stored text (the service reads it from the database: no download, a fraction of a
 * second), and `Save to notes` appends the summary to this resource's notes.
 */
import { useState } from 'react';
import { useAbilities } from '../../../lib/workspace-role';
import type { StoredResource } from '../hooks/use-summary-stream';
import { SummaryDialog } from './SummaryDialog';

export function StoredPdfSummary({
  workspaceId,
  workspaceName,
  resource,
}: {
  workspaceId: string;
  workspaceName: string;
  resource: { id: string; title: string };
}) {
  const [open, setOpen] = useState<StoredResource | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const can = useAbilities();
  return (
    <>
      <p>
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            setFailure(null);
            setOpen({
              kind: 'stored',
              workspaceId,
              workspaceName,
              resourceId: resource.id,
              title: resource.title,
              notesWritable: can.edit,
            });
          }}
        >
          Summarise the PDF<span className="visually-hidden"> of {resource.title}</span>
        </button>
      </p>
      {failure && (
        <p className="field-error" role="alert">
          The summary could not be made: {failure}
        </p>
      )}
      <SummaryDialog
        result={open}
        initialMode="deep"
        onClose={() => setOpen(null)}
        onServerError={(message) => {
          setOpen(null);
          setFailure(message);
        }}
      />
    </>
  );
}
