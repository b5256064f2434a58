import { Page } from '../../components/Page';

/** Placeholder for the list of workspaces (create, rename, delete). */
export function WorkspacesPage() {
  return (
    <Page title="Workspaces">
      <p>This page is being built.</p>
    </Page>
  );
}
