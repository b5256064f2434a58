/**
 * The rate limits the routes declare: every bucket with its rule, and what each name a route lists in
 * `config.rateLimit` counts. The limiter in platform/ is handed these rules and knows none of them;
 * the request chain (request-chain.ts) counts a route's limits once it knows who asks and before the
 * input is validated, or, for a limit keyed on the body's e-mail, once the body is parsed and before
 * the handler runs.
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { hashToken } from '../platform/crypto.js';
import { ApiError } from '../platform/errors.js';
import type { LimitRule, LimitState, RateLimiter } from '../platform/rate-limit.js';
import { requesterKey } from './request-auth.js';
import { normalizeEmail } from './users.js';

export function rateLimitRules(config: Config) {
  const r = config.rateLimits;
  return {
    authenticated: { points: r.authenticatedPerHour, durationSeconds: 3600 },
    search: { points: r.searchPerHour, durationSeconds: 3600 },
    summarize: { points: r.summarizePerHour, durationSeconds: 3600 },
    // Visitors by address as well as by anonymous session (countRequester).
    searchIp: { points: r.searchPerHourPerIp, durationSeconds: 3600 },
    summarizeIp: { points: r.summarizePerHourPerIp, durationSeconds: 3600 },
    signinIp: { points: r.signinPer15MinPerIp, durationSeconds: 900 },
    // Per address and account, never per account alone: anyone could lock its owner out.
    signinIpEmail: { points: r.signinPer15MinPerEmail, durationSeconds: 900 },
    // Sign-outs that ended no live session, per address, as failed sign-ins are (a bucket of its own).
    signoutIp: { points: r.signinPer15MinPerIp, durationSeconds: 900 },
    resetIp: { points: r.resetPerHourPerIp, durationSeconds: 3600 },
    resetEmail: { points: r.resetPerHourPerEmail, durationSeconds: 3600 },
    signupIp: { points: r.signupPerHourPerIp, durationSeconds: 3600 },
    sharePageIp: { points: r.sharePagePerMinutePerIp, durationSeconds: 60 },
    invitations: { points: r.invitationsPerHour, durationSeconds: 3600 },
    alertRuns: { points: r.alertRunsPerHour, durationSeconds: 3600 },
    shareJoins: { points: r.shareJoinsPerHour, durationSeconds: 3600 },
    feed: { points: r.feedPerHour, durationSeconds: 3600 },
  } satisfies Record<string, LimitRule>;
}

/** A bucket's name: a typo does not compile. */
export type RateLimitBucket = keyof ReturnType<typeof rateLimitRules>;

/** The platform's limiter, asked only by bucket names that exist. */
export interface Limits {
  consume(bucket: RateLimitBucket, key: string): Promise<LimitState>;
  reset(bucket: RateLimitBucket, key: string): Promise<void>;
  check(bucket: RateLimitBucket, key: string): Promise<LimitState>;
  countFailure(bucket: RateLimitBucket, key: string): Promise<void>;
}

export const typedLimits = (limiter: RateLimiter): Limits => limiter;

/**
 * Counts one request against `bucket` for whoever asks: a user by their id; a visitor by their
 * anonymous session (or address, without one) and by their address as well, in `<bucket>Ip`, a
 * larger allowance shared by the visitors behind one address. A client can present a new anonymous
 * cookie with every request, so the address is what bounds it; both counts must pass. The answer is
 * the tighter of the two, for the RateLimit headers.
 */
async function countRequester(
  limits: Limits,
  bucket: 'search' | 'summarize',
  request: FastifyRequest,
): Promise<LimitState> {
  if (request.auth.user) return limits.consume(bucket, requesterKey(request));
  const byAddress = await limits.consume(`${bucket}Ip`, request.ip);
  const byVisitor = await limits.consume(bucket, requesterKey(request));
  return byAddress.remaining < byVisitor.remaining ? byAddress : byVisitor;
}

