/**
 * The first of the library's three panes (Zotero's collections pane): the user's workspaces, the one
 * open marked as the current page. Shown beside the list on wide screens only; narrower ones have
 * `All workspaces` above the page.
 */
import { Link } from 'react-router';
import { useWorkspaces } from '../hooks/use-workspaces';

export function WorkspacesPane({ current }: { current: string }) {
  const workspaces = useWorkspaces();
  return (
    <nav className="library-workspaces" aria-label="Workspaces">
      <h2 className="pane-heading">
        <Link to="/workspaces">Workspaces</Link>
      </h2>
      {workspaces.data && (
        <ul>
          {workspaces.data.map((workspace) => (
            <li key={workspace.id}>
              <Link
                to={`/workspaces/${encodeURIComponent(workspace.id)}`}
                aria-current={workspace.id === current ? 'page' : undefined}
              >
                <span className="pane-name">{workspace.name}</span>{' '}
                <span className="muted">({workspace.resourceCount})</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
