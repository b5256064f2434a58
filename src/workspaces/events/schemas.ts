/** Request and reply schemas of the workspace event stream and activity log. */
import { z } from 'zod';
import { CURSOR_FIELD, LIST_FIELDS } from '../../platform/reply-shapes.js';
import { CHANGE_TYPES } from './record.js';

const ACTIVITY_LIMITS = { listDefault: 50, listMax: 100 } as const;

const LogId = z.string().regex(/^\d{1,15}$/, 'must be an event id (digits)');

export const EventStreamQuery = z.object({
  lastEventId: z
    .string()
    .max(32)
    .optional()
    .describe(
      'The id of the last event received, for clients that cannot send the Last-Event-ID header',
    ),
});

export const EventStreamHeaders = z.object({
  'last-event-id': z
    .string()
    .max(32)
    .optional()
    .describe(
      'Sent by an EventSource when it reconnects: the stream first replays every change after it',
    ),
});

const Actor = z
  .object({ id: z.uuid(), name: z.string() })
  .nullable()
  .describe(
    "Who made the change; null for the service's own work (a PDF's text extracted) or an account since deleted",
  );

export const ChangeEventData = z
  .object({
    id: LogId.describe('The event id, as in the `id:` line'),
    workspaceId: z.uuid(),
    type: z.enum(CHANGE_TYPES),
    actor: Actor,
    resourceId: z.uuid().optional(),
    annotationId: z.uuid().optional(),
    userId: z.uuid().optional().describe('The member a member change is about'),
    at: z.iso.datetime(),
  })
  .meta({ id: 'WorkspaceChangeEvent' });

export const WorkspaceEventStream = z.string().meta({
  id: 'WorkspaceEventStream',
  description: [
    'Server-sent events. The stream opens with `retry: 2000` (and `id: <the ' +
      'newest event id>` when the workspace has one); a `: ping` comment comes every 25 s.',
    'Each change is `id: <event id>`, `event: change`, `data: ' +
      'WorkspaceChangeEvent` — JSON `{ id, workspaceId, type, actor: { id, ' +
      'name } | null, resourceId?, annotationId?, userId?, at }` with type one of ' +
      CHANGE_TYPES.map((type) => `\`${type}\``).join(', ') +
      '. An event without resourceId that is about resources (an import, a bulk change) names several: reload the list.',
    'With `Last-Event-ID` (or `?lastEventId=`) every logged change after ' +
      'that id is replayed first, in order, then live ones, none twice. When ' +
      'the log no longer holds that id, one `event: reset` (data `{}`) comes ' +
      'instead: reload everything.',
    'The stream ends after the event that removes the user from the workspace (`member.removed` naming them, `workspace.deleted`), and when the session ends.',
  ].join(' '),
});

export const ActivityQuery = z.object({
  cursor: LogId.optional().describe(
    'The `nextCursor` of the previous page; absent: the newest changes',
  ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(ACTIVITY_LIMITS.listMax)
    .default(ACTIVITY_LIMITS.listDefault),
});

const ActivityItemSchema = z
  .object({
    id: LogId,
    type: z.enum(CHANGE_TYPES),
    actor: Actor,
    at: z.iso.datetime(),
    resourceId: z.uuid().optional(),
    annotationId: z.uuid().optional(),
    userId: z.uuid().optional(),
    details: z
      .record(z.string(), z.unknown())
      .describe(
        'What changed, as it was then: e.g. `title` of a resource, `role` of a member, `count` of an import or bulk change, `state` of a PDF',
      ),
  })
  .meta({ id: 'ActivityItem' });

/** The list shape of every route beyond the interface's (platform/list-reply.ts), in both dialects. */
export const ActivityResponse = z
  .object({ activity: z.array(ActivityItemSchema), ...LIST_FIELDS, ...CURSOR_FIELD })
  .meta({ id: 'ActivityList' });
