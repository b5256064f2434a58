/** The shapes of a change: as a stream event's data, and as an item of the activity log. */
import type { EventRow } from './store.js';

function actorOf(row: EventRow) {
  return row.actorId === null ? null : { id: row.actorId, name: row.actorName ?? '' };
}

/** The subjects a change names, only those it has. */
function subjectsOf(row: EventRow) {
  return {
    ...(row.resourceId === null ? {} : { resourceId: row.resourceId }),
    ...(row.annotationId === null ? {} : { annotationId: row.annotationId }),
    ...(row.userId === null ? {} : { userId: row.userId }),
  };
}

/** The data of a `change` event (the event id is the same id, as a decimal string). */
export function presentChangeEvent(row: EventRow) {
  return {
    id: String(row.id),
    workspaceId: row.workspaceId,
    type: row.type,
    actor: actorOf(row),
    ...subjectsOf(row),
    at: row.createdAt.toISOString(),
  };
}

export function presentActivityItem(row: EventRow) {
  return {
    id: String(row.id),
    type: row.type,
    actor: actorOf(row),
    at: row.createdAt.toISOString(),
    ...subjectsOf(row),
    details: row.details,
  };
}

/** Cookie session: the page's items (the next cursor in a header). Bearer token: `{ activity, nextCursor }`. */
