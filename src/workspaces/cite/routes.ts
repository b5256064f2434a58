/**
 * GET /api/citation-styles (the styles, found by name) and GET /api/workspaces/{id}/cite (formatted
 * references of some of a workspace's resources), authorized as the export is.
 */
import { presentCitationKey } from '../citation-keys/presenters.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import { ApiError, notFound, rateLimited, validationError } from '../../platform/errors.js';
import { ErrorResponse } from '../../platform/openapi.js';
import { authorize } from '../policy.js';
import { IdParams, workspaceErrors } from '../schemas.js';
import { loadWorkspace } from '../store.js';
import { listResources, type ResourceRow } from '../resources/store.js';
import {
  workerModule,
  WorkerPoolBusy,
  WorkerTaskFailed,
  type WorkerPool,
} from '../../platform/worker-pool.js';
import type { FormattedCitations } from './cite.js';
import type { FormatInput } from './format-worker.js';
import { findCitationStyle, findCitationStyles } from './styles.js';
import { CitationStylesQuery, CitationStylesResponse, CiteQuery, CiteResponse } from './schemas.js';

const tags = ['workspaces'];

/** The resources of the workspace with these ids, in the order asked; one not in it is a 404, as an unknown one. */
function pickResources(rows: ResourceRow[], ids: string[]): ResourceRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound('Resource');
    return row;
  });
}

/** The worker module that formats citations (loaded in every worker of the pool). */
export const FORMAT_WORKER = workerModule(import.meta.url, 'format-worker');

/**
 * Formatting requests running now, per user and in all: one past the user's bound is a 429, past the
 * process's a 503 (as open event streams are bounded), both with Retry-After; so one user cannot
 * fill the worker pool's queue and the queue cannot grow without bound.
 */
function formattingSlots(perUser: number, perProcess: number) {
  const byUser = new Map<string, number>();
  let running = 0;
  return {
    take(userId: string): () => void {
      const mine = byUser.get(userId) ?? 0;
      if (mine >= perUser) throw rateLimited(1);
      if (running >= perProcess)
        throw new ApiError(
          'SERVICE_UNAVAILABLE',
          'The server is formatting many citations; try again in a few seconds',
          undefined,
          { 'retry-after': '2' },
        );
      byUser.set(userId, mine + 1);
      running++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        running--;
        const left = (byUser.get(userId) ?? 1) - 1;
        if (left > 0) byUser.set(userId, left);
        else byUser.delete(userId);
      };
    },
  };
}

/** The citations formatted in a worker; a worker past its time or heap is a 422, a full pool a 503. */
async function formatInWorker(
  pool: WorkerPool,
  input: FormatInput,
  timeoutMs: number,
): Promise<FormattedCitations> {
  try {
    return await pool.run<FormattedCitations>(FORMAT_WORKER, input, timeoutMs);
  } catch (error) {
    if (error instanceof WorkerTaskFailed)
      throw new ApiError(
        'UNPROCESSABLE',
        'Formatting these references took longer or needed more memory than a request may use: cite fewer at a time',
        { field: 'resourceIds', reason: error.reason === 'timeout' ? 'too_slow' : 'too_large' },
      );
    if (error instanceof WorkerPoolBusy)
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        'The server is busy; try again in a few seconds',
        undefined,
        { 'retry-after': '2' },
      );
    throw error;
  }
}

export async function citeRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;
  const { formatTimeoutMs, perUser, perProcess } = ctx.config.citations;
  const slots = formattingSlots(perUser, perProcess);

  app.get(
    '/api/citation-styles',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listCitationStyles',
        summary: 'The citation styles the cite route formats with, found by name (q)',
        querystring: CitationStylesQuery,
        response: {
          200: CitationStylesResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request) => {
      requireUser(request);
      const { styles, total } = await findCitationStyles(request.query.q);
      return { styles, total, hasMore: styles.length < total };
    },
  );

  app.get(
    '/api/workspaces/:id/cite',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'citeResources',
        summary:
          'The bibliography and in-text citation of some resources of the workspace, in a CSL style (APA, MLA, Chicago, IEEE, Vancouver…)',
        params: IdParams,
        querystring: CiteQuery,
        description:
          'Formatted in a worker thread: at most CITE_REQUESTS_PER_USER (2) ' +
          'requests of one user at once (429 with Retry-After beyond) and ' +
          'CITE_REQUESTS_PER_PROCESS (8) in all (503 with Retry-After beyond); one ' +
          'that takes longer than CITE_FORMAT_TIMEOUT_MS (30 s) or more memory ' +
          'than a worker has is a 422.',
        response: {
          200: CiteResponse,
          422: ErrorResponse,
          503: ErrorResponse,
          ...workspaceErrors,
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { resourceIds, style: styleId, format } = request.query;
      const style = await findCitationStyle(styleId);
      if (!style)
        throw validationError(
          'style',
          'no such citation style',
          'style must be a style id GET /api/citation-styles lists',
        );
      const { workspace } = authorize(
        user,
        'export',
        await loadWorkspace(db, request.params.id, user),
      );
      const resources = pickResources(await listResources(db, workspace.id), resourceIds);
      const release = slots.take(user.id);
      try {
        const formatted = await formatInWorker(
          ctx.workers,
          { resources, style, format },
          formatTimeoutMs,
        );
        reply.header('cache-control', 'private, no-store');
        return { ...formatted, citationKeys: resources.map(presentCitationKey) };
      } finally {
        release();
      }
    },
  );
}
