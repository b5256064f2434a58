import type { ExportFormat } from '../export.js';
import type { FeedRow } from './store.js';

export function presentFeed(row: FeedRow) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    format: row.format as ExportFormat,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The one reply that carries the feed's URL: to its maker, as it is made. */
export function presentCreatedFeed(row: FeedRow, url: string) {
  return { ...presentFeed(row), url };
}
