/**
 * Workspace routes: workspaces and their resources, and the citation export. Annotations and
 * share links (with the public page) are in their own files and registered from here.
 * Each handler: validated input → user → load → authorize → do → present.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dialectOf, requireUser } from '../auth/index.js';
import type { AppContext } from '../context.js';
import type { Db } from '../platform/db/client.js';
import { ApiError, notFound, validationError } from '../platform/errors.js';
import { ErrorResponse } from '../platform/openapi.js';
import { expectedVersions } from '../platform/versions.js';
import { annotationRoutes } from './annotations/routes.js';
import { citeRoutes } from './cite/routes.js';
import { notesRoutes } from './notes/routes.js';
import {
  describeNewResource,
  changeResource,
  deleteWorkspace,
  moveResources,
  removeResource,
  removeResources,
  retagResources,
  updateWorkspace,
} from './commands.js';
import { duplicateRoutes } from './duplicates/routes.js';
import { eventRoutes } from './events/routes.js';
import { contentDisposition, exportCitations } from './export.js';
import { importRoutes } from './import/routes.js';
import { proposeRefresh } from './resources/refresh.js';
import { authorize, type Actor } from './policy.js';
import {
  deletedReply,
  presentResource,
  presentWorkspace,
  resourceReply,
  workspaceDetailReply,
  workspaceListReply,
  workspaceReply,
} from './presenters.js';
import {
  CitationText,
  CslJsonExport,
  DeletedResponse,
  ExportQuery,
  IdParams,
  IfMatchHeaders,
  LIMITS,
  ListQuery,
  WorkspaceCreateBody,
  WorkspaceDetailQuery,
  WorkspaceListResponse,
  WorkspaceResponse,
  WorkspaceStaleResponse,
  WorkspaceUpdateBody,
  workspaceErrors,
} from './schemas.js';
import {
  BulkMoveBody,
  BulkMoveResponse,
  BulkRemoveBody,
  BulkRemoveResponse,
  BulkTagBody,
  BulkTagResponse,
  ResourceCreateBody,
  ResourceListQuery,
  ResourceParams,
  ResourceRefreshResponse,
  ResourceResponse,
  ResourceSchema,
  ResourceStaleResponse,
  ResourceUpdateBody,
  WorkspaceDetailResponse,
} from './resources/schemas.js';
import { presentResources, sendsVersion, staleResource, staleWorkspace } from './versions.js';
import {
  receiveNewResourcePdf,
  filePartOf,
  forgetPdfFiles,
  PDF_MULTIPART_LIMITS,
  type PdfDeps,
} from './pdfs/commands.js';
import { pdfFileRoutes, pdfUploadRoute } from './pdfs/routes.js';
import { RESOURCE_FROM_PDF_BODY } from './pdfs/schemas.js';
import { memberRoutes } from './members/routes.js';
import { shareRoutes } from './share-links/routes.js';
import { insertWorkspace, listWorkspaces, loadWorkspace } from './store.js';
import { feedRoutes } from './feeds/routes.js';
import {
  listResources,
  loadResource,
  queryResources,
  type ResourceRow,
} from './resources/store.js';

const tags = ['workspaces'];
const TOTAL_HEADER = 'x-total-count';

/**
 * A resource named under a workspace, when the user is a member of that workspace and their role allows
 * `action` on the resource; a resource of another workspace is the same 404 as an unknown one.
 */
async function loadResourceOf(
  db: Db,
  user: Actor,
  workspaceId: string,
  resourceId: string,
  action: 'update' | 'delete',
): Promise<ResourceRow> {
  const { workspace } = authorize(user, 'read', await loadWorkspace(db, workspaceId, user));
  const { resource } = authorize(user, action, await loadResource(db, resourceId, user));
  if (resource.workspaceId !== workspace.id) throw notFound('Resource');
  return resource;
}

