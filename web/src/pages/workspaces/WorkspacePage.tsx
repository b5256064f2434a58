/** One workspace: rename, delete, its library (the resources as a sortable, filterable list with a detail panel), export (BibTeX, RIS, CSL-JSON downloads) and share links. */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isNotFound } from '../../api/errors';
import { useHasDraft } from '../../app/drafts';
import { Page } from '../../components/Page';
import { ErrorState, LoadingState } from '../../components/States';
import { useToast } from '../../components/Toasts';
import { ConfirmDialog } from '../../features/workspaces/ConfirmDialog';
import { ExportButtons } from '../../features/workspaces/ExportButtons';
import { RenameForm, renameDraftKey } from '../../features/workspaces/RenameForm';
import { LibraryView } from '../../features/workspaces/LibraryView';
import { ShareLinks } from '../../features/workspaces/ShareLinks';
import { useDeleteWorkspace, useWorkspace } from '../../features/workspaces/use-workspaces';
import '../../features/features.css';
import { NotFoundPage } from '../NotFoundPage';

export function WorkspacePage() {
  const { id = '' } = useParams();
  const workspace = useWorkspace(id);
  const remove = useDeleteWorkspace();
  const navigate = useNavigate();
  const toast = useToast();
  const [renaming, setRenaming] = useState(useHasDraft(renameDraftKey(id)));
  const [confirming, setConfirming] = useState(false);

  if (workspace.isPending) {
    return (
      <Page title="Workspace">
        <LoadingState label="Loading the workspace…" />
      </Page>
    );
  }
  if (workspace.isError && isNotFound(workspace.error)) {
    return <NotFoundPage title="Workspace not found" message="There is no workspace of yours at this address: it may have been deleted." back={{ to: '/workspaces', label: 'All workspaces' }} />;
  }
  if (workspace.isError) {
    return (
      <Page title="Workspace">
        <ErrorState error={workspace.error} onRetry={() => void workspace.refetch()} />
        <p>
          <Link to="/workspaces">All workspaces</Link>
        </p>
      </Page>
    );
  }
  const data = workspace.data;
  return (
    <Page
      title={data.name}
      actions={
        !renaming && (
          <>
            <button type="button" className="button" onClick={() => setRenaming(true)}>
              Rename
            </button>
            <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
              Delete
            </button>
          </>
        )
      }
    >
      <p>
        <Link to="/workspaces">← All workspaces</Link>
      </p>
      {renaming && <RenameForm id={data.id} name={data.name} onDone={() => setRenaming(false)} />}
      {/* Actions on the whole library (importing a file) go in `tools`, beside the filters. */}
      <LibraryView workspaceId={data.id} resourceCount={data.resourceCount} />
      <section aria-labelledby="export-heading" className="card">
        <h2 id="export-heading">Export</h2>
        <ExportButtons workspaceId={data.id} workspaceName={data.name} />
      </section>
      <ShareLinks workspaceId={data.id} />
      <ConfirmDialog
        open={confirming}
        title={`Delete ${data.name}?`}
        pending={remove.isPending}
        error={remove.error}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(data.id, {
            onSuccess: () => {
              toast(`Deleted ${data.name}`);
              void navigate('/workspaces', { replace: true });
            },
          })
        }
      >
        Its resources, annotations and share links are deleted too. This cannot be undone.
      </ConfirmDialog>
    </Page>
  );
}
