/**
 * Live updates of an open workspace page: one EventSource on GET /api/workspaces/{id}/events while
 * the page is open and visible (closed when hidden or left, opened again when visible, resuming with
 * `?lastEventId=` after the last change seen). Each `change` marks stale exactly the cached reads it
 * touches (changes.ts), which TanStack Query reads again, so another member's change appears without
 * a reload; `reset` (the service no longer has the changes since then) marks all of the workspace.
 * Nothing here sets state per read: the only state is the latest sentence for the page's one polite
 * live region, set once per change of someone else's.
 * The user's own changes made from this tab (it sent a change moments ago) are marked stale without
 * being read at once: the change's own mutation has already refreshed what it shows, and a list
 * filtered by a tag just removed must not drop the row being edited (the activity log, no such list,
 * is read at once). Their own changes made elsewhere
 * (another tab or device) are read at once; none of their own is said. A workspace deleted, or the user removed from it,
 * calls `onLeave` and closes the stream.
 */
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  activityKey,
  resourcesKey,
  workspaceKey,
  type ResourcePage,
} from '../../../api/workspace-cache';
import { eventData } from '../../../lib/event-data';
import type { Role } from '../../../lib/workspace-role';
import {
  announcementFor,
  eventsUrl,
  everyKeyOf,
  keysTouchedBy,
  leaveMessage,
  parseChange,
  type WorkspaceChange,
} from '../changes';

/** How recently this tab must have sent a change for a change of the user's own to count as made here. */
const MADE_HERE_MS = 10_000;

/** Whether this tab sent a change (a mutation) in the last MADE_HERE_MS. */
function changedHere(queryClient: QueryClient): boolean {
  const since = Date.now() - MADE_HERE_MS;
  return queryClient
    .getMutationCache()
    .getAll()
    .some((mutation) => mutation.state.submittedAt >= since);
}

/** A stream the service refused is opened again at most this often in a row (the count starts again once one opens), after REOPEN_DELAY_MS times the attempt. */
const MAX_REOPENS = 2;
const REOPEN_DELAY_MS = 3_000;

export interface Announcement {
  workspaceId: string;
  /** Grows with each sentence, so that the same words said twice are announced twice. */
  id: number;
  text: string;
}

function cachedTitle(
  queryClient: QueryClient,
  workspaceId: string,
  resourceId: string | undefined,
): string | null {
  if (!resourceId) return null;
  for (const [, page] of queryClient.getQueriesData<ResourcePage>({
    queryKey: resourcesKey(workspaceId),
  })) {
    const found = page?.resources.find((resource) => resource.id === resourceId);
    if (found) return found.title;
  }
  return null;
}

function cachedRole(queryClient: QueryClient, workspaceId: string): Role | null {
  for (const [, workspace] of queryClient.getQueriesData<{ role?: Role }>({
    queryKey: workspaceKey(workspaceId),
  })) {
    if (workspace?.role) return workspace.role;
  }
  return null;
}

function markStale(queryClient: QueryClient, keys: QueryKey[], readNow: boolean): Promise<unknown> {
  return Promise.all(
    keys.map((queryKey) =>
      queryClient.invalidateQueries({ queryKey, refetchType: readNow ? 'active' : 'none' }),
    ),
  );
}

/**
 * Follows the workspace's changes while `enabled` (the workspace is loaded) and `me` (the signed-in
 * user's id) is known. `onLeave(change, message)`: the page must go (message '' when the user did it).
 */
