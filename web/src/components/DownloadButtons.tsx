/**
 * A row of buttons that each download a file (a workspace's exports, one's account data): one file at
 * a time, the pressed button busy while its file is prepared (said to screen readers too), and why
 * it failed under them.
 */
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';

export interface DownloadChoice<K extends string> {
  key: K;
  /** The button's words. */
  label: string;
  /** The file's kind, as "Preparing the <what> file…" says it. */
  what: string;
}

export function DownloadButtons<K extends string>({
  choices,
  download,
  failure,
}: {
  choices: readonly DownloadChoice<K>[];
  /** Fetches and saves the file of a choice (downloadReply in api/download.ts). */
  download: (key: K) => Promise<void>;
  /** The alert shown when a download failed. */
  failure: (error: Error) => ReactNode;
}) {
  const mutation = useMutation({ mutationFn: download });
  const pending = mutation.isPending ? mutation.variables : null;
  const pendingWhat = choices.find((choice) => choice.key === pending)?.what;
  return (
    <>
      <p className="export-links">
        {choices.map((choice) => (
          <button
            key={choice.key}
            type="button"
            className="button"
            // aria-disabled, not disabled: the focus stays on the button while its file is prepared.
            aria-disabled={pending !== null}
            aria-busy={pending === choice.key}
            onClick={() => {
              if (pending === null) mutation.mutate(choice.key);
            }}
          >
            {pending === choice.key && <span className="spinner" aria-hidden="true" />}
            {choice.label}
          </button>
        ))}
      </p>
      <p className="visually-hidden" role="status">
        {pendingWhat ? `Preparing the ${pendingWhat} file…` : ''}
      </p>
      {mutation.isError && (
        <p className="field-error" role="alert">
          {failure(mutation.error)}
        </p>
      )}
    </>
  );
}
