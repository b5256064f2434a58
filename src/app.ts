/**
 * buildApp(config) → the whole service as a Fastify instance that never listens: tests call
 * `app.inject()`, `main.ts` listens. External plugins first (CORS, OpenAPI), then our own (error
 * handling, the request chain), then each capability's routes, then the web app's files and pages
 * (web-app.ts). Plugins whose hooks only some routes need are registered in those routes' scope:
 * cookies where a route may set one (not health, metrics or the web app's files), multipart parsing
 * in the avatar upload's own.
 */
import { installValidationMessages } from './platform/validation-messages.js';
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  type onRouteHookHandler,
} from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { accountRoutes } from './account/routes.js';
import { alertRoutes } from './alerts/routes.js';
import { analyticsRoutes } from './analytics/routes.js';
import { createAccessTokenIssuer } from './auth/access-tokens.js';
import { requesterKey } from './auth/request-auth.js';
import { requestChain } from './auth/request-chain.js';
import { createRevocationList } from './auth/revocations.js';
import { authRoutes } from './auth/routes.js';
import { sessionHasEnded } from './auth/sessions.js';
import type { Config } from './config.js';
import type { AppContext, ResourceResolver } from './context.js';
import { emailJsDebugRoutes, healthRoutes } from './health/routes.js';
import { findInLibrary } from './library/in-library.js';
import { libraryRoutes } from './library/routes.js';
import { metricsRoutes } from './metrics/routes.js';
import { discoverRoutes } from './discover/routes.js';
import { createDrain } from './platform/drain.js';
import { serializeError } from './platform/error-logging.js';
import { answerClientError, installErrorHandling } from './platform/http-errors.js';
import { AccessLog } from './platform/access-log.js';
import { idempotency } from './platform/idempotency.js';
import { installRequestInputChecks } from './platform/request-input.js';
import { createPlatform, type Platform, type PlatformOverrides } from './platform/index.js';
import { registerOpenApi } from './platform/openapi.js';
import { replySerializerCompiler } from './platform/reply-serializer.js';
import { requestIdOf } from './platform/request-id.js';
import { createWorkerPool } from './platform/worker-pool.js';
import { profileRoutes } from './profiles/routes.js';
import { FORMAT_WORKER } from './workspaces/cite/routes.js';
import { PARSE_WORKER } from './workspaces/import/commands.js';
import { upgradeRecords } from './workspaces/resources/record-upgrade.js';
import { upgradeCitationKeys } from './workspaces/citation-keys/upgrade.js';
import { workspaceRoutes } from './workspaces/routes.js';
import type { PdfExtraction } from './workspaces/pdfs/extraction.js';
import { createBackground } from './background.js';
import { createSearchService } from './search/service.js';
import { searchRoutes } from './search/routes.js';
import { createSummaryCache } from './summaries/cache.js';
import { countSummaryLookups } from './summaries/metrics.js';
import { createSummarizer } from './summaries/produce.js';
import { summaryRoutes } from './summaries/routes.js';
import { createRedisCache } from './platform/cache.js';
import { rateLimitRules, typedLimits } from './auth/rate-limits.js';
import { unknownPage, webAppRoutes } from './web-app.js';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** PDF text extraction on the job queue (tests await `settled(resourceId)`). */
    pdfExtraction: PdfExtraction;
  }
}

export interface BuildOptions {
  /** A platform built elsewhere (kept open when the app closes). */
  platform?: Platform;
  platformOverrides?: PlatformOverrides;
  /** Replaces the logger settings (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Where the service's own logger writes (default stdout); tests read the lines. */
  logStream?: { write(line: string): void };
  /** Replaces the identifier lookup (defaults to the search providers'). */
  resolveResource?: ResourceResolver;
  /** The clock idempotency keys expire by (tests move it past 24 h). */
  clock?: () => number;
  /** Sees every route as it is declared, with its request chain (tests check each route declares one). */
  onRoute?: onRouteHookHandler;
}

/**
 * Largest request head (request line and headers). Node's 16 KB default is too small for the
 * documented parameters of GET /api/summarize (id 300, source 50, title 1,000, abstract 20,000 and
 * url 2,000 characters): a UTF-16 unit of the BMP is up to 3 UTF-8 bytes, 9 characters percent-encoded,
 * so about 210 KB at worst, plus room for cookies and the other headers.
 */