export function useWorkspaceChanges(
  workspaceId: string,
  options: {
    enabled: boolean;
    me: string | undefined;
    workspaceName: string;
    onLeave: (change: WorkspaceChange, message: string) => void;
  },
): Announcement | null {
  const { enabled, me } = options;
  const queryClient = useQueryClient();
  const [announcement, setAnnouncement] = useState<Announcement | null>(null);
  // The latest callbacks and name, read when a change arrives (not a reason to open a new stream).
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  // Where the next stream resumes, kept across streams of this workspace (hidden and shown, or the
  // page disabled for a moment while the workspace failed to load): the last change seen, and whether
  // a stream was ever open (then, without a change to resume after, what happened meanwhile is unknown).
  const resume = useRef({ workspaceId, lastEventId: null as string | null, connected: false });

  useEffect(() => {
    if (!enabled || !me) return;
    if (resume.current.workspaceId !== workspaceId)
      resume.current = { workspaceId, lastEventId: null, connected: false };
    const position = resume.current;
    let source: EventSource | null = null;
    let refusals = 0;
    let reopening: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let changesSeen = 0;
    let spoken = 0;

    const close = () => {
      source?.close();
      source = null;
    };

    const follow = async (change: WorkspaceChange) => {
      const seen = ++changesSeen;
      const message = leaveMessage(change, me, latest.current.workspaceName);
      if (message !== null) {
        stopped = true;
        close();
        await markStale(queryClient, keysTouchedBy(change, me), false);
        latest.current.onLeave(change, message);
        return;
      }
      const own = change.actor?.id === me;
      // Before reading again: a resource removed is no longer in the list afterwards.
      const titleBefore = cachedTitle(queryClient, workspaceId, change.resourceId);
      const readNow = !own || !changedHere(queryClient);
      await markStale(queryClient, keysTouchedBy(change, me), readNow);
      // The activity log (read only while shown) is no list being edited: it shows the user's own change at once too.
      if (!readNow)
        await queryClient.invalidateQueries({
          queryKey: activityKey(workspaceId),
          refetchType: 'active',
        });
      // Only the latest change is said: in a burst, the sentences would queue up long after the fact.
      if (own || stopped || seen !== changesSeen) return;
      const text = announcementFor(change, {
        me,
        title: titleBefore ?? cachedTitle(queryClient, workspaceId, change.resourceId),
        myRole: cachedRole(queryClient, workspaceId),
      });
      if (text) setAnnouncement({ workspaceId, id: ++spoken, text });
    };

    const open = () => {
      if (stopped || source || document.visibilityState !== 'visible') return;
      // Open before, but no change seen to resume after: what happened meanwhile is read again once
      // this stream is open (not before: a refused stream must not set the page reading, see below).
      let gap = position.connected && position.lastEventId === null;
      const stream = new EventSource(eventsUrl(workspaceId, position.lastEventId), {
        withCredentials: true,
      });
      source = stream;
      stream.addEventListener('open', () => {
        refusals = 0;
        position.connected = true;
        if (gap) void markStale(queryClient, everyKeyOf(workspaceId), true);
        gap = false;
      });
      stream.addEventListener('change', (event) => {
        if (event.lastEventId) position.lastEventId = event.lastEventId;
        const change = parseChange(eventData(event));
        if (change && change.workspaceId === workspaceId) void follow(change);
      });
      stream.addEventListener('reset', (event) => {
        if (event.lastEventId) position.lastEventId = event.lastEventId;
        void markStale(queryClient, everyKeyOf(workspaceId), true);
      });
      stream.addEventListener('error', () => {
        // While CONNECTING the EventSource reconnects by itself, sending Last-Event-ID.
        if (stream.readyState !== EventSource.CLOSED || stream !== source) return;
        close();
        if (stopped || ++refusals > MAX_REOPENS) return;
        // Refused (a server restarting answers 503; an ended session 401): tried again a little later,
        // a few times. Nothing else: the page stays as it is, and the user's next request finds out
        // about an ended session as before (a draft being typed is not interrupted by a redirect).
        reopening = setTimeout(open, REOPEN_DELAY_MS * refusals);
      });
    };

    const onVisibility = () => (document.visibilityState === 'visible' ? open() : close());
    document.addEventListener('visibilitychange', onVisibility);
    open();
    return () => {
      stopped = true;
      clearTimeout(reopening);
      close();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [workspaceId, enabled, me, queryClient]);

  // A sentence about the workspace this page showed before (the page stays mounted from one to the next) is not shown.
  return announcement?.workspaceId === workspaceId ? announcement : null;
}
