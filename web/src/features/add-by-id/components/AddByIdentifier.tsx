/**
 * Adding papers by identifier, as Zotero's "Add Item by Identifier": `Add by identifier…` opens a
 * dialog where DOIs, arXiv ids, PMIDs, OpenAlex ids or URLs are pasted, one a line (at most
 * MAX_IDENTIFIERS). `Look up` asks GET /api/resources/lookup for each and shows what was found
 * (title, authors, year, venue) or, as a sentence, why not: not recognised, not found, the providers
 * did not answer. `Add` adds the ones found (POST …/resources by `resourceId`) and says of each
 * whether it was added or already in the workspace.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { ApiError, describeError } from '../../../api/errors';
import type { SearchResult } from '../../../api/types';
import { invalidateWorkspaces } from '../../../api/workspace-cache';
import { shortAuthors } from '../../../lib/authors';
import { plural } from '../../../lib/plural';
import '../add-by-id.css';

const MAX_IDENTIFIERS = 10;

type Outcome =
  | {
      identifier: string;
      kind: 'found';
      resource: SearchResult;
      added?: 'added' | 'already';
      failure?: string;
    }
  | { identifier: string; kind: 'problem'; message: string };

/** The lines typed, trimmed, blank ones and repeats dropped. */
function identifiersOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
}

function lookupProblem(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 400)
      return 'Not recognised: give a DOI, arXiv id, PMID, OpenAlex id or a URL.';
    if (error.status === 404) return 'Nothing was found for this identifier.';
    if (error.status === 503)
      return 'The sources that know this identifier did not answer. Try again later.';
  }
  return `The lookup failed: ${describeError(error)}`;
}

async function lookUp(identifier: string): Promise<Outcome> {
  try {
    const { resource } = await unwrap(
      api.GET('/api/resources/lookup', { params: { query: { id: identifier } } }),
    );
    return { identifier, kind: 'found', resource };
  } catch (error) {
    return { identifier, kind: 'problem', message: lookupProblem(error) };
  }
}

function Found({ resource }: { resource: SearchResult }) {
  const byline = [
    shortAuthors(resource.authors),
    resource.publishedDate?.slice(0, 4),
    resource.venue,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <>
      <strong className="add-by-id-title">{resource.title}</strong>
      {byline && <span className="muted"> {byline}</span>}
    </>
  );
}

export function AddByIdentifierButton({ workspaceId }: { workspaceId: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  const queryClient = useQueryClient();
  const ids = { field: useId(), hint: useId(), error: useId() };
  const identifiers = identifiersOf(text);
  const tooMany = identifiers.length > MAX_IDENTIFIERS;

  const lookup = useMutation({
    mutationFn: (list: string[]) => Promise.all(list.map(lookUp)),
    onSuccess: setOutcomes,
  });
  const add = useMutation({
    mutationFn: async (found: Outcome[]) => {
      const done: Outcome[] = [];
      // One after another: two identifiers of the same work are then one added, one already there.
      for (const outcome of found) {
        if (outcome.kind !== 'found' || outcome.added) {
          done.push(outcome);
          continue;
        }
        try {
          await unwrap(
            api.POST('/api/workspaces/{id}/resources', {
              params: { path: { id: workspaceId } },
              body: { resourceId: outcome.identifier },
            }),
          );
          done.push({ ...outcome, added: 'added' });
        } catch (error) {
          const already =
            error instanceof ApiError &&
            error.status === 409 &&
            error.details.reason === 'duplicate';
          done.push(
            already
              ? { ...outcome, added: 'already' }
              : { ...outcome, failure: `Not added: ${describeError(error)}` },
          );
        }
      }
      return done;
    },
    onSuccess: async (done) => {
      setOutcomes(done);
      await invalidateWorkspaces(queryClient, [workspaceId]);
    },
  });

  const reset = () => {
    setText('');
    setOutcomes(null);
    lookup.reset();
    add.reset();
  };
  const found = (outcomes ?? []).filter((outcome) => outcome.kind === 'found');
  const toAdd = found.filter((outcome) => !outcome.added);
  const busy = lookup.isPending || add.isPending;
  const error = tooMany
    ? `At most ${MAX_IDENTIFIERS} identifiers at once: ${identifiers.length} are given. Remove ${identifiers.length - MAX_IDENTIFIERS}.`
    : null;

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <Dialog.Trigger className="button">Add by identifier…</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog add-by-id-dialog" aria-describedby={undefined}>
          <Dialog.Title>Add by identifier</Dialog.Title>
          <form
            className="form"
            onSubmit={(event) => {
              event.preventDefault();
              if (!busy && !tooMany && identifiers.length > 0) {
                setOutcomes(null);
                lookup.mutate(identifiers);
              }
            }}
          >
            <div className={`field${error ? ' field-invalid' : ''}`}>
              <label htmlFor={ids.field}>Identifiers</label>
              <textarea
                id={ids.field}
                rows={4}
                value={text}
                maxLength={MAX_IDENTIFIERS * 2_100}
                aria-invalid={error ? true : undefined}
                aria-describedby={[ids.hint, error ? ids.error : null].filter(Boolean).join(' ')}
                onChange={(event) => setText(event.target.value)}
              />
              <p id={ids.hint} className="field-hint">
                DOI, arXiv id, PMID, OpenAlex id or URL; one a line, up to {MAX_IDENTIFIERS}.
              </p>
              {error && (
                <p id={ids.error} className="field-error">
                  {error}
                </p>
              )}
            </div>
            <div className="dialog-actions">
              <button
                type="submit"
                className="button"
                aria-disabled={busy || tooMany || identifiers.length === 0 || undefined}
              >
                {lookup.isPending && <span className="spinner" aria-hidden="true" />}
                Look up
              </button>
            </div>
          </form>
          <div aria-live="polite">
            {lookup.isPending && (
              <p role="status">Looking up {plural(identifiers.length, 'identifier')}…</p>
            )}
            {outcomes && (
              <ul className="add-by-id-list" aria-label="What was found">
                {outcomes.map((outcome) => (
                  <li key={outcome.identifier}>
                    <code className="add-by-id-identifier">{outcome.identifier}</code>
                    {outcome.kind === 'found' ? (
                      <>
                        <Found resource={outcome.resource} />
                        {outcome.added === 'added' && <span className="badge">Added</span>}
                        {outcome.added === 'already' && (
                          <span className="badge">Already in this workspace</span>
                        )}
                        {outcome.failure && <span className="field-error">{outcome.failure}</span>}
                      </>
                    ) : (
                      <span className="field-error">{outcome.message}</span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="dialog-actions">
            {outcomes && toAdd.length > 0 && (
              <button
                type="button"
                className="button button-primary"
                aria-disabled={busy || undefined}
                onClick={() => !busy && add.mutate(outcomes)}
              >
                {add.isPending && <span className="spinner" aria-hidden="true" />}
                Add {plural(toAdd.length, 'paper')}
              </button>
            )}
            <Dialog.Close className="button">Close</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