export async function workspaceRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    '/api/workspaces',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listWorkspaces',
        summary:
          'Your workspaces, newest first (limit 1-100, default 20; offset). Total also in X-Total-Count',
        querystring: ListQuery,
        response: { 200: WorkspaceListResponse, ...workspaceErrors },
        responseHeaders: { 200: ['X-Total-Count'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { rows, total } = await listWorkspaces(db, user.id, request.query);
      void reply.header(TOTAL_HEADER, String(total));
      return workspaceListReply(
        dialectOf(request),
        rows.map((row) => presentWorkspace(row, row.role)),
        total,
      );
    },
  );

  app.post(
    '/api/workspaces',
    {
      config: { auth: 'required', rateLimit: ['user'], idempotent: true },
      schema: {
        tags,
        operationId: 'createWorkspace',
        summary: 'Create a workspace: name (or title) ≤ 200, description ≤ 2,000, isPublic',
        body: WorkspaceCreateBody,
        response: { 201: WorkspaceResponse, ...workspaceErrors },
        responseHeaders: { 201: ['ETag'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // The workspace and the answer kept for an Idempotency-Key are one transaction (platform/idempotency.ts).
      return request.answerOnce(reply, 201, async (db) => {
        const workspace = await insertWorkspace(db, { ownerId: user.id, ...request.body });
        sendsVersion(reply, 'w', workspace);
        return workspaceReply(dialectOf(request), presentWorkspace(workspace, 'owner'));
      });
    },
  );

  app.get(
    '/api/workspaces/:id',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'getWorkspace',
        summary:
          'A workspace with its resources (all of them, or the newest resourceLimit), each with its annotations',
        params: IdParams,
        querystring: WorkspaceDetailQuery,
        response: { 200: WorkspaceDetailResponse, ...workspaceErrors },
        responseHeaders: { 200: ['ETag'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace, role } = authorize(
        user,
        'read',
        await loadWorkspace(db, request.params.id, user),
      );
      sendsVersion(reply, 'w', workspace);
      const { resourceLimit } = request.query;
      const rows =
        resourceLimit === undefined
          ? await listResources(db, workspace.id)
          : resourceLimit === 0
            ? []
            : await listResources(db, workspace.id, { limit: resourceLimit, offset: 0 });
      const resources = await presentResources(db, rows);
      return workspaceDetailReply(dialectOf(request), presentWorkspace(workspace, role), resources);
    },
  );

  app.patch(
    '/api/workspaces/:id',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'updateWorkspace',
        summary: 'Rename a workspace or change its description or isPublic',
        params: IdParams,
        headers: IfMatchHeaders,
        body: WorkspaceUpdateBody,
        response: { 200: WorkspaceResponse, 412: WorkspaceStaleResponse, ...workspaceErrors },
        responseHeaders: { 200: ['ETag'], 412: ['ETag'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace, role } = authorize(
        user,
        'update',
        await loadWorkspace(db, request.params.id, user),
      );
      const updated = await updateWorkspace(
        db,
        workspace.id,
        request.body,
        user.id,
        expectedVersions('w', request.headers['if-match']),
      );
      if (!updated) throw notFound('Workspace');
      if ('stale' in updated) throw staleWorkspace(updated.stale, role);
      sendsVersion(reply, 'w', updated.row);
      return workspaceReply(dialectOf(request), presentWorkspace(updated.row, role));
    },
  );

  app.delete(
    '/api/workspaces/:id',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'deleteWorkspace',
        summary: 'Delete a workspace with all its resources, annotations and share links',
        params: IdParams,
        headers: IfMatchHeaders,
        response: { 200: DeletedResponse, 412: WorkspaceStaleResponse, ...workspaceErrors },
        responseHeaders: { 412: ['ETag'] },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace, role } = authorize(
        user,
        'delete',
        await loadWorkspace(db, request.params.id, user),
      );
      const deleted = await deleteWorkspace(
        db,
        workspace,
        user.id,
        expectedVersions('w', request.headers['if-match']),
      );
      if (!deleted) throw notFound('Workspace');
      if ('stale' in deleted) throw staleWorkspace(deleted.stale, role);
      await forgetPdfFiles(ctx.platform.blobs, deleted.row);
      return deletedReply(workspace.id);
    },
  );

  app.get(
    '/api/workspaces/:id/resources',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listResources',
        summary:
          'Resources of a workspace with their annotations: a page (limit/offset), filtered and sorted; how many match in X-Total-Count',
        description:
          'The library view. Sorted by `sort` (title, author, year, venue or ' +
          'added, the default) in `order`; filtered by `q` (part of the title or ' +
          'an author), `tag`, `type` and a year range. An empty filter value is ' +
          'the same as none.',
        params: IdParams,
        querystring: ResourceListQuery,
        response: { 200: z.array(ResourceSchema), ...workspaceErrors },
        responseHeaders: { 200: ['X-Total-Count'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'read',
        await loadWorkspace(db, request.params.id, user),
      );
      const { sort, order, ...rest } = request.query;
      const { rows, total } = await queryResources(db, workspace.id, {
        ...rest,
        sort,
        order: order ?? (sort === 'added' || sort === 'year' ? 'desc' : 'asc'),
      });
      void reply.header(TOTAL_HEADER, String(total));
      return presentResources(db, rows);
    },
  );

  const pdfDeps: PdfDeps = { db, blobs: ctx.platform.blobs, extraction: ctx.pdfExtraction };
  // Multipart parsing (and its per-request hooks) only where files are uploaded: the resource create
  // (a JSON body or a PDF) and the PDF upload.
  await app.register(async (uploads) => {
    await uploads.register(multipart, { limits: PDF_MULTIPART_LIMITS });
    addResourceRoute(uploads, ctx, pdfDeps);
    pdfUploadRoute(uploads, ctx, pdfDeps);
  });
  pdfFileRoutes(app, ctx, pdfDeps);

  app.post(
    '/api/workspaces/:id/resources/bulk/tag',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'tagResources',
        summary:
          'Add and/or remove tags on several resources of a workspace at once (all or nothing)',
        description:
          `At most ${LIMITS.bulkResources} resources; any that is not in this ` +
          `workspace makes it a 404 naming it (\`resourceIds.<index>\`), and a ` +
          `resource that would hold more than ${LIMITS.tags} tags a 409. Tags are ` +
          `cleaned as for one resource; one already there in another case is kept as it is.`,
        params: IdParams,
        body: BulkTagBody,
        response: { 200: BulkTagResponse, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'edit',
        await loadWorkspace(db, request.params.id, user),
      );
      return { updated: await retagResources(db, workspace.id, request.body, user.id) };
    },
  );

  app.post(
    '/api/workspaces/:id/resources/bulk/move',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'moveResources',
        summary:
          'Move several resources, with their annotations, to another workspace you may edit (one transaction)',
        description:
          `At most ${LIMITS.bulkResources} resources, all in this workspace (else ` +
          `a 404 naming the first that is not). A resource whose work is already ` +
          `in the target (same DOI, arXiv id, PMID or URL) stays here and is ` +
          `listed in \`duplicates\`; the others move only if the target has room ` +
          `for all of them (409 otherwise, nothing moved). Moved resources keep ` +
          `their citation keys; one whose key another resource of the target ` +
          `holds (in any case) gets a, b… added, listed in \`keysChanged\`.`,
        params: IdParams,
        body: BulkMoveBody,
        response: { 200: BulkMoveResponse, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'edit',
        await loadWorkspace(db, request.params.id, user),
      );
      const { resourceIds, targetWorkspaceId } = request.body;
      if (targetWorkspaceId === workspace.id)
        throw validationError(
          'targetWorkspaceId',
          'same_workspace',
          'targetWorkspaceId is this workspace: choose another',
        );
      try {
        authorize(user, 'edit', await loadWorkspace(db, targetWorkspaceId, user));
      } catch (error) {
        if (error instanceof ApiError && error.code === 'NOT_FOUND')
          throw new ApiError('NOT_FOUND', 'Workspace not found', {
            field: 'targetWorkspaceId',
            reason: 'not_found',
          });
        throw error;
      }
      return {
        targetWorkspaceId,
        ...(await moveResources(db, workspace.id, targetWorkspaceId, resourceIds, user.id)),
      };
    },
  );

  app.post(
    '/api/workspaces/:id/resources/bulk/remove',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'removeResources',
        summary:
          'Remove several resources (and their annotations) from a workspace at once (all or nothing)',
        description:
          `At most ${LIMITS.bulkResources} resources; any that is not in this ` +
          `workspace makes it a 404 naming it (\`resourceIds.<index>\`), and ` +
          `nothing is removed.`,
        params: IdParams,
        body: BulkRemoveBody,
        response: { 200: BulkRemoveResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'edit',
        await loadWorkspace(db, request.params.id, user),
      );
      const { removed, pdfKeys } = await removeResources(
        db,
        workspace.id,
        request.body.resourceIds,
        user.id,
      );
      await forgetPdfFiles(ctx.platform.blobs, pdfKeys);
      return { removed };
    },
  );

  app.patch(
    '/api/workspaces/:id/resources/:resourceId',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'updateResource',
        summary:
          "Change any field of a saved resource: its title, url, type, notes, tags and its record's fields",
        description:
          'An extension of the interface, which has no way to change a saved ' +
          'resource. Every field has the bounds, checks and cleaning of `POST ' +
          '/api/workspaces/{id}/resources` (HTML stripped; tags trimmed, empty ' +
          'ones dropped, de-duplicated ignoring case; DOI syntax, ISBN and ISSN ' +
          'check digits, real dates, page ranges: a 400 names the field); an ' +
          'absent field is unchanged, `tags: []` clears them, `null` clears a ' +
          'record field, `creators` replaces them all. `citationKey` is kept ' +
          'exactly as sent (characters BibTeX and biber read in a key, else a ' +
          '400); a key another resource of the workspace holds, in any case, is a ' +
          '409 `citation_key_taken` naming it, as is making it the same work as ' +
          'another (409 `duplicate`). Logged in the activity ' +
          'with the fields changed, and heard live by the other members. Answers ' +
          'like that POST: the resource (cookie session) or `{ resource }` ' +
          '(bearer token), with its annotations.',
        params: ResourceParams,
        headers: IfMatchHeaders,
        body: ResourceUpdateBody,
        response: {
          200: ResourceResponse,
          409: ErrorResponse,
          412: ResourceStaleResponse,
          ...workspaceErrors,
        },
        responseHeaders: { 200: ['ETag'], 412: ['ETag'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const resource = await loadResourceOf(
        db,
        user,
        request.params.id,
        request.params.resourceId,
        'update',
      );
      const changed = await changeResource(
        db,
        resource,
        request.body,
        user.id,
        expectedVersions('r', request.headers['if-match']),
      );
      if ('stale' in changed) throw await staleResource(db, changed.stale);
      const [presented] = await presentResources(db, [changed.row]);
      sendsVersion(reply, 'r', changed.row);
      return resourceReply(dialectOf(request), presented!);
    },
  );

  app.get(
    '/api/workspaces/:id/resources/:resourceId/refresh',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'refreshResource',
        summary:
          "Update from source: what a lookup of the resource's DOI, arXiv id or PMID says differently, field by field",
        description:
          'Looks the work up now (DOI first, else arXiv id, else PMID; 15 s at most) and ' +
          "lists every field (title, url, type, and the record's) whose looked-up value " +
          'differs and is not empty: a refresh never proposes clearing a field, and ' +
          'creators in roles the source does not name (a translator) are kept after its ' +
          'own. Each `proposed` value is what a PATCH of that field saves (one the PATCH ' +
          'would refuse is not proposed). Nothing is written: apply the changes you accept ' +
          'with `PATCH /api/workspaces/{id}/resources/{resourceId}` and `If-Match` this ' +
          "reply's ETag, so a change made meanwhile is a 412. Editors and the owner only " +
          '(it asks the providers on their behalf). 409 `no_identifier` (field `doi`) when ' +
          'the resource has no DOI, arXiv id or PMID; 404 naming the field looked up when ' +
          'no provider knows it; 503 when the providers do not answer.',
        params: ResourceParams,
        response: {
          200: ResourceRefreshResponse,
          409: ErrorResponse,
          503: ErrorResponse,
          ...workspaceErrors,
        },
        responseHeaders: { 200: ['ETag'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const resource = await loadResourceOf(
        db,
        user,
        request.params.id,
        request.params.resourceId,
        'update',
      );
      const proposal = await proposeRefresh(ctx.resolveResource, resource);
      sendsVersion(reply, 'r', resource);
      void reply.header('cache-control', 'private, no-store');
      return proposal;
    },
  );

  app.delete(
    '/api/workspaces/:id/resources/:resourceId',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'removeResource',
        summary: 'Remove a resource (and its annotations) from a workspace',
        params: ResourceParams,
        headers: IfMatchHeaders,
        response: { 200: DeletedResponse, 412: ResourceStaleResponse, ...workspaceErrors },
        responseHeaders: { 412: ['ETag'] },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const resource = await loadResourceOf(
        db,
        user,
        request.params.id,
        request.params.resourceId,
        'delete',
      );
      const removed = await removeResource(
        db,
        resource,
        user.id,
        expectedVersions('r', request.headers['if-match']),
      );
      if ('stale' in removed) throw await staleResource(db, removed.stale);
      await forgetPdfFiles(ctx.platform.blobs, removed.row);
      return deletedReply(resource.id);
    },
  );

  app.get(
    '/api/workspaces/:id/export',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'exportWorkspace',
        summary:
          'Download the workspace as citations: format=bibtex (default), biblatex, ris or csljson',
        params: IdParams,
        querystring: ExportQuery,
        response: {
          200: {
            description:
              'The citation file in the format asked for, sent as an attachment: one ' +
              'record per resource, each value (notes included: BibTeX `annote`, BibLaTeX ' +
              '`annotation`, RIS `N1`) on one line and escaped for the format, so that a ' +
              'parser reads back exactly the value saved and pdflatex with BibTeX or ' +
              'biblatex with biber compiles it (BibTeX keywords aside: `,` `;` braces, ' +
              'backslashes and `$` become spaces); DOIs and PMIDs only when valid, ' +
              'http(s) URLs only. bibtex: letters past ASCII as LaTeX accents (`{\\"u}`), ' +
              'page ranges with `--`, titles case-protected (an imported title keeps its ' +
              "braces, others get Better BibTeX's rule), an arXiv preprint as `@misc` with " +
              '`eprint`, `archivePrefix`, `primaryClass`, months as month macros. biblatex: ' +
              'the same in UTF-8, with `date`, `journaltitle`, `location`, `eprint` and ' +
              '`eprinttype`. csljson: `id` is the citation key',
            content: {
              'application/x-bibtex': { schema: CitationText.describe('BibTeX or BibLaTeX') },
              'application/x-research-info-systems': { schema: CitationText.describe('RIS') },
              'application/vnd.citationstyles.csl+json': { schema: CslJsonExport },
            },
          },
          ...workspaceErrors,
        },
        responseHeaders: { 200: ['Content-Disposition'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'export',
        await loadWorkspace(db, request.params.id, user),
      );
      const file = await exportCitations(
        await listResources(db, workspace.id),
        request.query.format,
      );
      return (
        reply
          .header('content-type', file.contentType)
          .header('content-disposition', contentDisposition(workspace.name, file.extension))
          .header('cache-control', 'private, no-store')
          // Sent as written: the CSL-JSON content type would otherwise put the text through the JSON serializer.
          .serializer((body: string) => body)
          .send(file.body)
      );
    },
  );

  await importRoutes(root, ctx);
  await citeRoutes(root, ctx);
  await notesRoutes(root, ctx);
  await annotationRoutes(root, ctx);
  await shareRoutes(root, ctx);
  await feedRoutes(root, ctx);
  await memberRoutes(root, ctx);
  await eventRoutes(root, ctx);
  await duplicateRoutes(root, ctx);
}

