/** The way from a workspace's library to its duplicates: "Duplicate items (4)", the count when there are some. */
import { Link } from 'react-router';
import { useDuplicates } from '../hooks/use-duplicates';

export function DuplicatesLink({ workspaceId }: { workspaceId: string }) {
  const duplicates = useDuplicates(workspaceId);
  const count =
    duplicates.data?.groups.reduce((sum, group) => sum + group.resources.length, 0) ?? 0;
  return (
    <Link className="button" to={`/workspaces/${workspaceId}/duplicates`}>
      Duplicate items{count > 0 ? ` (${count})` : ''}
    </Link>
  );
}
