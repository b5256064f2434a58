/**
 * POST /api/workspaces/{id}/resources/{resourceId}/notes: text appended to a saved resource's notes
 * (the summary dialog's "Save to notes"), on the server, so that an edit saved meanwhile is not lost.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dialectOf, requireUser } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../platform/errors.js';
import { documentBody, ErrorResponse } from '../../platform/openapi.js';
import { plainText } from '../../platform/sanitize.js';
import { expectedVersions } from '../../platform/versions.js';
import { authorize } from '../policy.js';
import { resourceReply } from '../presenters.js';
import { IfMatchHeaders, LIMITS, workspaceErrors } from '../schemas.js';
import { ResourceParams, ResourceResponse, ResourceStaleResponse } from '../resources/schemas.js';
import { loadWorkspace } from '../store.js';
import { loadResource } from '../resources/store.js';
import { presentResources, sendsVersion, staleResource } from '../versions.js';
import { appendToNotes } from './append.js';

const NotesAppendBody = z
  .strictObject({
    text: plainText(LIMITS.notes, { required: true }).describe(
      'Plain text to add at the end of the notes, after a blank line (HTML is stripped)',
    ),
  })
  .meta({ id: 'NotesAppend', description: 'Text to append to the notes' });
documentBody(NotesAppendBody, {
  examples: [
    {
      text: 'Summary (quick, 2026-11-27)\nTL;DR: A network with an external memory it learns to address.',
    },
  ],
});

export async function notesRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;
  app.post(
    '/api/workspaces/:id/resources/:resourceId/notes',
    {
      config: { auth: 'required', rateLimit: ['user'], idempotent: true },
      schema: {
        tags: ['workspaces'],
        operationId: 'appendToNotes',
        summary: "Append text to a saved resource's notes",
        description:
          `The text goes after the notes as they are when the request is served ` +
          `(after a blank line), so an edit saved meanwhile is kept. When the ` +
          `notes would then be longer than ${LIMITS.notes.toLocaleString('en-US')} ` +
          `characters nothing is written: 409 with \`details.reason\` ` +
          `\`notes_full\` and a message saying by how much. Answers like PATCH: ` +
          `the resource (cookie session) or \`{ resource }\` (bearer token).`,
        params: ResourceParams,
        headers: IfMatchHeaders,
        body: NotesAppendBody,
        response: {
          200: ResourceResponse,
          ...workspaceErrors,
          409: ErrorResponse,
          412: ResourceStaleResponse,
        },
        responseHeaders: { 200: ['ETag'], 412: ['ETag'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // As a resource's PATCH: reading the workspace, changing the resource (an editor's).
      const { workspace } = authorize(
        user,
        'read',
        await loadWorkspace(db, request.params.id, user),
      );
      const { resource } = authorize(
        user,
        'update',
        await loadResource(db, request.params.resourceId, user),
      );
      if (resource.workspaceId !== workspace.id) throw notFound('Resource');
      // The notes and the answer kept for an Idempotency-Key are one transaction (platform/idempotency.ts).
      return request.answerOnce(reply, 200, async (db) => {
        const updated = await appendToNotes(
          db,
          resource,
          request.body.text,
          user.id,
          expectedVersions('r', request.headers['if-match']),
        );
        if ('stale' in updated) throw await staleResource(db, updated.stale);
        const [presented] = await presentResources(db, [updated.row]);
        sendsVersion(reply, 'r', updated.row);
        return resourceReply(dialectOf(request), presented!);
      });
    },
  );
}