/**
 * POST /api/workspaces/{id}/resources: a JSON body (described, or by resourceId) or a multipart PDF
 * (field `file`) to make the resource from; the content type decides. Validation is attached rather
 * than thrown, because a multipart body is read by the handler, not by the schema.
 */
function addResourceRoute(root: FastifyInstance, ctx: AppContext, pdfDeps: PdfDeps): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;
  app.post(
    '/api/workspaces/:id/resources',
    {
      config: { auth: 'required', rateLimit: ['user'], idempotent: true },
      attachValidation: true,
      schema: {
        tags,
        operationId: 'addResource',
        summary:
          'Add a resource: described (title, url, notes, type, tags, authors, ' +
          'data), by resourceId (looked up through search), or made from a PDF ' +
          '(multipart `file`)',
        description:
          'The content type decides: `application/json` takes the described ' +
          '(Variant A) or `resourceId` (Variant B) body; `multipart/form-data` a ' +
          'PDF of at most 50 MB (field `file`, judged by its bytes; else 415), ' +
          'kept with the new resource. A resource made from a PDF is titled by the ' +
          "file's name until its text is extracted in the background; then a DOI " +
          'or arXiv id printed on its first two pages is looked up to fill the ' +
          "record (title, authors, abstract, identifiers), else the PDF's own " +
          "Title/Author metadata or its first page's title line are used " +
          '(`data.metadataFrom` says which). The same PDF twice in one workspace is a 409.',
        params: IdParams,
        body: ResourceCreateBody,
        consumes: ['application/json', 'multipart/form-data'],
        requestBody: RESOURCE_FROM_PDF_BODY,
        response: {
          201: ResourceResponse,
          409: ErrorResponse,
          413: ErrorResponse,
          415: ErrorResponse,
          503: ErrorResponse,
          ...workspaceErrors,
        },
        responseHeaders: { 201: ['ETag'] },
      },
    },
    async (request, reply) => {
      const problem = request.validationError;
      const multipartBody = request.isMultipart();
      // A multipart body fails the JSON schema by nature; anything else at fault (the path, a bad JSON body) is the answer.
      if (problem && !(multipartBody && problem.validationContext === 'body')) throw problem;
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'edit',
        await loadWorkspace(db, request.params.id, user),
      );
      // The slow part first (the upload into the blob store, a lookup through search), then the
      // resource and the answer kept for an Idempotency-Key in one transaction (platform/idempotency.ts).
      if (multipartBody) {
        const upload = await receiveNewResourcePdf(
          pdfDeps,
          workspace.id,
          user.id,
          await filePartOf(request),
        );
        try {
          return await request.answerOnce(reply, 201, async (db) => {
            const { resource, pdf } = await upload.record(db);
            sendsVersion(reply, 'r', resource);
            return resourceReply(dialectOf(request), presentResource(resource, [], pdf));
          });
        } catch (error) {
          // Not recorded: the file is nobody's.
          await upload.forget();
          throw error;
        }
      }
      const insert = await describeNewResource(
        ctx.resolveResource,
        workspace.id,
        user.id,
        request.body,
      );
      return request.answerOnce(reply, 201, async (db) => {
        const resource = await insert(db);
        sendsVersion(reply, 'r', resource);
        return resourceReply(dialectOf(request), presentResource(resource));
      });
    },
  );
}
