/**
 * The request chain, one plugin for every route, in one order as outline's server runs
 * it: authenticate → rate limit → validate → load → authorize → act → present. What a route needs it
 * declares in its options, `config: { auth, rateLimit }`: `auth` on every route (a route without it
 * does not compile, or, with no `config` at all, stops the app from starting), `rateLimit` the limits
 * it counts, in order (the last one counted writes the RateLimit-* headers). Authentication and the
 * route's limits run in its first onRequest hook, before the body is parsed or anything validated: a
 * caller without valid credentials gets 401 and a throttled one 429, never a 400 that teaches them the
 * validation rules (and a client whose token expired learns to refresh). A limit keyed on the body's
 * e-mail is counted once the body is parsed and valid, before the handler. A limit on work the handler
 * may not need to do (a search served from the provider cache) is checked there and counted only when
 * the handler calls `request.countWork()`. No handler calls the limiter or writes the RateLimit-* headers.
 */
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onRequestHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../platform/errors.js';
import { rateLimitHeaders } from '../platform/rate-limit.js';
import {
  ROUTE_LIMITS,
  type Limits,
  type Outcome,
  type RouteLimit,
  type RouteRateLimit,
} from './rate-limits.js';
import {
  createAuthentication,
  requireUser,
  type RequestAuth,
  type RequestAuthOptions,
} from './request-auth.js';

/** `required`: 401 without a session. `optional`: visitors too. `none`: credentials are not read. */
export type RouteAuth = 'required' | 'optional' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    /** A route with `attachRefusal` finds its rate-limit refusal here (its headers already set) instead of a 429. */
    rateLimitRefusal: ApiError | null;
    /**
     * Counts the route's limits on work (`countWork` in rate-limits.ts) once, however often it is
     * called; throws the 429 past them. Null on routes that declare none.
     */
    countWork: (() => Promise<void>) | null;
    /**
     * Set by a handler whose request was answered but did nothing (a sign-out without a live
     * session): counted as a failure by limits that count only failures.
     */
    attemptFailed: boolean;
  }
  interface FastifyContextConfig {
    /** Who may call the route: every route says so, none relies on a default. */
    auth: RouteAuth;
    /** The limits the route counts, in order (rate-limits.ts): `user` is a signed-in user's hourly limit. */
    rateLimit?: readonly RouteRateLimit[];
    /** The refusal goes to the handler (request.rateLimitRefusal) rather than out as a 429: pages and streams answer it their own way. */
    attachRefusal?: boolean;
    /** Requests the route answers without counting (a finished stream's reconnect). */
    uncounted?: (request: FastifyRequest) => boolean;
  }
}

export interface RequestChainOptions extends RequestAuthOptions {
  limits: Limits;
}

/** Pending settlements of counted requests (limits that count only failures). */
const settlements = new WeakMap<FastifyRequest, (outcome: Outcome) => Promise<void>>();
const failures = new WeakMap<FastifyRequest, unknown>();

