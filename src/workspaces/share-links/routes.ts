/**
 * Share links (docs/design.md, Request shapes) and the public page they open. The page needs no sign-in
 * and sets no cookies (route config `noCookies`); the token never reaches a log (the logger redacts
 * `/share/<token>`) and only its hash is looked up.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dialectOf, requireUser, userOfSessionCookies } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import { hashToken } from '../../platform/crypto.js';
import { notFound } from '../../platform/errors.js';
import { ErrorResponse, PUBLIC } from '../../platform/openapi.js';
import {
  createShareLink,
  isWellFormedShareToken,
  joinPageUrl,
  resumeShareLink,
  revokeShareLink,
  setShareLinkJoin,
  shareTokenOf,
  shareUrl,
} from '../commands.js';
import { authorize, roleMay } from '../policy.js';
import { joinByShareLink } from '../members/commands.js';
import { deletedReply, presentWorkspace, workspaceReply } from '../presenters.js';
import { presentShareLink } from './presenters.js';
import { DeletedResponse, IdParams, workspaceErrors, WorkspaceResponse } from '../schemas.js';
import {
  ShareCreateBody,
  ShareJoinParams,
  ShareLinkSchema,
  ShareParams,
  SharePageQuery,
  ShareTokenParams,
  ShareUpdateBody,
} from './schemas.js';
import {
  renderShareBadPageNumberPage,
  renderShareNotFoundPage,
  readerLocale,
  renderSharePage,
  renderShareRateLimitedPage,
  SHARE_PAGE_HEADERS,
  SHARE_PAGE_LIMITS,
} from './share-page.js';
import { loadWorkspace, roleIn } from '../store.js';
import { countResources, listResources } from '../resources/store.js';
import { annotationPreviews } from '../annotations/store.js';
import { findWorkspaceByShareToken, listShareLinks } from './store.js';

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
        summary:
          'Share links of a workspace that are not revoked, newest first (expired ones have active: false); an editor sees the read-only ones only',
        description:
          'Editors and the owner. An editable link (and its token) is listed to ' +
          'the owner alone: through it whoever holds it joins as editor, so an ' +
          'editor who could read it could come back after the owner removed or demoted them.',
        params: IdParams,
        response: { 200: z.array(ShareLinkSchema), ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace, role } = authorize(
        user,
        'readShares',
        await loadWorkspace(db, request.params.id, user),
      );
      const seesEditable = roleMay(role, 'workspace', 'readEditableShares');
      return (await listShareLinks(db, workspace.id))
        .filter((link) => link.readOnly || seesEditable)
        .map(present);
    },
  );

  app.post(
    '/api/workspaces/:id/share',
    {
      config: { auth: 'required', rateLimit: ['user'], idempotent: true },
      schema: {
        tags,
        operationId: 'createShareLink',
        summary:
          'Create a share link, read-only (editors and the owner) or editable ' +
          '(readOnly: false, the owner only): expiresInDays (1-365, default 30) or ' +
          'expiresAt; the reply carries its public url',
        description:
          'Anyone with the link reads the workspace on its public page without ' +
          'signing in. A signed-in person who opens it may join the workspace ' +
          '(POST /api/share/{token}/join) only through an editable link (as ' +
          'editor) or a read-only one made with allowJoin: true (as viewer); both ' +
          "are the owner's to make (an editor gets 403).",
        params: IdParams,
        body: ShareCreateBody,
        response: { 201: ShareLinkSchema, ...workspaceErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // A link someone joins through is the owner's alone (BODY_ACTIONS): editable, or read-only open to joining.
      const action = !request.body.readOnly
        ? 'shareEditable'
        : request.body.allowJoin
          ? 'shareJoinable'
          : 'share';
      const { workspace } = authorize(
        user,
        action,
        await loadWorkspace(db, request.params.id, user),
      );
      // The link and the answer kept for an Idempotency-Key are one transaction (platform/idempotency.ts).
      return request.answerOnce(reply, 201, async (db) => {
        const { link, token } = await createShareLink(db, secret, workspace.id, user, request.body);
        return presentShareLink(link, token, shareUrl(ctx.config.publicUrl, token));
      });
    },
  );

  app.patch(
    '/api/workspaces/:id/share/:shareId',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'updateShareLink',
        summary:
          'Turn joining through a read-only share link on or off (allowJoin; the owner only): its page and address stay as they are',
        description:
          'An editable link always allows joining: allowJoin: false on one is a 409 (revoke it instead). A revoked or unknown link is a 404.',
        params: ShareParams,
        body: ShareUpdateBody,
        response: { 200: ShareLinkSchema, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'manageShares',
        await loadWorkspace(db, request.params.id, user),
      );
      const link = await setShareLinkJoin(
        db,
        workspace.id,
        request.params.shareId,
        request.body.allowJoin,
        user.id,
      );
      if (!link) throw notFound('Share link');
      return present(link);
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
      const { workspace } = authorize(
        user,
        'manageShares',
        await loadWorkspace(db, request.params.id, user),
      );
      if (!(await revokeShareLink(db, workspace.id, request.params.shareId, user.id)))
        throw notFound('Share link');
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
        summary:
          'Resume a share link paused when the account was claimed by the owner of its e-mail address: its page opens again, at the same address',
        description:
          'Only a paused link that is not revoked can be resumed; any other answers 404. Resume only the links you made yourself (see `pausedAt`).',
        params: ShareParams,
        response: { 200: ShareLinkSchema, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'manageShares',
        await loadWorkspace(db, request.params.id, user),
      );
      const link = await resumeShareLink(db, workspace.id, request.params.shareId, user.id);
      if (!link) throw notFound('Paused share link');
      return present(link);
    },
  );

  app.post(
    '/api/share/:token/join',
    {
      config: { auth: 'required', rateLimit: ['user', 'shareJoin'] },
      schema: {
        tags,
        operationId: 'joinShareLink',
        summary:
          "Join a share link's workspace (signed in): as editor through an " +
          'editable link, as viewer through a read-only one that allows joining; ' +
          'the reply is the workspace with your role in it',
        description:
          'Someone already a member, or the owner, keeps the role they have (200, ' +
          'nothing changes). 403 `AUTHORIZATION_ERROR` with `details.reason`: ' +
          '`join_not_allowed`, a read-only link its owner did not open to joining ' +
          '(its page still reads); `removed`, the owner removed you from this ' +
          'workspace (only a new invitation from them lets you back). Nobody joins ' +
          'with more than the role the owner last gave them: a member the owner ' +
          'demoted to viewer who leaves comes back as viewer, even through an ' +
          'editable link. A revoked, paused, expired or unknown link is a 404, as ' +
          'its page is; revoking a link stops new joins, not the members who ' +
          'joined through it. Limited per user (RATE_LIMIT_SHARE_JOINS_PER_HOUR).',
        params: ShareJoinParams,
        response: { 200: WorkspaceResponse, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const joined = await joinByShareLink(db, request.params.token, user);
      const { workspace, role } = authorize(
        user,
        'read',
        await loadWorkspace(db, joined.workspaceId, user),
      );
      return workspaceReply(dialectOf(request), presentWorkspace(workspace, role));
    },
  );

  app.get(
    '/share/:token',
    {
      schema: {
        tags,
        operationId: 'getSharePage',
        summary:
          'The public, read-only HTML page of a shared workspace (no sign-in, no ' +
          'cookies): 25 resources a page with links to the others, at most 5 ' +
          'annotations each, long texts shortened; rate-limited per address',
        security: PUBLIC,
        params: ShareTokenParams,
        querystring: SharePageQuery,
        produces: ['text/html'],
        response: {
          200: z.string().describe('HTML page of the workspace'),
          400: z
            .string()
            .describe('HTML page: the page number is not a whole number from 1 to 1,000'),
          404: z.string().describe('HTML page: the link is unknown, expired or revoked'),
          429: z
            .string()
            .describe(
              'HTML page: too many requests from this address (Retry-After says when to try again)',
            ),
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
      const shared = isWellFormedShareToken(token)
        ? await findWorkspaceByShareToken(db, hashToken(token), new Date())
        : null;
      if (!shared) return reply.status(404).send(renderShareNotFoundPage());
      const perPage = SHARE_PAGE_LIMITS.resourcesPerPage;
      const pageNumber = request.query.page;
      const [totalResources, resources] = await Promise.all([
        countResources(db, shared.workspace.id),
        listResources(db, shared.workspace.id, {
          limit: perPage,
          offset: (pageNumber - 1) * perPage,
        }),
      ]);
      const previews = await annotationPreviews(
        db,
        resources.map((resource) => resource.id),
        SHARE_PAGE_LIMITS.annotationsPerResource,
      );
      // The page differs for a signed-in visitor (it offers to join) and by the reader's language (its dates).
      void reply.header('vary', 'Cookie, Accept-Language');
      // A signed-in visitor who is not in the workspace yet is offered to join it.
      const visitor = await userOfSessionCookies(request, ctx.sessions);
      const joinable = shared.link.allowJoin || !shared.link.readOnly;
      const isMember =
        visitor !== null &&
        (await roleIn(db, shared.workspace.id, shared.workspace.ownerId, { id: visitor })) !== null;
      const role = shared.link.readOnly ? ('viewer' as const) : ('editor' as const);
      const joinHref = joinPageUrl(ctx.config.appOrigin, token);
      const comeBack = `next=${encodeURIComponent(new URL(joinHref).pathname)}`;
      return reply.send(
        renderSharePage({
          workspace: shared.workspace,
          expiresAt: shared.link.expiresAt,
          resources: resources.map((resource) => {
            const preview = previews.get(resource.id);
            return {
              resource,
              annotations: preview?.shown ?? [],
              annotationTotal: preview?.total ?? 0,
            };
          }),
          page: {
            number: pageNumber,
            count: Math.max(1, Math.ceil(totalResources / perPage)),
            totalResources,
          },
          locale: readerLocale(request.headers['accept-language']),
          access: !shared.link.readOnly ? 'edit' : shared.link.allowJoin ? 'view' : 'read-only',
          ...(joinable && !isMember
            ? {
                join:
                  visitor !== null
                    ? { signedIn: true as const, href: joinHref, role }
                    : {
                        signedIn: false as const,
                        signInHref: `${ctx.config.appOrigin}/auth/signin?${comeBack}`,
                        signUpHref: `${ctx.config.appOrigin}/auth/signup?${comeBack}`,
                        role,
                      },
              }
            : {}),
        }),
      );
    },
  );
}
