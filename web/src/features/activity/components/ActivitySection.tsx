/**
 * “Activity”: who changed what in the workspace, newest first (GET …/activity), read when the reader
 * asks to see it; live updates keep an open list current. Older changes a page at a time.
 */
import { useId, useState } from 'react';
import { useReaderLocale } from '../../../lib/profile';
import { useSession } from '../../../lib/session';
import { ErrorState, LoadingState } from '../../../components/States';
import { formatDateTime } from '../../../lib/dates';
import { activityLine } from '../activity-line';
import { useActivity } from '../hooks/use-activity';
import '../activity.css';

export function ActivitySection({ workspaceId }: { workspaceId: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const headingId = useId();
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Activity</h2>
      <p>
        <button
          type="button"
          className="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((current) => !current)}
        >
          {open ? 'Hide activity' : 'Show activity'}
        </button>
      </p>
      <div id={panelId}>{open && <ActivityList workspaceId={workspaceId} />}</div>
    </section>
  );
}

function ActivityList({ workspaceId }: { workspaceId: string }) {
  const activity = useActivity(workspaceId);
  const me = useSession().data?.id ?? '';
  const language = useReaderLocale();
  if (activity.isPending) return <LoadingState label="Loading the activity…" />;
  if (activity.isError)
    return (
      <ErrorState
        title="The activity could not be loaded"
        error={activity.error}
        onRetry={() => void activity.refetch()}
      />
    );
  const items = activity.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <p className="muted">No changes yet.</p>;
  return (
    <>
      <ol className="activity-list">
        {items.map((item) => (
          <li key={item.id}>
            {activityLine(item, me)} <span className="muted">·</span>{' '}
            <time dateTime={item.at}>{formatDateTime(item.at, language)}</time>
          </li>
        ))}
      </ol>
      {activity.hasNextPage && (
        <button
          type="button"
          className="button button-small"
          disabled={activity.isFetchingNextPage}
          onClick={() => void activity.fetchNextPage()}
        >
          {activity.isFetchingNextPage ? 'Loading older changes…' : 'Show older changes'}
        </button>
      )}
    </>
  );
}
