/**
 * GET /api/workspaces/{id}/duplicates (likely duplicates, in groups) and POST …/duplicates/merge
 * (several resources into one). Each handler: validated input → user → load → authorize → do → present.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import { ErrorResponse } from '../../platform/openapi.js';
import { forgetPdfFiles } from '../pdfs/commands.js';
import { authorize } from '../policy.js';
import { IdParams, workspaceErrors } from '../schemas.js';
import { loadWorkspace } from '../store.js';
import { resourcesOf } from '../resources/store.js';
import { presentResources, sendsVersion } from '../versions.js';
import { duplicateGroups } from './groups.js';
import { mergeResources } from './merge.js';
import { DuplicatesResponse, MERGE_MAX, MergeBody, MergeResponse } from './schemas.js';
import { resourceTraits } from './store.js';
import { wholeList } from '../../platform/reply-shapes.js';

const tags = ['workspaces'];

export async function duplicateRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    '/api/workspaces/:id/duplicates',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listDuplicates',
        summary: 'Likely duplicates among the resources of a workspace, in groups',
        description:
          'Resources are likely the same work when they share a DOI (any case), an arXiv ' +
          'id or a PMID, or when their titles are the same once accents, case and ' +
          'punctuation are folded, with the same year (or no year on either) and the same ' +
          'first author family name, folded alike (or no author on either); two alike by ' +
          'title that both carry a DOI (an arXiv id, a PMID) and differ in it are not. ' +
          'Resources linked through one another are one group; a resource is in one group ' +
          'at most. Groups come strongest reason first; resources oldest first, each as ' +
          'the other resource replies show it.',
        params: IdParams,
        response: { 200: DuplicatesResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'read',
        await loadWorkspace(db, request.params.id, user),
      );
      const groups = duplicateGroups(await resourceTraits(db, workspace.id));
      const rows = await resourcesOf(
        db,
        workspace.id,
        groups.flatMap((group) => group.ids),
      );
      const presented = new Map(
        (await presentResources(db, rows)).map((resource) => [resource.id, resource]),
      );
      const shown = groups
        .map((group) => ({
          reason: group.reason,
          // A resource removed between the two reads is left out (and a group left with one, too).
          resources: group.ids.flatMap((id) => presented.get(id) ?? []),
        }))
        .filter((group) => group.resources.length > 1);
      return { groups: shown, ...wholeList(shown.length) };
    },
  );

  app.post(
    '/api/workspaces/:id/duplicates/merge',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'mergeDuplicates',
        summary: 'Merge resources into one: fields filled, notes, tags, annotations and PDF moved',
        description:
          `In one transaction: \`keep\` keeps its record, and each field it lacks ` +
          `(creators when it has none; each text, date and identifier) is taken from the ` +
          `first of \`merge\` (at most ${MERGE_MAX}) that has it, as are its title and URL when it ` +
          `has none; notes are joined, kept first, with a blank line between (a text already ` +
          `there is not repeated); tags are united; every annotation moves to it; a PDF ` +
          `moves to it when it has none (else the others' PDFs are deleted); the others are ` +
          `removed. A 404 names an id that is not in this workspace; a 409 (nothing merged) ` +
          `when one was removed since (\`reason: gone\`: another merge won), changed since ` +
          `the version \`expectedVersions\` gives (\`changed\`), or when the kept resource ` +
          `would pass a limit: notes over 10,000 characters (\`notes_too_long\`), more than ` +
          `20 tags (\`too_many_tags\`) or 100 annotations (\`too_many_annotations\`).`,
        params: IdParams,
        body: MergeBody,
        response: { 200: MergeResponse, 409: ErrorResponse, ...workspaceErrors },
        responseHeaders: { 200: ['ETag'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'edit',
        await loadWorkspace(db, request.params.id, user),
      );
      // A moved PDF still waiting for its text gets a job in the merge's transaction.
      await ctx.pdfExtraction.ready();
      const merged = await mergeResources(
        db,
        workspace.id,
        request.body,
        user.id,
        ctx.pdfExtraction.enqueue,
      );
      await forgetPdfFiles(ctx.platform.blobs, merged.pdfKeys);
      const [resource] = await presentResources(db, [merged.row]);
      sendsVersion(reply, 'r', merged.row);
      return { resource: resource!, merged: merged.merged, filled: merged.filled };
    },
  );
}