const MAX_REQUEST_HEADER_BYTES = 256 * 1024;

/**
 * The CORS headers' values, written once: the plugin joins a list on every answer to the web app's
 * origin (and every preflight), a string it writes as it is.
 */
const CORS_HEADER_VALUES = {
  // The methods the web app's clients send, plus PATCH, because PATCH /api/workspaces/{id} exists.
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].join(', '),
  allowedHeaders: ['Content-Type', 'Authorization', 'Idempotency-Key', 'If-Match'].join(', '),
  exposedHeaders: [
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'Retry-After',
    'X-Request-Id',
    'X-Total-Count',
    'Content-Disposition',
    'Idempotent-Replayed',
    'ETag',
  ].join(', '),
};

/** Masks what must never reach a log: tokens in query strings, share-link and invitation tokens in paths. */
function redactUrl(url: string): string {
  return (
    url
      .replace(/\/share\/[^/?#]+/g, '/share/[redacted]')
      // The app's page and the API's routes of an invitation (a workspace's invitation ids go too: harmless).
      .replace(/\/invitations\/[^/?#]+/g, '/invitations/[redacted]')
      // A digest's one-click unsubscribe link, the API's and the app's page.
      .replace(/\/alerts\/unsubscribe\/[^/?#]+/g, '/alerts/unsubscribe/[redacted]')
      // The app's page that joins a share link's workspace carries the link's token.
      .replace(/\/join\/[^/?#]+/g, '/join/[redacted]')
      .replace(/\/feeds\/[^/?#]+/g, '/feeds/[redacted]')
      .replace(/([?&](?:token|code|state|refresh_token|access_token)=)[^&#]*/gi, '$1[redacted]')
  );
}

export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  installValidationMessages();
  const platform =
    options.platform ??
    (await createPlatform(config, rateLimitRules(config), options.platformOverrides));
  const logger =
    options.logger ??
    ({
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          ip: req.ip,
        }),
        err: serializeError,
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    } as FastifyServerOptions['logger']);
  const app = Fastify({
    logger,
    bodyLimit: config.bodyLimitBytes,
    // That many proxies in front (Fastify's own reading of a number, which its types do not list).
    trustProxy:
      config.trustProxy > 0 ? (_address: string, hop: number) => hop < config.trustProxy : false,
    // Fastify's access log, except on routes that say `accessLog: false` (platform/access-log.ts).
    logController: new AccessLog(),
    genReqId: requestIdOf,
    requestIdHeader: false,
    routerOptions: { maxParamLength: 300 },
    http: { maxHeaderSize: MAX_REQUEST_HEADER_BYTES },
    clientErrorHandler: answerClientError,
  });
  app.setValidatorCompiler(validatorCompiler);
  // Replies: Fastify's fast-json-stringify from each response schema's JSON Schema (zod's where it cannot say it all).
  app.setSerializerCompiler(replySerializerCompiler);
  // The two hooks every request takes are synchronous (a callback, no promise to settle each time).
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  // One observation per answer, by the route's pattern (an unknown URL is `unmatched`), never the URL asked for.
  const { metrics } = platform;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  const search = createSearchService(config, platform, app.log);
  const tokens = createAccessTokenIssuer(platform.signingSecret);
  const revocations = createRevocationList(platform.database, sessionHasEnded, app.log);
  const resolveResource = options.resolveResource ?? search.resolveResource;
  // Every background job (PDF extraction and sweep, alerts) on the one job queue (background.ts):
  // started once the app is ready, stopped when it closes, before the database.
  const background = createBackground({
    config,
    platform,
    log: app.log,
    providers: search.providers,
    resolveResource,
  });
  // Imported files are read and citations formatted in these workers, never on the request thread.
  const workers = createWorkerPool({ ...config.workers, modules: [PARSE_WORKER, FORMAT_WORKER] });
  app.addHook('onClose', async () => workers.close());
  const pdfExtraction = background.pdfExtraction;
  const ctx: AppContext = {
    config,
    platform,
    db: platform.database.db,
    tokens,
    sessions: { db: platform.database.db, tokens, revocations },
    resolveResource,
    drain: createDrain(app.server),
    workers,
    pdfExtraction,
  };
  app.decorate('ctx', ctx);
  app.decorate('pdfExtraction', pdfExtraction);
  // Resources saved before records were structured get theirs before the first request (record-upgrade.ts),
  // then those saved before citation keys were kept get keys, in the order they were added.
  app.addHook('onReady', async () => {
    await upgradeRecords(ctx.db, app.log);
    await upgradeCitationKeys(ctx.db, app.log);
  });
  app.addHook('onReady', async () => background.start());
  app.addHook('onClose', async () => background.stop());

  // Only a request from the web app's origin gets CORS headers (every browser sends Origin on a
  // cross-origin request); monitors and API clients get none, another origin gets none, and every
  // answer says `Vary: Origin` so that a shared cache keeps the two apart.
  const appOrigin = new URL(config.appOrigin).origin;
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin === appOrigin),
    credentials: true,
    ...CORS_HEADER_VALUES,
    maxAge: 600,
  });
  await registerOpenApi(app, { version: config.version, publicUrl: config.publicUrl });
  installErrorHandling(app, {
    onBackendUnavailable: (backend) => platform.health.report(backend, false),
    unknownPage: unknownPage(config.webDistDir),
  });
  installRequestInputChecks(app);
  await app.register(requestChain, {
    config,
    sessions: ctx.sessions,
    tokens,
    limits: typedLimits(platform.rateLimiter),
  });
  await app.register(idempotency, {
    db: ctx.db,
    secret: platform.signingSecret,
    scopeOf: requesterKey,
    now: options.clock,
    leaseMs: config.idempotencyLeaseSeconds * 1000,
    // The embedded database is one process's: a claim another process made died with it.
    soleProcess: platform.database.kind === 'pglite',
  });

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Search results say where a work already is in the user's library; the library capability knows.
  const libraryPlaces = (userId: string, works: Parameters<typeof findInLibrary>[2]) =>
    findInLibrary(ctx.db, { id: userId }, works);
  const summaryCache = countSummaryLookups(
    createSummaryCache({
      shared:
        platform.kv ?? (platform.redis ? createRedisCache(platform.redis, 'summary:') : undefined),
    }),
    metrics,
  );
  const summarizer = createSummarizer({
    outbound: platform.outbound,
    cache: summaryCache,
    pdfUrls: {
      arxivPdfBase: config.providers.arxivPdfUrl,
      openalex: config.providers.urls.openalex,
      zenodo: config.providers.urls.zenodo,
    },
  });

  // Monitors' and scrapers' routes set no cookies: outside the cookie plugin's scope, so that its
  // onSend stage is not among their hooks (nor among the web app's files' and pages', below).
  for (const routes of [healthRoutes, metricsRoutes]) {
    await app.register(async (scope) => routes(scope, ctx));
  }
  // Every route that may set a cookie (sign-in and out, a session refreshed on any signed-in request,
  // a visitor's anonymous session on any /api/ route) is declared in this scope, where @fastify/cookie
  // is registered: `hook: false` leaves the parsing to the request chain (only when a request sends
  // cookies); its onSend stage writes the Set-Cookie headers. The request chain refuses, at start, a
  // route outside it that does not say `noCookies`.
  await app.register(async (api) => {
    await api.register(cookie, { secret: platform.signingSecret, hook: false });
    for (const routes of [
      emailJsDebugRoutes,
      authRoutes,
      profileRoutes,
      accountRoutes,
      workspaceRoutes,
      libraryRoutes,
      analyticsRoutes,
    ]) {
      await api.register(async (scope) => routes(scope, ctx));
    }
    await api.register(async (scope) => searchRoutes(scope, ctx, search, libraryPlaces));
    // Related works and workspace suggestions follow the citation graph through the same providers.
    await api.register(async (scope) =>
      discoverRoutes(scope, ctx, search.providers, libraryPlaces),
    );

    await api.register(async (scope) => alertRoutes(scope, ctx, background.queue));

    await api.register(async (scope) => summaryRoutes(scope, ctx, summarizer, summaryCache));
  });
  await app.register(async (scope) => webAppRoutes(scope, { distDir: config.webDistDir }));

  if (!options.platform) app.addHook('onClose', async () => platform.close());
  return app;
}
