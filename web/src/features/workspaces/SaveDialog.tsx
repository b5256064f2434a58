/**
 * Save a search result to one of the user's workspaces, or to a new one named on the spot. The
 * same work saved twice is answered 409 by the API: the dialog says it is already there.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError, describeError } from '../../api/errors';
import { TextField } from '../../components/Field';
import { useToast } from '../../components/Toasts';
import type { SearchResult } from '../../api/types';
import { useAddResource, useCreateWorkspace, useWorkspaces, type NewResource } from './use-workspaces';
import '../features.css';
import { SubmitButton } from '../../components/SubmitButton';

const NEW = '__new__';

/** The resource body for a search result: its facts, and the identifiers the API recognises a work by. */
function resourceFromResult(result: SearchResult): NewResource {
  const data = Object.fromEntries(
    Object.entries({
      provider: result.provider,
      sourceId: result.id,
      sources: result.sources,
      abstract: result.abstract,
      publishedDate: result.publishedDate,
      citations: result.citations,
      venue: result.venue,
      doi: result.doi,
      arxivId: result.arxivId,
      pmid: result.pmid,
      pdfUrl: result.pdfUrl,
    }).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
  return {
    title: result.title,
    ...(result.url ? { url: result.url } : {}),
    ...(result.type ? { type: result.type } : {}),
    authors: result.authors.slice(0, 50),
    data,
  };
}

export function SaveDialog({ result, onClose }: { result: SearchResult | null; onClose: () => void }) {
  const workspaces = useWorkspaces();
  const createWorkspace = useCreateWorkspace();
  const addResource = useAddResource();
  const { reset: resetAddResource } = addResource;
  const { reset: resetCreateWorkspace } = createWorkspace;
  const toast = useToast();
  const [choice, setChoice] = useState('');
  const [newName, setNewName] = useState('');
  const [saved, setSaved] = useState<{ id: string; name: string } | null>(null);

  useEffect(() => {
    if (!result) return;
    setSaved(null);
    resetAddResource();
    resetCreateWorkspace();
  }, [result, resetAddResource, resetCreateWorkspace]);
  useEffect(() => {
    if (choice === '' && workspaces.data) setChoice(workspaces.data[0]?.id ?? NEW);
  }, [choice, workspaces.data]);

  const error = createWorkspace.error ?? addResource.error;
  const alreadyThere = error instanceof ApiError && error.status === 409;
  const pending = createWorkspace.isPending || addResource.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!result) return;
    setSaved(null);
    let target: { id: string; name: string };
    try {
      if (choice === NEW) {
        const created = await createWorkspace.mutateAsync(newName.trim());
        target = { id: created.id, name: created.name };
        setChoice(created.id);
        setNewName('');
      } else {
        const existing = workspaces.data?.find((workspace) => workspace.id === choice);
        if (!existing) return;
        target = { id: existing.id, name: existing.name };
      }
      await addResource.mutateAsync({ workspaceId: target.id, resource: resourceFromResult(result) });
      setSaved(target);
      toast(`Saved to ${target.name}`);
    } catch {
      // Shown below from the mutation's error.
    }
  };

  const chosenName = workspaces.data?.find((workspace) => workspace.id === choice)?.name;
  return (
    <Dialog.Root open={result !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title>Save to a workspace</Dialog.Title>
          {result && <p className="summary-of">{result.title}</p>}
          {workspaces.isPending && <p role="status">Loading your workspaces…</p>}
          {workspaces.isError && (
            <div className="state state-error" role="alert">
              <p>{describeError(workspaces.error)}</p>
              <button type="button" className="button" onClick={() => void workspaces.refetch()}>
                Try again
              </button>
            </div>
          )}
          {workspaces.data && (
            <form className="form" onSubmit={(event) => void submit(event)}>
              <div className="field">
                <label htmlFor="save-workspace">Workspace</label>
                <select id="save-workspace" value={choice} onChange={(event) => setChoice(event.target.value)}>
                  {workspaces.data.map((workspace) => (
                    <option key={workspace.id} value={workspace.id}>
                      {workspace.name} ({workspace._count.resources})
                    </option>
                  ))}
                  <option value={NEW}>New workspace…</option>
                </select>
              </div>
              {choice === NEW && (
                <TextField
                  label="New workspace name"
                  required
                  maxLength={200}
                  value={newName}
                  onChange={(event) => setNewName(event.target.value)}
                  error={createWorkspace.error instanceof ApiError && createWorkspace.error.field ? createWorkspace.error.message : null}
                />
              )}
              {saved && (
                <p className="form-notice" role="status">
                  Saved to <Link to={`/workspaces/${saved.id}`}>{saved.name}</Link>.
                </p>
              )}
              {alreadyThere && (
                <p className="form-notice" role="status">
                  This work is already in {chosenName ? <Link to={`/workspaces/${choice}`}>{chosenName}</Link> : 'that workspace'}.
                </p>
              )}
              {error && !alreadyThere && (
                <p className="form-alert" role="alert">
                  {describeError(error)}
                </p>
              )}
              <div className="dialog-actions">
                <SubmitButton pending={pending} pendingLabel="Saving…" disabled={(choice === NEW && newName.trim() === '')}>
                  Save
                </SubmitButton>
                <Dialog.Close className="button">Close</Dialog.Close>
              </div>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
