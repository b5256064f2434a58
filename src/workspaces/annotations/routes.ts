/** Annotations of a workspace resource (docs/design.md, Request shapes): list, create, and change or delete one's own. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../platform/errors.js';
import { ErrorResponse } from '../../platform/openapi.js';
import { expectedVersions } from '../../platform/versions.js';
import { annotateResource, changeAnnotation, removeAnnotation } from '../commands.js';
import { authorize } from '../policy.js';
import { deletedReply, presentAnnotation } from '../presenters.js';
import {
  DeletedResponse,
  IdParams,
  IfMatchHeaders,
  ListQuery,
  workspaceErrors,
} from '../schemas.js';
import { AnnotationSchema } from './schemas.js';
import { AnnotationCreateBody, AnnotationStaleResponse, AnnotationUpdateBody } from './schemas.js';
import { loadResource } from '../resources/store.js';
import { listAnnotations, loadAnnotation } from './store.js';
import { sendsVersion, staleAnnotation } from '../versions.js';

const tags = ['annotations'];

export async function annotationRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    '/api/resources/:id/annotations',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listAnnotations',
        summary:
          'Annotations of a workspace resource, oldest first (limit/offset; total in X-Total-Count)',
        params: IdParams,
        querystring: ListQuery,
        response: { 200: z.array(AnnotationSchema), ...workspaceErrors },
        responseHeaders: { 200: ['X-Total-Count'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { resource } = authorize(user, 'read', await loadResource(db, request.params.id, user));
      const { rows, total } = await listAnnotations(db, resource.id, request.query);
      void reply.header('x-total-count', String(total));
      return rows.map(presentAnnotation);
    },
  );

  app.post(
    '/api/resources/:id/annotations',
    {
      config: { auth: 'required', rateLimit: ['user'], idempotent: true },
      schema: {
        tags,
        operationId: 'createAnnotation',
        summary:
          'Annotate a resource: body ≤ 10,000 characters, highlights { ranges: [{ ' +
          'start, end, text?, color? }] }, { pdf: { page, quote, rects } } or any object ≤ 16 KB',
        params: IdParams,
        body: AnnotationCreateBody,
        response: { 201: AnnotationSchema, 409: ErrorResponse, ...workspaceErrors },
        responseHeaders: { 201: ['ETag'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { resource } = authorize(
        user,
        'annotate',
        await loadResource(db, request.params.id, user),
      );
      // The annotation and the answer kept for an Idempotency-Key are one transaction (platform/idempotency.ts).
      return request.answerOnce(reply, 201, async (db) => {
        const annotation = await annotateResource(db, user.id, resource.id, request.body);
        sendsVersion(reply, 'a', annotation);
        return presentAnnotation({ ...annotation, authorName: user.name });
      });
    },
  );

  app.patch(
    '/api/annotations/:id',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'updateAnnotation',
        summary: 'Change one of your annotations (body and/or highlights)',
        params: IdParams,
        headers: IfMatchHeaders,
        body: AnnotationUpdateBody,
        response: { 200: AnnotationSchema, 412: AnnotationStaleResponse, ...workspaceErrors },
        responseHeaders: { 200: ['ETag'], 412: ['ETag'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { annotation } = authorize(
        user,
        'update',
        await loadAnnotation(db, request.params.id, user),
      );
      const updated = await changeAnnotation(
        db,
        annotation,
        request.body,
        user.id,
        expectedVersions('a', request.headers['if-match']),
      );
      if (!updated) throw notFound('Annotation');
      if ('stale' in updated) throw staleAnnotation(updated.stale);
      sendsVersion(reply, 'a', updated.row);
      return presentAnnotation({ ...updated.row, authorName: user.name });
    },
  );

  app.delete(
    '/api/annotations/:id',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'deleteAnnotation',
        summary: 'Delete one of your annotations',
        params: IdParams,
        headers: IfMatchHeaders,
        response: { 200: DeletedResponse, 412: AnnotationStaleResponse, ...workspaceErrors },
        responseHeaders: { 412: ['ETag'] },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { annotation } = authorize(
        user,
        'delete',
        await loadAnnotation(db, request.params.id, user),
      );
      const deleted = await removeAnnotation(
        db,
        annotation,
        user.id,
        expectedVersions('a', request.headers['if-match']),
      );
      if (!deleted) throw notFound('Annotation');
      if ('stale' in deleted) throw staleAnnotation(deleted.stale);
      return deletedReply(annotation.id);
    },
  );
}
