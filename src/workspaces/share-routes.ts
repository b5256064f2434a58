/**
 * Share links (docs/design.md, Request shapes) and the public page they open. The page needs no sign-in
 * and sets no cookies (route config `noCookies`); the token never reaches a log (the logger redacts
 * `/share/<token>`) and only its hash is looked up.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../auth/index.js';
import type { AppContext } from '../context.js';
import { hashToken } from '../platform/crypto.js';
import { notFound } from '../platform/errors.js';
import { PUBLIC } from '../platform/openapi.js';
import { createShareLink, isWellFormedShareToken, resumeShareLink, revokeShareLink, shareTokenOf, shareUrl } from './commands.js';
import { authorize } from './policy.js';
import { deletedReply, presentShareLink } from './presenters.js';
import { DeletedResponse, IdParams, ShareCreateBody, ShareLinkSchema, ShareParams, SharePageQuery, ShareTokenParams, workspaceErrors } from './schemas.js';
import { renderShareBadPageNumberPage, renderShareNotFoundPage, renderSharePage, renderShareRateLimitedPage, SHARE_PAGE_HEADERS, SHARE_PAGE_LIMITS } from './share-page.js';
import { annotationPreviews, countResources, findWorkspaceByShareToken, listResources, listShareLinks, loadWorkspace } from './store.js';

const tags = ['share links'];

export async function shareRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;
  const secret = ctx.platform.signingSecret;
  const present = (link: Parameters<typeof presentShareLink>[0]) => {
    const token = shareTokenOf(link, secret);
    return presentShareLink(link, token, token ? shareUrl(ctx.config.publicUrl, token) : null);
  };

  app.get(
    '/api/workspaces/:id/share',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listShareLinks',
        summary: 'Share links of a workspace that are not revoked, newest first (expired ones have active: false)',
        params: IdParams,
        response: { 200: z.array(ShareLinkSchema), ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(user, 'readShares', await loadWorkspace(db, request.params.id, user));
      return (await listShareLinks(db, workspace.id)).map(present);
    },
  );

  app.post(
    '/api/workspaces/:id/share',
    {
      config: { auth: 'required', rateLimit: ['user'], idempotent: true },
      schema: {
        tags,
        operationId: 'createShareLink',
        summary: 'Create a read-only share link: expiresInDays (1-365, default 30) or expiresAt; the reply carries its public url',
        params: IdParams,
        body: ShareCreateBody,
        response: { 201: ShareLinkSchema, ...workspaceErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace } = authorize(user, 'share', await loadWorkspace(db, request.params.id, user));
      const { link, token } = await createShareLink(db, secret, workspace.id, request.body, user.id);
      return reply.status(201).send(presentShareLink(link, token, shareUrl(ctx.config.publicUrl, token)));
    },
  );

  app.delete(
    '/api/workspaces/:id/share/:shareId',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'revokeShareLink',
        summary: 'Revoke a share link: its page answers 404 from now on',
        params: ShareParams,
        response: { 200: DeletedResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(user, 'manageShares', await loadWorkspace(db, request.params.id, user));
      if (!(await revokeShareLink(db, workspace.id, request.params.shareId, user.id))) throw notFound('Share link');
      return deletedReply(request.params.shareId);
    },
  );

  app.post(
    '/api/workspaces/:id/share/:shareId/resume',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'resumeShareLink',
        summary: 'Resume a share link paused when the account was claimed by the owner of its e-mail address: its page opens again, at the same address',
        description: 'Only a paused link that is not revoked can be resumed; any other answers 404. Resume only the links you made yourself (see `pausedAt`).',
        params: ShareParams,
        response: { 200: ShareLinkSchema, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(user, 'manageShares', await loadWorkspace(db, request.params.id, user));
      const link = await resumeShareLink(db, workspace.id, request.params.shareId, user.id);
      if (!link) throw notFound('Paused share link');
      return present(link);
    },
  );

  app.get(
    '/share/:token',
    {
      schema: {
        tags,
        operationId: 'getSharePage',
        summary:
          'The public, read-only HTML page of a shared workspace (no sign-in, no cookies): 25 resources a page with links to the others, at most 5 annotations each, long texts shortened; rate-limited per address',
        security: PUBLIC,
        params: ShareTokenParams,
        querystring: SharePageQuery,
        produces: ['text/html'],
        response: {
          200: z.string().describe('HTML page of the workspace'),
          400: z.string().describe('HTML page: the page number is not a whole number from 1 to 1,000'),
          404: z.string().describe('HTML page: the link is unknown, expired or revoked'),
          429: z.string().describe('HTML page: too many requests from this address (Retry-After says when to try again)'),
        },
      },
      // Counted per address; a refusal is answered as a page (its Retry-After and RateLimit-* set by the chain).
      config: { auth: 'none', noCookies: true, rateLimit: ['sharePage'], attachRefusal: true },
      // Bad input is answered as a page too (the document says text/html), not as the API's JSON error.
      attachValidation: true,
    },
    async (request, reply) => {
      void reply.headers(SHARE_PAGE_HEADERS);
      if (request.rateLimitRefusal) return reply.status(429).send(renderShareRateLimitedPage());
      if (request.validationError) {
        return request.validationError.validationContext === 'querystring'
          ? reply.status(400).send(renderShareBadPageNumberPage())
          : reply.status(404).send(renderShareNotFoundPage());
      }
      const { token } = request.params;
      const shared = isWellFormedShareToken(token) ? await findWorkspaceByShareToken(db, hashToken(token), new Date()) : null;
      if (!shared) return reply.status(404).send(renderShareNotFoundPage());
      const perPage = SHARE_PAGE_LIMITS.resourcesPerPage;
      const pageNumber = request.query.page;
      const [totalResources, resources] = await Promise.all([
        countResources(db, shared.workspace.id),
        listResources(db, shared.workspace.id, { limit: perPage, offset: (pageNumber - 1) * perPage }),
      ]);
      const previews = await annotationPreviews(db, resources.map((resource) => resource.id), SHARE_PAGE_LIMITS.annotationsPerResource);
      return reply.send(
        renderSharePage({
          workspace: shared.workspace,
          expiresAt: shared.link.expiresAt,
          resources: resources.map((resource) => {
            const preview = previews.get(resource.id);
            return { resource, annotations: preview?.shown ?? [], annotationTotal: preview?.total ?? 0 };
          }),
          page: { number: pageNumber, count: Math.max(1, Math.ceil(totalResources / perPage)), totalResources },
        }),
      );
    },
  );
}
