/** Search your library (`/library`): everything in your workspaces, found by its words (features/library-search). */
import { Page } from '../../components/Page';
import { LibrarySearch } from '../../features/library-search/components/LibrarySearch';
import { useWorkspaces } from '../../features/workspaces/hooks/use-workspaces';

export function LibrarySearchPage() {
  const workspaces = useWorkspaces();
  return (
    <Page title="Library" heading="Search your library">
      <LibrarySearch workspaces={workspaces.data ?? []} />
    </Page>
  );
}
