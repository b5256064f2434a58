/**
 * Asks every selected provider at once, each under its own deadline, and reports per provider what
 * happened. A provider that fails, is rate limited or hangs never fails the whole: its status says so
 * and the others' records are returned. Successful answers are cached briefly, so that the next page of
 * the same query does not ask every provider again.
 */
import { createHash } from 'node:crypto';
import { SEARCH_PROVIDER_DEFAULTS } from '../config.js';
import { describeError } from '../platform/error-causes.js';
import { OutboundError } from '../platform/outbound.js';
import { filtersKey, hasFilters } from './filters.js';
import type { SearchFilters } from './filters.js';
import { ProviderError, isProviderError } from './provider-error.js';
import { plainTextRecord } from './plain-text.js';
import type {
  ProviderAnswerCache,
  ProviderId,
  ProviderSearchAnswer,
  SearchProvider,
  SearchRecord,
} from './types.js';

/** A slow cache must not eat the providers' time. */
const CACHE_READ_TIMEOUT_MS = 250;
const CACHE_KEY_VERSION = 'v1';

export type ProviderStatusCode = 'ok' | 'timeout' | 'error' | 'rate_limited' | 'disabled';

/**
 * What an `error` was: the provider could not be reached at all (no connection, refused address), it
 * answered with an error (an HTTP status or an error body), or its answer could not be read.
 */
export type ProviderFailureReason = 'unreachable' | 'error_response' | 'bad_response';

export interface ProviderStatus {
  id: ProviderId;
  status: ProviderStatusCode;
  /** Records this provider contributed (before merging). */
  count: number;
  /** Milliseconds from the start of the search until this provider settled. */
  took: number;
  /** True when the answer came from the cache. */
  cached?: boolean;
  /** The provider's own count of matches, when it reports one. */
  total?: number;
  /** Why a provider did not answer (for logs; not for end users verbatim). */
  message?: string;
  /** With status `error`: which kind of failure, in words the app can show. */
  reason?: ProviderFailureReason;
}

export interface FederatedSearchOptions {
  providers: SearchProvider[];
  query: string;
  perProviderLimit: number;
  /** Sent to each provider (see `ProviderSearchOptions.filters`) and part of the cache key. */
  filters?: SearchFilters;
  /** Each provider's deadline in ms (default: the configured default, SEARCH_PROVIDER_TIMEOUT_MS). */
  deadlineMs?: number;
  /** Per-provider deadlines that override `deadlineMs`. */
  providerDeadlinesMs?: Partial<Record<ProviderId, number>>;
  /** Aborts every provider call (e.g. the client went away). */
  signal?: AbortSignal;
  cache?: ProviderAnswerCache;
  cacheTtlSeconds?: number;
  /** First part of the cache keys (default `search`): other questions asked of providers (related works) keep their answers apart. */
  cacheScope?: string;
  now?: () => number;
  /**
   * Called with each provider's records (ranks set) as soon as it has answered, while the others may
   * still be awaited: per-record work done here is off the search's critical path.
   */
  onAnswer?: (records: SearchRecord[]) => void;
  /**
   * Runs work the result does not need (writing answers to the cache). By default at once; the route
   * passes one that waits until the reply has been sent.
   */
  deferWork?: (work: () => void) => void;
  /** Where a provider's failure is reported, at `warn`, with its cause (the request's logger). */
  log?: ProviderFailureLog;
  /** Called as each provider settles (answered, failed, timed out or disabled), in the order they settle. */
  onSettled?: (status: ProviderStatus, records: SearchRecord[]) => void;
  /**
   * Awaited once, before the first request to any provider (a provider answered from the cache, or
   * disabled, asks nothing): the route counts the search limit here, so that only a search that makes
   * outbound calls uses it up. When it throws, the search fails with its error (e.g. the 429).
   */
  beforeProviderCalls?: () => Promise<void>;
}

export interface ProviderFailureLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface FederatedSearchResult {
  /** Every provider's records, each carrying its 1-based rank in `ranks[provider]`; not merged. */
  records: SearchRecord[];
  providers: ProviderStatus[];
}

