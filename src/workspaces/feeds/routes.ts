/**
 * Bibliography feeds (commands.ts): made, listed and revoked by any member for themselves, and the
 * public URL that answers the export. The URL's secret never reaches a log (the logger redacts
 * `/feeds/<secret>`); only its hash is looked up.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../platform/errors.js';
import { ErrorResponse, PUBLIC } from '../../platform/openapi.js';
import { authorize } from '../policy.js';
import { deletedReply } from '../presenters.js';
import {
  CitationText,
  CslJsonExport,
  DeletedResponse,
  IdParams,
  workspaceErrors,
} from '../schemas.js';
import { loadWorkspace } from '../store.js';
import { createFeed, feedUrl, readFeed } from './commands.js';
import { presentCreatedFeed, presentFeed } from './presenters.js';
import {
  FeedCreateBody,
  FeedCreatedSchema,
  FeedFileParams,
  FeedListResponse,
  FeedParams,
  FEEDS_PER_MEMBER,
} from './schemas.js';
import { deleteFeed, listFeeds } from './store.js';
import { wholeList } from '../../platform/reply-shapes.js';

const tags = ['feeds'];

export async function feedRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.post(
    '/api/workspaces/:id/feeds',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'createFeed',
        summary: 'Make a bibliography feed: a secret URL that answers the export without a session',
        description:
          'Any member may make feeds of a workspace for themselves (at most ' +
          `${FEEDS_PER_MEMBER}; a 409 beyond). The reply's \`url\` is shown this once ` +
          '(only its hash is kept): paste it into Overleaf ("New file → From external URL"), ' +
          'a Makefile, `\\addbibresource[location=remote]{…}` or pandoc. It answers while ' +
          'its maker is a member, until revoked.',
        params: IdParams,
        body: FeedCreateBody,
        response: { 201: FeedCreatedSchema, 409: ErrorResponse, ...workspaceErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'feed',
        await loadWorkspace(db, request.params.id, user),
      );
      const { feed, token } = await createFeed(db, workspace.id, user.id, request.body.format);
      reply.header('cache-control', 'no-store');
      return reply
        .code(201)
        .send(presentCreatedFeed(feed, feedUrl(ctx.config.publicUrl, token, request.body.format)));
    },
  );

  app.get(
    '/api/workspaces/:id/feeds',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listFeeds',
        summary: "Your feeds of the workspace (never their URLs, nor other members' feeds)",
        params: IdParams,
        response: { 200: FeedListResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'feed',
        await loadWorkspace(db, request.params.id, user),
      );
      const feeds = (await listFeeds(db, workspace.id, user.id)).map(presentFeed);
      return { feeds, ...wholeList(feeds.length) };
    },
  );

  app.delete(
    '/api/workspaces/:id/feeds/:feedId',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'revokeFeed',
        summary: 'Revoke one of your feeds: its URL answers 404 from now on',
        params: FeedParams,
        response: { 200: DeletedResponse, ...workspaceErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'feed',
        await loadWorkspace(db, request.params.id, user),
      );
      // Another member's feed is theirs: the same 404 as one that does not exist.
      if (!(await deleteFeed(db, workspace.id, user.id, request.params.feedId)))
        throw notFound('Feed');
      return deletedReply(request.params.feedId);
    },
  );

  app.get(
    '/api/feeds/:file',
    {
      // No session: the secret in the URL is the credential. Counted per feed.
      config: { auth: 'none', noCookies: true, rateLimit: ['feed'] },
      schema: {
        tags,
        operationId: 'readFeed',
        summary: "A feed: the workspace's export in the feed's format, without a session",
        description:
          'The same file as `GET /api/workspaces/{id}/export?format=…` (each ' +
          'resource under its citation key), with an `ETag`: a request with ' +
          '`If-None-Match` naming it is a 304 with no body. `Cache-Control: ' +
          'private, no-cache` (a shared cache keeps nothing). A revoked or unknown ' +
          'feed, or one whose maker left the workspace, is a 404. Rate-limited per feed (RATE_LIMIT_FEED_PER_HOUR, 304s included).',
        security: PUBLIC,
        params: FeedFileParams,
        response: {
          200: {
            description: "The citation file in the feed's format",
            content: {
              'application/x-bibtex': { schema: CitationText.describe('BibTeX') },
              'application/x-research-info-systems': { schema: CitationText.describe('RIS') },
              'application/vnd.citationstyles.csl+json': { schema: CslJsonExport },
            },
          },
          304: CitationText.describe('Not modified: If-None-Match named the current ETag'),
          404: ErrorResponse,
          429: ErrorResponse,
        },
        responseHeaders: { 200: ['ETag'] },
      },
    },
    async (request, reply) => {
      const feed = await readFeed(db, request.params.file);
      if (!feed) throw notFound('Feed');
      reply
        .header('etag', feed.etag)
        .header('cache-control', 'private, no-cache')
        .header('vary', 'If-None-Match');
      const asked = request.headers['if-none-match'];
      if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === feed.etag))
        return reply.code(304).send('');
      return reply
        .header('content-type', feed.contentType)
        .serializer((body: string) => body)
        .send(feed.body);
    },
  );
}
