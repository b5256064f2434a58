/**
 * A workspace's changes: live as server-sent events (stream-hub.ts) and as its activity log, for any
 * member. The log is pruned by a periodic job (pruning.ts, wired in background.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import { ErrorResponse } from '../../platform/openapi.js';
import { authorize } from '../policy.js';
import { IdParams, workspaceErrors } from '../schemas.js';
import { loadWorkspace } from '../store.js';
import { presentActivityItem } from './presenters.js';
import {
  ActivityQuery,
  ActivityResponse,
  EventStreamHeaders,
  EventStreamQuery,
  WorkspaceEventStream,
} from './schemas.js';
import { ACTIVITY_CAP_PER_WORKSPACE } from './pruning.js';
import { activityPage, countEvents } from './store.js';
import { createStreamHub, EVENTS_RETRY_MS, HEARTBEAT_MS } from './stream-hub.js';

const tags = ['workspaces'];

export async function eventRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, config } = ctx;
  const limits = {
    perUser: config.events.streamsPerUser,
    perProcess: config.events.streamsPerProcess,
  };
  const hub = createStreamHub(ctx.platform.database, limits, app.log);
  app.addHook('preClose', async () => hub.close());

  app.get(
    '/api/workspaces/:id/events',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'streamWorkspaceEvents',
        summary: 'Every change to the workspace, live, as server-sent events (any member)',
        description:
          `Each change by anyone, through any server process, as \`event: ` +
          `change\` with the change's id; \`retry: ${EVENTS_RETRY_MS}\`, a \`: ` +
          `ping\` comment every ${HEARTBEAT_MS / 1000} s. ` +
          'A reconnect with `Last-Event-ID` (or `?lastEventId=`) first replays ' +
          'what it missed from the change log, in order and none twice; an id the ' +
          'log no longer holds gets one `reset` event. ' +
          `At most ${limits.perUser} open streams per user (429 beyond) and ${limits.perProcess} per server process (503 beyond). ` +
          'The stream ends when the user is removed from the workspace, the workspace is deleted or the session ends.',
        params: IdParams,
        querystring: EventStreamQuery,
        headers: EventStreamHeaders,
        response: {
          200: {
            description: 'An event stream (text/event-stream)',
            content: { 'text/event-stream': { schema: WorkspaceEventStream } },
          },
          ...workspaceErrors,
          503: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'read',
        await loadWorkspace(db, request.params.id, user),
      );
      const lastEventId = request.headers['last-event-id'] ?? request.query.lastEventId ?? null;
      await hub.open(reply, {
        workspaceId: workspace.id,
        userId: user.id,
        sessionId: request.auth.sessionId,
        lastEventId,
      });
      return reply;
    },
  );

  app.get(
    '/api/workspaces/:id/activity',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listWorkspaceActivity',
        summary: 'Who changed what in the workspace, newest first (cursor pagination; any member)',
        description:
          `Pages of \`limit\` (1-100, default 50) changes, \`{ activity, total, ` +
          `hasMore, nextCursor }\` (the list shape of every route beyond the ` +
          `interface's, in both dialects); \`nextCursor\` asks for the next page, ` +
          `null on the last. Changes are ` +
          `kept ${config.events.activityRetentionDays} days, and a workspace's ` +
          `newest ${ACTIVITY_CAP_PER_WORKSPACE.toLocaleString('en-US')} at most.`,
        params: IdParams,
        querystring: ActivityQuery,
        response: { 200: ActivityResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'read',
        await loadWorkspace(db, request.params.id, user),
      );
      const { cursor, limit } = request.query;
      const [rows, total] = await Promise.all([
        activityPage(db, workspace.id, cursor === undefined ? null : Number(cursor), limit),
        countEvents(db, workspace.id),
      ]);
      const page = rows.slice(0, limit);
      const nextCursor = rows.length > limit ? String(page[page.length - 1]!.id) : null;
      return {
        activity: page.map(presentActivityItem),
        total,
        hasMore: nextCursor !== null,
        nextCursor,
      };
    },
  );
}
