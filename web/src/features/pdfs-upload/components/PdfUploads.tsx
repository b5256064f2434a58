/**
 * Adding PDFs to a workspace: drop them anywhere on the library (PdfDropZone), or choose them with
 * `Add PDFs…` (AddPdfsButton, the keyboard's way); each becomes a resource. The page holds the one
 * usePdfUploads both share; the drop zone shows the progress and what was refused.
 */
import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useAbilities } from '../../../lib/workspace-role';
import type { PdfUploads } from '../hooks/use-pdfs';
import '../pdfs.css';

const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

export function PdfDropZone({ uploads, children }: { uploads: PdfUploads; children: ReactNode }) {
  const [over, setOver] = useState(false);
  // A viewer may not add resources (POLICY workspace.edit): their library takes no drop.
  if (!useAbilities().edit) return <>{children}</>;
  return (
    <div
      className={`pdf-drop${over ? ' pdf-drop-active' : ''}`}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={(event) => {
        if (!(
          event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)
        ))
          setOver(false);
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setOver(false);
        uploads.add([...event.dataTransfer.files]);
      }}
    >
      {over && (
        <p className="pdf-drop-hint" aria-hidden="true">
          Drop PDFs to add them to this workspace
        </p>
      )}
      <p role="status" className={uploads.progress ? 'pdf-progress' : 'visually-hidden'}>
        {uploads.progress && <span className="spinner" aria-hidden="true" />}
        {uploads.progress}
      </p>
      {uploads.problems.length > 0 && (
        <div className="form-alert" role="alert">
          <p>Not added:</p>
          <ul>
            {uploads.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {children}
    </div>
  );
}

export function AddPdfsButton({ uploads }: { uploads: PdfUploads }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="button" onClick={() => input.current?.click()}>
        Add PDFs…
      </button>
      <input
        ref={input}
        type="file"
        accept="application/pdf,.pdf"
        multiple
        hidden
        onChange={(event) => {
          uploads.add([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
    </>
  );
}