interface ProviderOutcome {
  status: ProviderStatus;
  records: SearchRecord[];
}

/**
 * Cache key of one provider's answer: its scope (a search, or related works), provider, limit, the query
 * with its whitespace normalised, and the filters.
 */
function providerAnswerCacheKey(
  scope: string,
  provider: ProviderId,
  query: string,
  limit: number,
  filters?: SearchFilters,
): string {
  const hash = createHash('sha256').update(query.trim().replace(/\s+/g, ' '));
  // Unfiltered keys stay as they were, so that existing cache entries keep serving.
  if (hasFilters(filters)) hash.update(`\u0000${filtersKey(filters)}`);
  const digest = hash.digest('base64url');
  return `${scope}:${CACHE_KEY_VERSION}:${provider}:${limit}:${digest}`;
}

export async function federatedSearch(
  options: FederatedSearchOptions,
): Promise<FederatedSearchResult> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const asked = new Map<SearchProvider, Promise<ProviderOutcome>>();
  const gate = options.beforeProviderCalls;
  let opened: Promise<void> | undefined;
  // Every provider that must be asked waits on one and the same call.
  const openGate = gate ? () => (opened ??= gate()) : undefined;
  for (const provider of inStartOrder(options.providers)) {
    const outcome = askProvider(
      provider,
      { ...options, beforeProviderCalls: openGate },
      startedAt,
      now,
    ).then((settled) => {
      options.onSettled?.(settled.status, settled.records);
      return settled;
    });
    asked.set(provider, outcome);
  }
  // Reported in the order the providers were given, whatever order they were asked in.
  const outcomes = await Promise.all(
    options.providers.map((provider) => asked.get(provider) as Promise<ProviderOutcome>),
  );
  return {
    records: outcomes.flatMap((outcome) => outcome.records),
    providers: outcomes.map((outcome) => outcome.status),
  };
}

/**
 * Every provider is asked at once, but its first request still leaves in turn. Those whose search is a
 * chain of requests go first: the chain's end bounds the whole search, and their first answers then
 * arrive first too, so the next request of the chain is not queued behind other answers' parsing.
 */
function inStartOrder(providers: SearchProvider[]): SearchProvider[] {
  return [...providers].sort((a, b) => (b.requestsPerSearch ?? 1) - (a.requestsPerSearch ?? 1));
}

async function askProvider(
  provider: SearchProvider,
  options: FederatedSearchOptions,
  startedAt: number,
  now: () => number,
): Promise<ProviderOutcome> {
  const settle = (
    status: Omit<ProviderStatus, 'id' | 'took'>,
    records: SearchRecord[] = [],
  ): ProviderOutcome => ({
    status: { id: provider.id, took: Math.max(0, now() - startedAt), ...status },
    records,
  });
  if (!provider.isEnabled()) return settle({ status: 'disabled', count: 0 });

  const deadlineMs =
    options.providerDeadlinesMs?.[provider.id] ??
    options.deadlineMs ??
    SEARCH_PROVIDER_DEFAULTS.timeoutMs;
  const deadlineAt = startedAt + deadlineMs;
  const cacheKey = providerAnswerCacheKey(
    options.cacheScope ?? 'search',
    provider.id,
    options.query,
    options.perProviderLimit,
    options.filters,
  );

  const cached = options.cache ? await readCachedAnswer(options.cache, cacheKey) : null;
  if (cached) {
    const records = withRanks(cached.records, provider.id);
    options.onAnswer?.(records);
    return settle(
      { status: 'ok', count: records.length, cached: true, ...totalOf(cached) },
      records,
    );
  }

  // Outside the try: its refusal fails the search rather than this one provider.
  await options.beforeProviderCalls?.();
  try {
    const raw = await runWithDeadline(provider, options, deadlineAt, deadlineMs, now);
    const answer = { ...raw, records: raw.records.map(plainTextRecord) };
    const records = withRanks(answer.records, provider.id);
    options.onAnswer?.(records);
    const cache = options.cache;
    if (cache) {
      const write = (): void =>
        void writeCachedAnswer(
          cache,
          cacheKey,
          answer,
          options.cacheTtlSeconds ?? SEARCH_PROVIDER_DEFAULTS.cacheTtlSeconds,
        );
      if (options.deferWork) options.deferWork(write);
      else write();
    }
    return settle({ status: 'ok', count: records.length, ...totalOf(answer) }, records);
  } catch (error) {
    const status = statusForError(error);
    // A client that went away is not a provider failure.
    if (!(isProviderError(error) && error.kind === 'aborted' && options.signal?.aborted)) {
      options.log?.warn(
        {
          provider: provider.id,
          status,
          kind: isProviderError(error) ? error.kind : undefined,
          httpStatus: isProviderError(error) ? error.status : undefined,
          cause: describeError(error),
        },
        'search provider failed',
      );
    }
    const reason = status === 'error' ? failureReasonOf(error) : undefined;
    return settle({
      status,
      count: 0,
      message: error instanceof Error ? error.message : 'failed',
      ...(reason && { reason }),
    });
  }
}

