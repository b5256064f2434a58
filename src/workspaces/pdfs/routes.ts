/**
 * A resource's PDF: PUT (multipart upload, in the upload scope), GET (streamed from the blob store, one
 * byte range at a time when asked, with its ETag) and DELETE. Reading needs read access to the
 * workspace, changing it update access; a resource of another workspace is the same 404 as none.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { create as contentDisposition } from 'content-disposition';
import { dialectOf, requireUser } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../platform/db/client.js';
import { ApiError, errorBody, notFound } from '../../platform/errors.js';
import { ErrorResponse } from '../../platform/openapi.js';
import { authorize, type Actor } from '../policy.js';
import { presentResource, resourceReply } from '../presenters.js';
import { DeletedResponse, workspaceErrors } from '../schemas.js';
import { ResourceParams, ResourceResponse } from '../resources/schemas.js';
import { loadWorkspace } from '../store.js';
import { loadResource, type ResourceRow } from '../resources/store.js';
import { annotationsByResource } from '../annotations/store.js';
import { attachPdf, filePartOf, removePdf, type PdfDeps } from './commands.js';
import { etagOf } from './presenters.js';
import { parseRange } from './ranges.js';
import { sendsVersion } from '../versions.js';
import { PDF_UPLOAD_BODY, PdfFile, PdfHeaders, PdfQuery } from './schemas.js';
import { findPdf } from './store.js';

const tags = ['workspaces'];
const PDF_PATH = '/api/workspaces/:id/resources/:resourceId/pdf';

/** The resource named under the workspace, when the user may do `action` on both; else 404. */
export async function loadResourceIn(
  db: Db,
  user: Actor,
  workspaceId: string,
  resourceId: string,
  action: 'read' | 'update',
): Promise<ResourceRow> {
  const { workspace } = authorize(user, 'read', await loadWorkspace(db, workspaceId, user));
  const { resource } = authorize(user, action, await loadResource(db, resourceId, user));
  if (resource.workspaceId !== workspace.id) throw notFound('Resource');
  return resource;
}

/** One header value matches the ETag (`If-None-Match: "a", "b"` or `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/** PUT …/pdf, registered in the scope that parses multipart bodies. */
export function pdfUploadRoute(root: FastifyInstance, ctx: AppContext, deps: PdfDeps): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.put(
    PDF_PATH,
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'putResourcePdf',
        summary:
          'Attach a PDF to a resource (multipart field `file`, at most 50 MB), replacing any earlier one; its text is extracted in the background',
        description:
          'The file is judged by its bytes (`%PDF-` at its start; else 415) and ' +
          'streamed to the blob store. The answer comes once it is stored: the ' +
          'resource with `pdf.extraction: "pending"`; poll the resource until ' +
          '`ready` (text stored per page, for search and deep summaries) or ' +
          '`failed` with `pdf.error` (e.g. a scan without a text layer, an ' +
          'encrypted file).',
        params: ResourceParams,
        consumes: ['multipart/form-data'],
        requestBody: PDF_UPLOAD_BODY,
        response: {
          200: ResourceResponse,
          413: ErrorResponse,
          415: ErrorResponse,
          ...workspaceErrors,
        },
        responseHeaders: { 200: ['ETag'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const resource = await loadResourceIn(
        ctx.db,
        user,
        request.params.id,
        request.params.resourceId,
        'update',
      );
      const part = await filePartOf(request);
      const pdf = await attachPdf(deps, resource, user.id, part);
      const annotations = await annotationsByResource(ctx.db, [resource.id]);
      sendsVersion(reply, 'r', resource);
      return resourceReply(
        dialectOf(request),
        presentResource(resource, annotations.get(resource.id), pdf),
      );
    },
  );
}

/** GET and DELETE …/pdf. */
export function pdfFileRoutes(root: FastifyInstance, ctx: AppContext, deps: PdfDeps): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    PDF_PATH,
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'getResourcePdf',
        summary:
          "The resource's PDF, streamed: inline (or `?download=true` as an attachment), with its ETag and single byte ranges",
        description:
          '`Content-Disposition` carries the uploaded name (RFC 6266: an ASCII ' +
          "`filename` and the exact name as `filename*`). `ETag` is the file's " +
          'SHA-256 in quotes: `If-None-Match` with it answers 304. `Accept-Ranges: ' +
          'bytes`: one `Range` gets 206 with `Content-Range`, a range past the end ' +
          '416 (`Content-Range: bytes */<size>`), several ranges the whole file; ' +
          '`If-Range` with another ETag gets the whole file.',
        params: ResourceParams,
        querystring: PdfQuery,
        headers: PdfHeaders,
        response: {
          200: {
            description: 'The whole file',
            content: { 'application/pdf': { schema: PdfFile } },
          },
          206: {
            description: 'The byte range asked for (Content-Range says which)',
            content: { 'application/pdf': { schema: PdfFile } },
          },
          304: PdfFile.describe('Not modified: If-None-Match named the current ETag'),
          416: ErrorResponse,
          ...workspaceErrors,
        },
        responseHeaders: { 200: ['Content-Disposition'], 206: ['Content-Disposition'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const resource = await loadResourceIn(
        db,
        user,
        request.params.id,
        request.params.resourceId,
        'read',
      );
      const pdf = await findPdf(db, resource.id);
      if (!pdf) throw notFound('PDF');
      const etag = etagOf(pdf);
      void reply
        .header('etag', etag)
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, no-cache')
        .header('x-content-type-options', 'nosniff');
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();

      const ifRange = request.headers['if-range'];
      const answer =
        ifRange !== undefined && ifRange !== etag
          ? { kind: 'whole' as const }
          : parseRange(request.headers.range, pdf.byteSize);
      if (answer.kind === 'unsatisfiable') {
        const refusal = new ApiError(
          'RANGE_NOT_SATISFIABLE',
          `The range is outside the file (${pdf.byteSize} bytes)`,
          { field: 'range', reason: 'unsatisfiable' },
        );
        return reply
          .code(416)
          .header('content-range', `bytes */${pdf.byteSize}`)
          .send(errorBody(refusal));
      }
      const range = answer.kind === 'partial' ? answer.range : undefined;
      const body = await deps.blobs.getStream(pdf.blobKey, range);
      if (!body) throw notFound('PDF');
      void reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          contentDisposition(pdf.filename, {
            type: request.query.download ? 'attachment' : 'inline',
          }),
        )
        .header('content-length', String(range ? range.end - range.start + 1 : pdf.byteSize));
      if (range)
        void reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${pdf.byteSize}`);
      return reply.send(body);
    },
  );

  app.delete(
    PDF_PATH,
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'deleteResourcePdf',
        summary: "Remove the resource's PDF, its extracted text and its file (the resource stays)",
        params: ResourceParams,
        response: { 200: DeletedResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const resource = await loadResourceIn(
        db,
        user,
        request.params.id,
        request.params.resourceId,
        'update',
      );
      if (!(await removePdf(deps, resource.id, user.id))) throw notFound('PDF');
      return { success: true as const, id: resource.id };
    },
  );
}