/**
 * Whether whoever asks may still search, counting nothing: the check `countRequester` would make,
 * refusing (429) once either count is used up. The answer is the tighter of the two, for the headers.
 */
async function checkRequester(
  limits: Limits,
  bucket: 'search',
  request: FastifyRequest,
): Promise<LimitState> {
  if (request.auth.user) return limits.check(bucket, requesterKey(request));
  const byAddress = await limits.check(`${bucket}Ip`, request.ip);
  const byVisitor = await limits.check(bucket, requesterKey(request));
  return byAddress.remaining < byVisitor.remaining ? byAddress : byVisitor;
}

/** How a counted request ended, for limits that count only some outcomes. */
export interface Outcome {
  ok: boolean;
  error: unknown;
}

/** What one counted request still owes its limit once it is answered. */
type Settle = (outcome: Outcome) => Promise<void>;

export interface RouteLimit {
  /**
   * `request`: counted before anything is parsed or validated (a refusal is a 429 before any 400);
   * `body`: keyed on the parsed body, counted after validation and before the handler.
   */
  stage: 'request' | 'body';
  /** Counts the request; the state returned is written as the RateLimit-* headers, a settle function runs once it is answered. */
  count(
    limits: Limits,
    request: FastifyRequest,
  ): Promise<{ state?: LimitState; settle?: Settle } | void>;
  /**
   * For a limit on work the handler may not need to do: counted only when the handler calls
   * `request.countWork()` (at most once a request), e.g. a search that must ask a provider, where
   * `count` only checks. Its state becomes the RateLimit-* headers; past the limit it throws the 429.
   */
  countWork?(limits: Limits, request: FastifyRequest): Promise<LimitState>;
}

/**
 * A password attempt, limited by the failures from its address and from the address with that
 * account: refused (429) once either has used up its allowance, and counted only when it fails, so
 * sign-ins that succeed (however many at once, behind one campus NAT) and attempts refused here use up
 * nothing; a success clears that pair's count. When `wrongPasswordOnly`, only a wrong current password
 * counts (any other refusal happened before a password was checked). Never by account alone, or
 * anyone's wrong guesses would lock its owner out; the owner signing in from elsewhere is not refused.
 * Attempts checked at once are all let through before any has failed: the allowance bounds failures
 * counted, and attempts in flight together may pass it by their number.
 */
async function countPasswordAttempt(
  limits: Limits,
  request: FastifyRequest,
  email: string,
  wrongPasswordOnly: boolean,
  passwordField = 'currentPassword',
): Promise<Settle> {
  const pair = `${request.ip}\u0000${email}`;
  await limits.check('signinIp', request.ip);
  await limits.check('signinIpEmail', pair);
  return async ({ ok, error }) => {
    if (ok) return limits.reset('signinIpEmail', pair);
    const wrongCurrentPassword =
      error instanceof ApiError &&
      error.details?.field === passwordField &&
      error.details.reason === 'incorrect';
    if (wrongPasswordOnly && !wrongCurrentPassword) return;
    await limits.countFailure('signinIp', request.ip);
    await limits.countFailure('signinIpEmail', pair);
  };
}

/**
 * A limit counted per signed-in user, before anything is parsed; a visitor counts nothing (the routes
 * that list one are signed-in routes, or list a limit of their own for visitors).
 */
function perUser(bucket: Parameters<Limits['consume']>[0]): RouteLimit {
  return {
    stage: 'request',
    count: async (limits, request) =>
      request.auth.user ? { state: await limits.consume(bucket, request.auth.user.id) } : undefined,
  };
}

const bodyOf = (request: FastifyRequest) =>
  (request.body ?? {}) as { email?: string; token?: string };