/**
 * Runs one provider search and settles by its deadline even when the provider ignores its abort signal:
 * the deadline rejects first, then the provider's requests are aborted.
 */
function runWithDeadline(
  provider: SearchProvider,
  options: FederatedSearchOptions,
  deadlineAt: number,
  deadlineMs: number,
  now: () => number,
): Promise<ProviderSearchAnswer> {
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        reject(new ProviderError(provider.id, 'timeout', `No answer within ${deadlineMs} ms`));
        controller.abort();
      },
      Math.max(0, deadlineAt - now()),
    );
  });
  const search = provider.search(options.query, {
    limit: options.perProviderLimit,
    signal: controller.signal,
    deadlineAt,
    ...(hasFilters(options.filters) ? { filters: options.filters } : {}),
  });
  // A late rejection after the deadline won the race must not surface as unhandled.
  search.catch(() => undefined);
  return Promise.race([search, deadline]).finally(() => {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
    controller.abort();
  });
}

function statusForError(error: unknown): ProviderStatusCode {
  if (isProviderError(error)) {
    if (error.kind === 'timeout') return 'timeout';
    if (error.kind === 'rate_limited') return 'rate_limited';
  }
  return 'error';
}

/** The failure's kind for the app: a connection that never carried an answer is `unreachable`. */
function failureReasonOf(error: unknown): ProviderFailureReason | undefined {
  if (!isProviderError(error)) return undefined;
  if (error.kind === 'upstream') return 'error_response';
  if (error.kind === 'bad_response') return 'bad_response';
  if (error.kind !== 'network') return undefined;
  // An answer too large or redirected too often did arrive; anything else never got one.
  const cause = error.cause;
  if (
    cause instanceof OutboundError &&
    (cause.kind === 'too_large' || cause.kind === 'too_many_redirects')
  )
    return 'bad_response';
  return 'unreachable';
}

function withRanks(records: SearchRecord[], provider: ProviderId): SearchRecord[] {
  return records.map((record, index) => ({
    ...record,
    ranks: { ...record.ranks, [provider]: index + 1 },
  }));
}

function totalOf(answer: ProviderSearchAnswer): { total?: number } {
  return answer.total === undefined ? {} : { total: answer.total };
}

async function readCachedAnswer(
  cache: ProviderAnswerCache,
  key: string,
): Promise<ProviderSearchAnswer | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const raw = await Promise.race([
      cache.get(key),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), CACHE_READ_TIMEOUT_MS);
      }),
    ]);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<ProviderSearchAnswer>;
    if (!Array.isArray(parsed.records)) return null;
    return {
      records: parsed.records,
      ...(typeof parsed.total === 'number' ? { total: parsed.total } : {}),
    };
  } catch {
    // A broken cache degrades to asking the provider.
    return null;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

async function writeCachedAnswer(
  cache: ProviderAnswerCache,
  key: string,
  answer: ProviderSearchAnswer,
  ttlSeconds: number,
): Promise<void> {
  try {
    await cache.set(
      key,
      JSON.stringify({ records: answer.records, total: answer.total }),
      ttlSeconds,
    );
  } catch {
    // Caching is an optimisation; a failed write changes nothing for this search.
  }
}
