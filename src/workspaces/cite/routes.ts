/**
 * GET /api/citation-styles (the styles, found by name) and GET /api/workspaces/{id}/cite (formatted
 * references of some of a workspace's resources), authorized as the export is.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import { notFound, validationError } from '../../platform/errors.js';
import { ErrorResponse } from '../../platform/openapi.js';
import { authorize } from '../policy.js';
import { IdParams, workspaceErrors } from '../schemas.js';
import { listResources, loadWorkspace, type ResourceRow } from '../store.js';
import { formatCitations } from './cite.js';
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

export async function citeRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

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
      return { styles: await findCitationStyles(request.query.q) };
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
        response: { 200: CiteResponse, ...workspaceErrors },
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
      reply.header('cache-control', 'private, no-store');
      return formatCitations(resources, style, format);
    },
  );
}