/** What each name in a route's `config.rateLimit` counts. */
export const ROUTE_LIMITS = {
  // The signed-in user's hourly allowance over every route that lists it; a visitor counts nothing here
  // (the routes open to visitors list a limit of their own). A session that has ended, or a change
  // refused for its origin, never gets this far, so it is not counted.
  user: perUser('authenticated'),
  search: {
    stage: 'request',
    count: async (limits, request) => ({ state: await countRequester(limits, 'search', request) }),
  },
  // The search limit on a search: checked before anything else (a caller who has used it up gets 429,
  // not a 400), counted only when the search must ask a provider (search/routes.ts). A page, a sort or
  // a narrower choice of sources served from the provider cache is not a new search.
  searchProviderCalls: {
    stage: 'request',
    count: async (limits, request) => ({ state: await checkRequester(limits, 'search', request) }),
    countWork: (limits, request) => countRequester(limits, 'search', request),
  },
  summarize: {
    stage: 'request',
    count: async (limits, request) => ({
      state: await countRequester(limits, 'summarize', request),
    }),
  },
  sharePage: {
    stage: 'request',
    count: async (limits, request) => void (await limits.consume('sharePageIp', request.ip)),
  },
  // Invitations mailed and members added, per inviting user (a signed-in route: the user is known).
  invitation: perUser('invitations'),
  // Alert runs asked for by hand, per user (a signed-in route: the user is known).
  alertRun: perUser('alertRuns'),
  // Joins through share links, per user (a signed-in route), each attempt counted: tokens are not guessed here.
  shareJoin: perUser('shareJoins'),
  // Fetches of one bibliography feed, keyed by its secret's hash (the secret itself is never a key).
  feed: {
    stage: 'request',
    count: async (limits, request) => {
      // The URL's last segment is `<secret>.<extension>`: the secret alone names the feed.
      const { file } = (request.params ?? {}) as { file?: string };
      const secret = (file ?? '').split('.')[0] ?? '';
      return { state: await limits.consume('feed', hashToken(secret)) };
    },
  },
  signup: {
    stage: 'request',
    count: async (limits, request) => void (await limits.consume('signupIp', request.ip)),
  },
  // Counted as failures only: a sign-out that ended a live session uses up nothing.
  signout: {
    stage: 'body',
    count: async (limits, request) => {
      await limits.check('signoutIp', request.ip);
      return {
        settle: async ({ ok }) => (ok ? undefined : limits.countFailure('signoutIp', request.ip)),
      };
    },
  },
  signin: {
    stage: 'body',
    count: async (limits, request) => ({
      settle: await countPasswordAttempt(
        limits,
        request,
        normalizeEmail(bodyOf(request).email ?? ''),
        false,
      ),
    }),
  },
  passwordReset: {
    stage: 'body',
    count: async (limits, request) => {
      await limits.consume('resetIp', request.ip);
      await limits.consume('resetEmail', normalizeEmail(bodyOf(request).email ?? ''));
    },
  },
  // Another confirmation mail for the signed-in user: the reset limits, by address and by account's e-mail.
  confirmationResend: {
    stage: 'request',
    count: async (limits, request) => {
      await limits.consume('resetIp', request.ip);
      if (request.auth.user)
        await limits.consume('resetEmail', normalizeEmail(request.auth.user.email));
    },
  },
  // With a mailed token: the reset limit. Signed in: a wrong current password is a wrong password,
  // so guessing it through a session is throttled as sign-in is.
  passwordUpdate: {
    stage: 'body',
    count: async (limits, request) => {
      if (bodyOf(request).token) return void (await limits.consume('resetIp', request.ip));
      const user = request.auth.user;
      if (user)
        return {
          settle: await countPasswordAttempt(limits, request, normalizeEmail(user.email), true),
        };
    },
  },
  // Deleting the account, confirmed by the current password: a wrong one is throttled as sign-in is.
  accountDelete: {
    stage: 'body',
    count: async (limits, request) => {
      const user = request.auth.user;
      if (user)
        return {
          settle: await countPasswordAttempt(
            limits,
            request,
            normalizeEmail(user.email),
            true,
            'password',
          ),
        };
    },
  },
} satisfies Record<string, RouteLimit>;

/** A name in a route's `config.rateLimit`: a typo does not compile. */
export type RouteRateLimit = keyof typeof ROUTE_LIMITS;