async function requestChainPlugin(
  app: FastifyInstance,
  options: RequestChainOptions,
): Promise<void> {
  const { limits } = options;
  const { authenticate, asVisitor } = createAuthentication(options);
  // @fastify/cookie is registered with `hook: false` in the scope of the routes that may set cookies
  // (app.ts): its parser runs here, and only when a request sends cookies (a probe or a scraper sends
  // none). Every route of that scope may read them: `noCookies` says a route sets none, and the share
  // page still reads whether its visitor is signed in. A route outside it reads none.
  const cookieReader =
    (parseCookie: FastifyInstance['parseCookie']) =>
    (request: FastifyRequest): void => {
      const header = request.headers.cookie;
      request.cookies = header ? parseCookie(header) : {};
    };
  const readNoCookies = (): void => undefined;
  app.decorateRequest('auth', null as unknown as RequestAuth);
  app.decorateRequest('rateLimitRefusal', null);
  app.decorateRequest('attemptFailed', false);
  app.decorateRequest('countWork', null);

  /** Counts the route's limit: the state becomes the RateLimit-* headers, a refusal a 429 (or the request's, when attached). */
  const count = async (
    limit: RouteLimit,
    request: FastifyRequest,
    reply: FastifyReply,
    attachRefusal: boolean,
  ): Promise<void> => {
    try {
      const counted = await limit.count(limits, request);
      if (counted?.state) void reply.headers(rateLimitHeaders(counted.state));
      if (counted?.settle) settlements.set(request, counted.settle);
    } catch (error) {
      if (!attachRefusal || !(error instanceof ApiError) || error.code !== 'RATE_LIMITED')
        throw error;
      if (error.headers) void reply.headers(error.headers);
      request.rateLimitRefusal = error;
    }
  };

  const settle: onSendAsyncHookHandler = async (request, reply, payload) => {
    const pending = settlements.get(request);
    if (pending) {
      settlements.delete(request);
      await pending({
        ok: reply.statusCode < 400 && !request.attemptFailed,
        error: failures.get(request),
      });
    }
    return payload;
  };

  app.addHook('onRoute', function (this: FastifyInstance, route) {
    const config: Partial<FastifyContextConfig> = route.config ?? {};
    const { auth } = config;
    // The type asks for `auth` wherever a route has a `config`; a route declared without one is stopped here.
    if (auth === undefined)
      throw new Error(
        `${String(route.method)} ${route.url} does not declare config.auth ('required', 'optional' or 'none')`,
      );
    const noCookies = config.noCookies === true;
    // `this` is the scope the route is declared in: whether @fastify/cookie is registered there.
    const withCookies = this.hasReplyDecorator('setCookie');
    // The chain may set a cookie on a route that does not say `noCookies`: a refreshed session where
    // it reads credentials, an anonymous visitor's session on the API (request-auth.ts). Without the
    // plugin's onSend stage it would never be written.
    const maySetCookies = !noCookies && (auth !== 'none' || route.url.startsWith('/api/'));
    if (!withCookies && maySetCookies)
      throw new Error(
        `${String(route.method)} ${route.url} may set cookies: declare it in the scope where @fastify/cookie is registered (app.ts), or say config.noCookies`,
      );
    const readCookies = withCookies ? cookieReader(this.parseCookie) : readNoCookies;
    const attachRefusal = config.attachRefusal === true;
    const declared: RouteLimit[] = (config.rateLimit ?? []).map((name) => ROUTE_LIMITS[name]);
    const requestLimits = declared.filter((limit) => limit.stage === 'request');
    const bodyLimits = declared.filter((limit) => limit.stage === 'body');
    const uncounted = config.uncounted;
    const workLimits = declared.filter((limit) => limit.countWork !== undefined);

    // A route that reads no credentials and counts nothing takes a callback hook: no promise per request.
    if (auth === 'none' && declared.length === 0 && uncounted === undefined) {
      const visitor: onRequestHookHandler = (request, reply, done) => {
        readCookies(request);
        asVisitor(request, reply, noCookies);
        done();
      };
      route.onRequest = [visitor, ...hooksOf(route.onRequest)];
      return;
    }

    const first: onRequestAsyncHookHandler = async (request, reply) => {
      readCookies(request);
      await authenticate(request, reply, noCookies, auth !== 'none');
      if (auth === 'required') requireUser(request);
      if (uncounted?.(request)) return;
      if (workLimits.length > 0) {
        let counted: Promise<void> | undefined;
        request.countWork = () =>
          (counted ??= (async () => {
            for (const limit of workLimits) {
              const state = await limit.countWork?.(limits, request);
              if (state && !reply.raw.headersSent) void reply.headers(rateLimitHeaders(state));
            }
          })());
      }
      for (const limit of requestLimits) {
        await count(limit, request, reply, attachRefusal);
        if (request.rateLimitRefusal) return;
      }
    };
    route.onRequest = [first, ...hooksOf(route.onRequest)];

    if (bodyLimits.length > 0) {
      const bodyLimit: preHandlerAsyncHookHandler = async (request, reply) => {
        for (const limit of bodyLimits) {
          if (request.rateLimitRefusal) return;
          await count(limit, request, reply, attachRefusal);
        }
      };
      route.preHandler = [bodyLimit, ...hooksOf(route.preHandler)];
      route.onError = [
        async (request, _reply, error) => void failures.set(request, error),
        ...hooksOf(route.onError),
      ];
      route.onSend = [settle, ...hooksOf(route.onSend)];
    }
  });
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

// Every route declared after this plugin gets the chain first among its own hooks (after the global
// ones: request id, CORS). Unknown URLs (404) and CORS preflights have no route of ours, so they are
// not authenticated: they answer the same to everyone.
export const requestChain = fp(requestChainPlugin, { name: 'request-chain' });
