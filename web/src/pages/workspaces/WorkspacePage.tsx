/**
 * One workspace: rename, delete, its library (the resources as a sortable, filterable list with a
 * detail panel), bringing a library in (papers by DOI, arXiv id, PMID or URL through `Add by
 * identifier…`; a citation file through `Import…`; PDFs dropped on the list or
 * chosen with `Add PDFs…`, each resource's PDF state in the list and its panel), export (BibTeX, RIS,
 * CSL-JSON downloads), citing the selection or one resource in a chosen style (Cite…) and share links;
 * a resource's references, citations and similar works in its panel, and "Suggested for this workspace".
 * Live: other members' changes appear without a reload and are said in one polite live region; a
 * workspace deleted, or the user removed from it, leaves for the workspace list (features/live-updates).
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isNotFound } from '../../api/errors';
import { useHasDraft } from '../../lib/drafts';
import { useSession } from '../../lib/session';
import { Page } from '../../components/Page';
import { ErrorState, LoadingState } from '../../components/States';
import { useToast } from '../../components/Toasts';
import { WorkspaceSuggestions } from '../../features/discover/components/WorkspaceSuggestions';
import { AddByIdentifierButton } from '../../features/add-by-id/components/AddByIdentifier';
import { CiteButton } from '../../features/cite/components/CiteDialog';
import { RelatedWorks } from '../../features/search/components/RelatedWorks';
import { ImportButton } from '../../features/import/components/ImportDialog';
import { MembersSection } from '../../features/members/components/MembersSection';
import { ActivitySection } from '../../features/activity/components/ActivitySection';
import { LiveAnnouncer } from '../../features/live-updates/components/LiveAnnouncer';
import { useWorkspaceChanges } from '../../features/live-updates/hooks/use-workspace-changes';
import { RoleBadge } from '../../components/RoleBadge';
import { abilitiesOf, WorkspaceRoleProvider } from '../../lib/workspace-role';
import { AddPdfsButton, PdfDropZone } from '../../features/pdfs-upload/components/PdfUploads';
import { PdfActions, PdfCell } from '../../features/pdfs-upload/components/PdfState';
import { StoredPdfSummary } from '../../features/summary/components/StoredPdfSummary';
import { usePdfUploads } from '../../features/pdfs-upload/hooks/use-pdfs';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ExportButtons } from '../../features/workspaces/components/ExportButtons';
import { RenameForm, renameDraftKey } from '../../features/workspaces/components/RenameForm';
import { LibraryView } from '../../features/workspaces/components/LibraryView';
import { ShareLinks } from '../../features/workspaces/components/ShareLinks';
import { useDeleteWorkspace, useWorkspace } from '../../features/workspaces/hooks/use-workspaces';
import '../../features/features.css';
import { NotFoundPage } from '../NotFoundPage';
import { useWorkDialogs } from './WorkDialogs';

export function WorkspacePage() {
  const { id = '' } = useParams();
  const workspace = useWorkspace(id);
  const remove = useDeleteWorkspace();
  const navigate = useNavigate();
  const toast = useToast();
  const [renaming, setRenaming] = useState(useHasDraft(renameDraftKey(id)));
  const [confirming, setConfirming] = useState(false);
  const uploads = usePdfUploads(id);
  const works = useWorkDialogs(id, workspace.data?.name ?? '');
  const session = useSession();
  const announcement = useWorkspaceChanges(id, {
    enabled: workspace.isSuccess,
    me: session.data?.id,
    workspaceName: workspace.data?.name ?? '',
    onLeave: (_change, message) => {
      if (message) toast(message);
      void navigate('/workspaces', { replace: true });
    },
  });

  if (workspace.isPending) {
    return (
      <Page title="Workspace">
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
      <Page title="Workspace">
        <ErrorState error={workspace.error} onRetry={() => void workspace.refetch()} />
        <p>
          <Link to="/workspaces">All workspaces</Link>
        </p>
      </Page>
    );
  }
  const data = workspace.data;
  // Only the controls the role allows (lib/workspace-role.tsx mirrors the service's policy table).
  const can = abilitiesOf(data.role);
  return (
    <Page
      title={data.name}
      wide
      actions={
        can.manageWorkspace &&
        !renaming && (
          <>
            <button type="button" className="button" onClick={() => setRenaming(true)}>
              Rename
            </button>
            <button
              type="button"
              className="button button-danger"
              onClick={() => setConfirming(true)}
            >
              Delete
            </button>
          </>
        )
      }
    >
      {/* Inside the Page, so that its h1 (focused while loading) stays the same element once loaded. */}
      <WorkspaceRoleProvider role={data.role}>
        <p>
          <Link to="/workspaces">← All workspaces</Link>
          <RoleBadge role={data.role} />
        </p>
        <LiveAnnouncer announcement={announcement} />
        {renaming && (
          <RenameForm
            id={data.id}
            name={data.name}
            version={data.version}
            onDone={() => setRenaming(false)}
          />
        )}
        <PdfDropZone uploads={uploads}>
          <LibraryView
            workspaceId={data.id}
            resourceCount={data.resourceCount}
            tools={
              can.edit && (
                <div className="row-actions">
                  <AddByIdentifierButton workspaceId={data.id} />
                  <ImportButton workspaceId={data.id} />
                  <AddPdfsButton uploads={uploads} />
                </div>
              )
            }
            pdfCell={(resource) => <PdfCell workspaceId={data.id} resource={resource} />}
            detailTools={(resource) => (
              <>
                <PdfActions key={resource.id} workspaceId={data.id} resource={resource} />
                {resource.pdf?.extraction === 'ready' && (
                  <StoredPdfSummary
                    key={`summary-${resource.id}`}
                    workspaceId={data.id}
                    workspaceName={data.name}
                    resource={resource}
                  />
                )}
                <p>
                  <CiteButton
                    workspaceId={data.id}
                    resourceIds={[resource.id]}
                    label="Cite this…"
                  />
                </p>
                <RelatedWorks
                  key={`related-${resource.id}`}
                  result={resource}
                  onSummarize={works.onSummarize}
                  onSave={works.onSave}
                />
              </>
            )}
            selectionTools={(resourceIds) => (
              <CiteButton workspaceId={data.id} resourceIds={resourceIds} label="Cite selected…" />
            )}
          />
        </PdfDropZone>
        <WorkspaceSuggestions
          workspaceId={data.id}
          onSummarize={works.onSummarize}
          {...(can.edit ? { onSave: works.saveHere } : {})}
        />
        {works.dialogs}
        <section aria-labelledby="export-heading" className="card">
          <h2 id="export-heading">Export</h2>
          <ExportButtons workspaceId={data.id} workspaceName={data.name} />
        </section>
        {can.share && <ShareLinks workspaceId={data.id} />}
        <MembersSection workspaceId={data.id} workspaceName={data.name} />
        <ActivitySection workspaceId={data.id} />
        <ConfirmDialog
          open={confirming}
          title={`Delete ${data.name}?`}
          pending={remove.isPending}
          error={remove.error}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(
              { id: data.id, version: data.version },
              {
                onSuccess: () => {
                  toast(`Deleted ${data.name}`);
                  void navigate('/workspaces', { replace: true });
                },
              },
            )
          }
        >
          Its resources, annotations and share links are deleted too. This cannot be undone.
        </ConfirmDialog>
      </WorkspaceRoleProvider>
    </Page>
  );
}
