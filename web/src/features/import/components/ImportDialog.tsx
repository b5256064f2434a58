/**
 * Importing a citation file into a workspace: `Import…` opens a dialog where a BibTeX, RIS or
 * CSL-JSON file is chosen or dropped; the app sends it as a dry run and shows what would happen (new,
 * duplicates and of what, unreadable entries with their line and reason, entries past the workspace's
 * room); `Import N` sends it for real, the library is read again, and a toast says what was done.
 * Closing the dialog (Cancel, Escape, or after the import) returns focus to `Import…`.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState, type DragEvent } from 'react';
import { FormAlert } from '../../../components/Field';
import { useToast } from '../../../components/Toasts';
import { plural } from '../../../lib/plural';
import {
  fileProblem,
  IMPORT_MAX_MB,
  importErrorMessage,
  useImport,
  usePreviewImport,
  type ImportEntry,
  type ImportReport,
} from '../hooks/use-import';
import '../import.css';

/** Each list shows this many entries and says how many more there are: a file may hold 5,000. */
const LIST_LIMIT = 100;
const ACCEPT =
  '.bib,.bibtex,.ris,.json,application/x-bibtex,application/x-research-info-systems,application/vnd.citationstyles.csl+json,application/json,text/plain';
const FORMAT_NAMES: Record<ImportReport['format'], string> = {
  bibtex: 'BibTeX',
  ris: 'RIS',
  csljson: 'CSL-JSON',
};

function where(entry: ImportEntry): string {
  const parts = [
    entry.line !== null ? `line ${entry.line}` : `item ${entry.index + 1}`,
    entry.key,
  ].filter(Boolean);
  return parts.join(', ');
}

function EntryList({
  title,
  entries,
  render,
}: {
  title: string;
  entries: ImportEntry[];
  render: (entry: ImportEntry) => string;
}) {
  const headingId = useId();
  if (entries.length === 0) return null;
  const shown = entries.slice(0, LIST_LIMIT);
  return (
    <section aria-labelledby={headingId} className="import-list">
      <h3 id={headingId}>
        {title} ({entries.length.toLocaleString('en-US')})
      </h3>
      <ul>
        {shown.map((entry) => (
          <li key={entry.index}>{render(entry)}</li>
        ))}
      </ul>
      {entries.length > shown.length && (
        <p className="muted">
          and {plural(entries.length - shown.length, 'more entry', 'more entries')}
        </p>
      )}
    </section>
  );
}

function describeResource(entry: ImportEntry): string {
  if (!('resource' in entry)) return '';
  const { title, authors, year } = entry.resource;
  const byline = [authors.length > 1 ? `${authors[0]} et al.` : authors[0], year]
    .filter(Boolean)
    .join(', ');
  return byline ? `${title} (${byline})` : title;
}

function Preview({ report, fileName }: { report: ImportReport; fileName: string }) {
  const { counts, entries } = report;
  const byOutcome = (...outcomes: Array<ImportEntry['outcome']>) =>
    entries.filter((entry) => outcomes.includes(entry.outcome));
  return (
    <div className="import-preview">
      <p role="status">
        {fileName} ({FORMAT_NAMES[report.format]}): {plural(counts.entries, 'entry', 'entries')}.
      </p>
      {report.encoding !== 'utf-8' && (
        <p className="muted">
          The file is not UTF-8: it was read as {report.encoding}. Check that accented names look
          right below.
        </p>
      )}
      <ul className="import-counts" aria-label="What the import would do">
        <li>
          <strong>{counts.imported.toLocaleString('en-US')}</strong> new
        </li>
        <li>
          <strong>{counts.duplicates.toLocaleString('en-US')}</strong>{' '}
          {counts.duplicates === 1 ? 'duplicate' : 'duplicates'}
        </li>
        <li>
          <strong>{counts.unreadable.toLocaleString('en-US')}</strong> unreadable
        </li>
        <li>
          <strong>{counts.noRoom.toLocaleString('en-US')}</strong> without room
        </li>
      </ul>
      <EntryList
        title="New"
        entries={byOutcome('would_import', 'imported')}
        render={describeResource}
      />
      <EntryList
        title="Duplicates, not added"
        entries={byOutcome('duplicate')}
        render={(entry) => {
          if (entry.outcome !== 'duplicate') return '';
          const of =
            entry.duplicateOf.entryIndex !== null
              ? `repeats entry ${entry.duplicateOf.entryIndex + 1} of the file`
              : `already here as “${entry.duplicateOf.title}”`;
          return `${describeResource(entry)}: ${of}`;
        }}
      />
      <EntryList
        title="Unreadable, not added"
        entries={byOutcome('unreadable')}
        render={(entry) => `${where(entry)}: ${entry.outcome === 'unreadable' ? entry.reason : ''}`}
      />
      <EntryList
        title="No room in the workspace, not added"
        entries={byOutcome('no_room')}
        render={(entry) =>
          `${describeResource(entry)}: ${entry.outcome === 'no_room' ? entry.reason : ''}`
        }
      />
    </div>
  );
}

