/**
 * A workspace's likely duplicates, to merge (features/workspaces DuplicatesView): its own page,
 * `/workspaces/:id/duplicates`, reached from the library's `Duplicate items`.
 */
import { Link, useParams } from 'react-router';
import { isNotFound } from '../../api/errors';
import { Page } from '../../components/Page';
import { ErrorState, LoadingState } from '../../components/States';
import { WorkspaceRoleProvider } from '../../lib/workspace-role';
import { DuplicatesView } from '../../features/workspaces/components/DuplicatesView';
import { useWorkspace } from '../../features/workspaces/hooks/use-workspaces';
import '../../features/features.css';
import { NotFoundPage } from '../NotFoundPage';

export function DuplicatesPage() {
  const { id = '' } = useParams();
  const workspace = useWorkspace(id);

  if (workspace.isPending) {
    return (
      <Page title="Duplicate items">
        <LoadingState label="Loading the workspace…" />
      </Page>
    );
  }
  if (workspace.isError && isNotFound(workspace.error)) {
    return (
      <NotFoundPage
        title="Workspace not found"
        message="There is no workspace of yours at this address: it may have been deleted."
        back={{ to: '/workspaces', label: 'All workspaces' }}
      />
    );
  }
  if (workspace.isError) {
    return (
      <Page title="Duplicate items">
        <ErrorState error={workspace.error} onRetry={() => void workspace.refetch()} />
      </Page>
    );
  }
  const data = workspace.data;
  return (
    <Page title={`Duplicate items · ${data.name}`} heading="Duplicate items">
      <WorkspaceRoleProvider role={data.role}>
        <p>
          <Link to={`/workspaces/${data.id}`}>← {data.name}</Link>
        </p>
        <DuplicatesView workspaceId={data.id} />
      </WorkspaceRoleProvider>
    </Page>
  );
}
