/**
 * A resource's PDF where the library shows it: the list's PDF column (PdfCell: none, text being
 * extracted, failed with the reason, or `Read` to the viewer) and the open resource's panel
 * (PdfActions: what is kept, `Attach PDF` / `Replace PDF`, `Remove PDF`).
 */
import { useId, useRef } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../../api/errors';
import type { components } from '../../../api/schema';
import { useAbilities } from '../../../lib/workspace-role';
import { useAttachPdf, useRemovePdf } from '../hooks/use-pdfs';
import '../pdfs.css';

type Resource = components['schemas']['Resource'];
type Pdf = NonNullable<Resource['pdf']>;

const viewerPath = (workspaceId: string, resource: Resource) =>
  `/workspaces/${workspaceId}/resources/${resource.id}/pdf`;

export function PdfCell({ workspaceId, resource }: { workspaceId: string; resource: Resource }) {
  const { pdf } = resource;
  if (!pdf) {
    return (
      <>
        <span aria-hidden="true">–</span>
        <span className="visually-hidden">No PDF</span>
      </>
    );
  }
  if (pdf.extraction === 'pending') return <span className="pdf-state">Extracting…</span>;
  if (pdf.extraction === 'failed') {
    return (
      <span className="pdf-state pdf-failed">
        Failed<span className="visually-hidden">: </span>
        <span className="pdf-reason">{pdf.error ?? 'The text could not be extracted.'}</span>
      </span>
    );
  }
  return (
    <Link to={viewerPath(workspaceId, resource)}>
      Read<span className="visually-hidden"> the PDF of {resource.title}</span>
    </Link>
  );
}

function describePdf(pdf: Pdf): string {
  const size =
    pdf.size >= 1024 * 1024
      ? `${(pdf.size / (1024 * 1024)).toFixed(1)} MB`
      : `${Math.max(1, Math.round(pdf.size / 1024))} KB`;
  const state =
    pdf.extraction === 'pending'
      ? 'its text is being extracted…'
      : pdf.extraction === 'failed'
        ? `its text could not be extracted: ${pdf.error ?? 'no reason given'}`
        : `text extracted${pdf.pages ? ` from ${pdf.pages} ${pdf.pages === 1 ? 'page' : 'pages'}` : ''}.`;
  return `${pdf.filename} (${size}): ${state}`;
}

export function PdfActions({ workspaceId, resource }: { workspaceId: string; resource: Resource }) {
  const headingId = useId();
  const input = useRef<HTMLInputElement>(null);
  const attach = useAttachPdf(workspaceId);
  const remove = useRemovePdf(workspaceId);
  const can = useAbilities();
  const failure = attach.error ?? remove.error;
  return (
    <section aria-labelledby={headingId} className="pdf-actions">
      <h3 id={headingId}>PDF</h3>
      <p role="status">
        {resource.pdf ? describePdf(resource.pdf) : 'No PDF kept with this resource.'}
      </p>
      <div className="row-actions">
        {resource.pdf?.extraction === 'ready' && (
          <Link className="button button-small" to={viewerPath(workspaceId, resource)}>
            Read the PDF
          </Link>
        )}
        {can.edit && (
          <button
            type="button"
            className="button button-small"
            disabled={attach.isPending}
            aria-busy={attach.isPending || undefined}
            onClick={() => input.current?.click()}
          >
            {attach.isPending ? 'Uploading…' : resource.pdf ? 'Replace PDF' : 'Attach PDF'}
          </button>
        )}
        {can.edit && resource.pdf && (
          <button
            type="button"
            className="button button-small button-danger"
            disabled={remove.isPending}
            onClick={() => {
              attach.reset();
              remove.mutate(resource.id);
            }}
          >
            {remove.isPending ? 'Removing…' : 'Remove PDF'}
          </button>
        )}
      </div>
      <input
        ref={input}
        type="file"
        accept="application/pdf,.pdf"
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          remove.reset();
          attach.mutate({ resourceId: resource.id, file });
        }}
      />
      {failure && (
        <p className="field-error" role="alert">
          {describeError(failure)}
        </p>
      )}
    </section>
  );
}
