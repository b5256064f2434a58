/**
 * A workspace's activity log, newest first, 20 changes a page (`{ activity, nextCursor }`: the next
 * page's cursor, null on the last). Kept under the key live updates mark stale on every change
 * (api/workspace-cache.ts), so an open list shows another member's change without a reload.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { activityKey } from '../../../api/workspace-cache';
import type { ActivityItem } from '../activity-line';

const PAGE_SIZE = 20;

interface ActivityPage {
  items: ActivityItem[];
  nextCursor: string | null;
}

export function useActivity(workspaceId: string) {
  return useInfiniteQuery({
    queryKey: activityKey(workspaceId),
    queryFn: async ({ pageParam, signal }): Promise<ActivityPage> => {
      const call = api.GET('/api/workspaces/{id}/activity', {
        params: {
          path: { id: workspaceId },
          query: { limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
        },
        signal,
      });
      const page = await unwrap(call);
      return { items: page.activity, nextCursor: page.nextCursor };
    },
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}
