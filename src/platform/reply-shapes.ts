/**
 * The shapes every route beyond the interface's own shares (the interface fixes its routes' shapes).
 *
 * A list reply: for every route beyond the interface's own (whose shapes the
 * interface fixes): `{ <things>: [...], total, hasMore }`, the array named for what it holds, as the
 * interface's own lists are (`{ workspaces, total }`, `{ results, total, hasMore }`). A list paged by
 * cursor (a log that grows while it is read) adds `nextCursor`, null on the last page. No list answers
 * a bare array or puts its paging in headers.
 *
 * A delete: 200 `{ success: true, id }`, as the interface's own deletes answer (DESIGN.md, gaps),
 * never a 204. docs/api.md, Conventions.
 */
import { z } from 'zod';

/** `total` and `hasMore`, spread into a list reply's object beside its array. */
export const LIST_FIELDS = {
  total: z.number().int().min(0).describe('How many there are in all, on every page'),
  hasMore: z.boolean().describe('Whether a page follows this one'),
};

/** `nextCursor`, for a list paged by cursor. */
export const CURSOR_FIELD = {
  nextCursor: z
    .string()
    .nullable()
    .describe('Pass as `cursor` for the next page; null on the last page'),
};

/** `total` and `hasMore` of a list answered whole (no pages): all of it, nothing after. */
export const wholeList = (count: number) => ({ total: count, hasMore: false });

/** `hasMore` of an offset-paged list: whether rows lie past this page. */
export const hasMoreAfter = (offset: number, shown: number, total: number) =>
  offset + shown < total;

/** What every DELETE answers: 200 with the id of what is gone. */
export const DeletedResponse = z
  .object({ success: z.literal(true), id: z.uuid() })
  .meta({ id: 'Deleted' });
