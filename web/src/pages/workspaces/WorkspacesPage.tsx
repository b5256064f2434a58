/** The user's workspaces with their counts; create, rename and delete (after a confirmation). */
import { useState } from 'react';
import { Link } from 'react-router';
import { useDraftField, useHasDraft } from '../../lib/drafts';
import { TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { EmptyState, ErrorState, LoadingState } from '../../components/States';
import { useToast } from '../../components/Toasts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { RoleBadge } from '../../components/RoleBadge';
import { RenameForm, renameDraftKey } from '../../features/workspaces/components/RenameForm';
import {
  useCreateWorkspace,
  useDeleteWorkspace,
  useWorkspaces,
  type Workspace,
} from '../../features/workspaces/hooks/use-workspaces';
import '../../features/features.css';
import { SubmitButton } from '../../components/SubmitButton';
import { WorkspaceNameForm } from '../../features/workspaces/schemas';
import { keepDraft, submitWith, useZodForm } from '../../lib/form';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

const NEW_WORKSPACE_DRAFT = 'workspace:new';

function NewWorkspaceForm({ onDone }: { onDone: () => void }) {
  const draft = useDraftField(NEW_WORKSPACE_DRAFT, '');
  const form = useZodForm(WorkspaceNameForm, { defaultValues: { name: draft.value } });
  const create = useCreateWorkspace();
  const toast = useToast();
  const { errors, isSubmitting, isValid } = form.formState;
  const finish = () => {
    draft.discard();
    onDone();
  };
  const submit = submitWith(form, { allAt: 'name' }, async (values) => {
    const workspace = await create.mutateAsync(values.name);
    toast(`Created ${workspace.name}`);
    finish();
  });
  return (
    <form className="inline-form card" onSubmit={(event) => void submit(event)}>
      <TextField
        label="Name"
        required
        maxLength={200}
        autoFocus
        {...form.register('name', { onChange: keepDraft(draft) })}
        error={errors.name?.message}
      />
      <SubmitButton pending={isSubmitting} pendingLabel="Creating…" disabled={!isValid}>
        Create
      </SubmitButton>
      <button type="button" className="button" onClick={finish}>
        Cancel
      </button>
    </form>
  );
}

function WorkspaceRow({
  workspace,
  onDelete,
}: {
  workspace: Workspace;
  onDelete: (workspace: Workspace) => void;
}) {
  const [renaming, setRenaming] = useState(useHasDraft(renameDraftKey(workspace.id)));
  return (
    <li className="card workspace-row">
      {renaming ? (
        <RenameForm
          id={workspace.id}
          name={workspace.name}
          version={workspace.version}
          onDone={() => setRenaming(false)}
        />
      ) : (
        <>
          <div>
            <h2 className="workspace-name">
              <Link to={`/workspaces/${workspace.id}`}>{workspace.name}</Link>
              <RoleBadge role={workspace.role} />
            </h2>
            <p className="muted">
              {plural(workspace._count.resources, 'resource')} ·{' '}
              {plural(workspace._count.shares, 'live share link')}
            </p>
          </div>
          {/* Renaming and deleting are the owner's (POLICY workspace.update and delete). */}
          {workspace.role === 'owner' && (
            <div className="row-actions">
              <button
                type="button"
                className="button"
                aria-label={`Rename ${workspace.name}`}
                onClick={() => setRenaming(true)}
              >
                Rename
              </button>
              <button
                type="button"
                className="button button-danger"
                aria-label={`Delete ${workspace.name}`}
                onClick={() => onDelete(workspace)}
              >
                Delete
              </button>
            </div>
          )}
        </>
      )}
    </li>
  );
}

export function WorkspacesPage() {
  const workspaces = useWorkspaces();
  const remove = useDeleteWorkspace();
  const toast = useToast();
  const [creating, setCreating] = useState(useHasDraft(NEW_WORKSPACE_DRAFT));
  const [deleting, setDeleting] = useState<Workspace | null>(null);
  return (
    <Page
      title="Workspaces"
      actions={
        <button
          type="button"
          className="button button-primary"
          onClick={() => setCreating(true)}
          disabled={creating}
        >
          New workspace
        </button>
      }
    >
      {creating && <NewWorkspaceForm onDone={() => setCreating(false)} />}
      {workspaces.isPending && <LoadingState label="Loading your workspaces…" />}
      {workspaces.isError && (
        <ErrorState error={workspaces.error} onRetry={() => void workspaces.refetch()} />
      )}
      {workspaces.data?.length === 0 && (
        <EmptyState title="No workspaces yet">
          Create one, or save a search result into a new one.
        </EmptyState>
      )}
      {workspaces.data && workspaces.data.length > 0 && (
        <ul className="workspace-list">
          {workspaces.data.map((workspace) => (
            <WorkspaceRow key={workspace.id} workspace={workspace} onDelete={setDeleting} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'workspace'}?`}
        pending={remove.isPending}
        error={remove.error}
        onCancel={() => {
          setDeleting(null);
          remove.reset();
        }}
        onConfirm={() =>
          deleting &&
          remove.mutate(
            { id: deleting.id, version: deleting.version },
            {
              onSuccess: () => {
                toast(`Deleted ${deleting.name}`);
                setDeleting(null);
              },
            },
          )
        }
      >
        Its resources, annotations and share links are deleted too. This cannot be undone.
      </ConfirmDialog>
    </Page>
  );
}