export function ImportButton({ workspaceId }: { workspaceId: string }) {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const preview = usePreviewImport(workspaceId);
  const run = useImport(workspaceId);
  const toast = useToast();
  const inputId = useId();
  const hintId = useId();

  const reset = () => {
    setFile(null);
    setProblem(null);
    setDragging(false);
    preview.reset();
    run.reset();
  };
  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    run.reset();
    setFile(chosen);
    const found = fileProblem(chosen);
    setProblem(found);
    if (found) preview.reset();
    else preview.mutate(chosen);
  };
  // Drops here are the dialog's: the workspace under it takes dropped PDFs.
  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };
  const confirm = () => {
    if (!file) return;
    run.mutate(file, {
      onSuccess: (report) => {
        const skipped = report.counts.entries - report.counts.imported;
        toast(
          `Imported ${plural(report.counts.imported, 'resource')} from ${file.name}${skipped > 0 ? `; ${plural(skipped, 'entry', 'entries')} not added` : ''}`,
        );
        setOpen(false);
        reset();
      },
    });
  };
  const report = preview.data;
  const error =
    problem ??
    (preview.isError
      ? importErrorMessage(preview.error)
      : run.isError
        ? importErrorMessage(run.error)
        : null);

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <Dialog.Trigger className="button">Import…</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog import-dialog"
          aria-describedby={hintId}
          onDragOver={onDragOver}
          onDrop={onDrop}
          onDragLeave={() => setDragging(false)}
        >
          <Dialog.Title>Import citations</Dialog.Title>
          <p id={hintId}>
            A BibTeX (.bib), RIS (.ris) or CSL-JSON (.json) file exported from Zotero, Mendeley or
            JabRef, up to {IMPORT_MAX_MB} MB and 5,000 entries. You see what it holds before
            anything is added; entries already here are not added twice.
          </p>
          <div className={`import-drop${dragging ? ' import-drop-active' : ''}`}>
            <label htmlFor={inputId}>Citation file</label>
            <input
              id={inputId}
              type="file"
              accept={ACCEPT}
              disabled={preview.isPending || run.isPending}
              onChange={(event) => {
                choose(event.target.files?.[0]);
                // The same file chosen again (after a change on disk) is read again.
                event.target.value = '';
              }}
            />
            <p className="muted">or drop the file here</p>
          </div>
          {preview.isPending && (
            <p role="status">
              <span className="spinner" aria-hidden="true" /> Reading {file?.name}…
            </p>
          )}
          {error && <FormAlert>{error}</FormAlert>}
          {report && file && !preview.isPending && <Preview report={report} fileName={file.name} />}
          <div className="dialog-actions">
            {report && report.counts.imported > 0 && (
              <button
                type="button"
                className="button button-primary"
                disabled={run.isPending}
                aria-busy={run.isPending || undefined}
                onClick={confirm}
              >
                {run.isPending
                  ? 'Importing…'
                  : `Import ${plural(report.counts.imported, 'resource')}`}
              </button>
            )}
            {report && report.counts.imported === 0 && (
              <p className="muted">Nothing new to import.</p>
            )}
            <Dialog.Close className="button">{report ? 'Cancel' : 'Close'}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
