/**
 * The Summary dialog: choose quick, deep or auto; the summary streams in as the events arrive (deep
 * work shows its stages first); says when it came from a cache. A server `error` event of a quick
 * summary closes the dialog and hands the message to the page, which shows it in an alert; one of a
 * deep (or auto) summary is told in the dialog, which keeps the quick summary it showed before.
 * Closing the dialog closes the stream. A result already in the library offers `Save to notes`
 * (SaveToNotes.tsx) once a summary is on screen.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState } from 'react';
import type { SearchResult } from '../../../api/types';
import { SaveToNotes, summaryNote } from './SaveToNotes';
import {
  isStored,
  useSummaryStream,
  type ProgressStage,
  type SummaryMode,
  type SummaryState,
  type SummarySubject,
} from '../hooks/use-summary-stream';
import { useDialogFocusReturn } from '../../../components/dialog-focus';
import '../../features.css';

const MODES: Array<{ value: SummaryMode; label: string; hint: string }> = [
  { value: 'quick', label: 'Quick', hint: 'title and abstract' },
  { value: 'deep', label: 'Deep', hint: 'the full text (PDF)' },
  { value: 'auto', label: 'Auto', hint: 'deep when a PDF is found' },
];
const STAGE_TEXT: Record<ProgressStage, string> = {
  fetching: 'Fetching the PDF',
  extracting: 'Extracting its text',
  summarizing: 'Summarising',
};

/** A summary's text as shown: TL;DR, key points and tags. */
function SummaryText({ tldr, bullets, tags }: Pick<SummaryState, 'tldr' | 'bullets' | 'tags'>) {
  return (
    <>
      {tldr !== null && (
        <section aria-label="TL;DR">
          <h3>TL;DR</h3>
          <p className="summary-tldr">{tldr}</p>
        </section>
      )}
      {bullets && (
        <section aria-label="Key points">
          <h3>Key points</h3>
          <ul className="summary-bullets">
            {bullets.map((bullet, index) => (
              <li key={index}>{bullet}</li>
            ))}
          </ul>
        </section>
      )}
      {tags && tags.length > 0 && (
        <ul className="badges" aria-label="Tags">
          {tags.map((tag) => (
            <li key={tag} className="badge">
              {tag}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function SummaryDialog({
  result,
  onClose,
  onServerError,
  initialMode = 'quick',
}: {
  result: SummarySubject | null;
  onClose: () => void;
  onServerError: (message: string) => void;
  /** The mode it opens in: `deep` for a kept resource's stored PDF. */
  initialMode?: SummaryMode;
}) {
  const returnFocus = useDialogFocusReturn();
  const [mode, setMode] = useState<SummaryMode>(initialMode);
  const [attempt, setAttempt] = useState(0);
  const searchResult: SearchResult | null = result && !isStored(result) ? result : null;
  // A quick summary is made from the abstract: without one there is nothing to summarise (the title
  // alone would come back as its own TL;DR); the full text may be, when the result names its PDF.
  // A kept resource's abstract is the service's to read.
  const noAbstract = mode === 'quick' && searchResult !== null && !searchResult.abstract.trim();
  const pdfKnown = Boolean(searchResult?.arxivId || searchResult?.pdfUrl || searchResult?.doi);
  const stream = useSummaryStream(noAbstract ? null : result, mode, attempt);
  // Until the new stream starts, the state is the last mode's: not shown, and its error not this mode's.
  const summary = stream?.mode === mode ? stream : null;
  // The last finished quick summary of this result, kept on screen should a deep one fail.
  const [quick, setQuick] = useState<{ of: SummarySubject; summary: SummaryState } | null>(null);
  if (
    result &&
    summary?.status === 'done' &&
    summary.modeUsed === 'quick' &&
    quick?.summary !== summary
  )
    setQuick({ of: result, summary });
  const keptQuick = quick && quick.of === result ? quick.summary : null;
  const deepFailed = mode !== 'quick' && summary?.error?.fromServer ? summary.error.message : null;

  // What "Save to notes" saves: the summary on screen (the kept quick one when a deep one failed).
  const shown = deepFailed ? keptQuick : summary?.status === 'done' ? summary : null;
  // A kept resource saves into its own notes; a search result into each place it is kept.
  const places =
    result && isStored(result)
      ? !result.notesWritable
        ? []
        : [
            {
              workspaceId: result.workspaceId,
              workspaceName: result.workspaceName,
              resourceId: result.resourceId,
            },
          ]
      : (searchResult?.inLibrary ?? []);
  const hasText = Boolean(shown && (shown.tldr || shown.bullets?.length));

  useEffect(() => {
    if (mode === 'quick' && summary?.error?.fromServer) onServerError(summary.error.message);
  }, [mode, summary?.error, onServerError]);

  return (
    <Dialog.Root open={result !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog summary-dialog"
          aria-describedby={undefined}
          {...returnFocus}
        >
          <Dialog.Title>Summary</Dialog.Title>
          {result && <p className="summary-of">{result.title}</p>}
          <fieldset className="mode-choice">
            <legend>Mode</legend>
            {MODES.map((option) => (
              <label key={option.value}>
                <input
                  type="radio"
                  name="summary-mode"
                  value={option.value}
                  checked={mode === option.value}
                  onChange={() => setMode(option.value)}
                />
                {option.label} <span className="muted">({option.hint})</span>
              </label>
            ))}
          </fieldset>
          <div
            className="summary-body"
            aria-live="polite"
            aria-busy={summary?.status === 'streaming'}
          >
            {noAbstract && (
              <div className="state" role="status">
                <p>
                  {pdfKnown
                    ? 'This result has no abstract to summarise; its full text may be.'
                    : 'There is nothing to summarise: this result has no abstract and names no PDF.'}
                </p>
                {pdfKnown && (
                  <button
                    type="button"
                    className="button button-primary"
                    onClick={() => setMode('deep')}
                  >
                    Summarise the full text (deep)
                  </button>
                )}
              </div>
            )}
            {summary?.status === 'streaming' && (
              <p role="status" className="state-loading">
                <span className="spinner" aria-hidden="true" />{' '}
                {summary.stages.length > 0
                  ? `${STAGE_TEXT[summary.stages.at(-1)!]}…`
                  : 'Summarising…'}
              </p>
            )}
            {summary && summary.stages.length > 0 && (
              <ol className="stages" aria-label="Progress">
                {summary.stages.map((stage) => (
                  <li key={stage}>{STAGE_TEXT[stage]}</li>
                ))}
              </ol>
            )}
            {summary?.fromCache && (
              <p className="badge badge-cache">
                From the {summary.fromCache === 'kv' ? 'shared' : 'in-memory'} cache
              </p>
            )}
            {summary?.modeUsed && summary.modeUsed !== mode && (
              <p className="muted">Summarised in {summary.modeUsed} mode.</p>
            )}
            {summary && !deepFailed && (
              <SummaryText tldr={summary.tldr} bullets={summary.bullets} tags={summary.tags} />
            )}
            {deepFailed && (
              <div className="state state-error" role="alert">
                <p>
                  The {mode} summary could not be made: {deepFailed}
                </p>
                <button
                  type="button"
                  className="button"
                  onClick={() => setAttempt((count) => count + 1)}
                >
                  Try again
                </button>
                {!keptQuick && (
                  <button type="button" className="button" onClick={() => setMode('quick')}>
                    Show the quick summary
                  </button>
                )}
              </div>
            )}
            {deepFailed && keptQuick && (
              <section aria-label="Quick summary" className="summary-kept">
                <h3>Quick summary (title and abstract)</h3>
                <SummaryText
                  tldr={keptQuick.tldr}
                  bullets={keptQuick.bullets}
                  tags={keptQuick.tags}
                />
              </section>
            )}
            {summary?.status === 'done' && <p className="visually-hidden">Summary complete.</p>}
            {summary?.error && !summary.error.fromServer && (
              <div className="state state-error" role="alert">
                <p>{summary.error.message}</p>
                <button
                  type="button"
                  className="button"
                  onClick={() => setAttempt((count) => count + 1)}
                >
                  Try again
                </button>
              </div>
            )}
          </div>
          {shown && hasText && places.length > 0 && (
            <SaveToNotes
              key={`${result ? (isStored(result) ? result.resourceId : result.id) : ''}-${mode}`}
              places={places}
              text={summaryNote(shown, shown.modeUsed ?? 'quick')}
            />
          )}
          <div className="dialog-actions">
            <Dialog.Close className="button">Close</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
