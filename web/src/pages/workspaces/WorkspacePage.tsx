import { Page } from '../../components/Page';

/** Placeholder for one workspace (resources, notes, tags, annotations, share links, export). */
export function WorkspacePage() {
  return (
    <Page title="Workspace">
      <p>This page is being built.</p>
    </Page>
  );
}
