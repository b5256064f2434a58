/**
 * The one way providers call their API: through the provider's limiter, with a deadline, a size cap,
 * polite headers, and a single retry where the API asks for one (429/503 with Retry-After) and only
 * when the wait still ends before the deadline. Outbound failures become ProviderErrors.
 */
import { OutboundError, serviceUserAgent } from '../../platform/outbound.js';
import type { Outbound, OutboundResponse } from '../../platform/outbound.js';
import { ProviderError } from '../provider-error.js';
import { LimiterRefusedError, parseRetryAfter, sleep } from '../provider-limiter.js';
import type { ProviderLimiter } from '../provider-limiter.js';
import type { ProviderId, ProviderObserver } from '../types.js';

const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Longest Retry-After honoured even when the deadline would allow more. */
const MAX_RETRY_WAIT_MS = 10_000;

export interface UpstreamRequestOptions {
  signal?: AbortSignal;
  deadlineAt?: number;
  headers?: Record<string, string>;
  /**
   * The answer names what a second request of the same search fetches (PubMed esearch → efetch,
   * YouTube search → videos): it is handed over at once, so that the second request leaves before
   * other answers are parsed. Every other answer waits for `afterQueuedWrites()` first.
   */
  leadsToFollowUp?: boolean;
}

export interface UpstreamClient {
  get(url: string, options?: UpstreamRequestOptions): Promise<OutboundResponse>;
}

export interface UpstreamClientOptions {
  provider: ProviderId;
  outbound: Outbound;
  limiter: ProviderLimiter;
  timeoutMs: number;
  contactEmail?: string;
  headers?: Record<string, string>;
  now?: () => number;
  /** Told of each 429 and each request the local limiter refuses for want of a rate slot. */
  observer?: ProviderObserver;
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const now = options.now ?? Date.now;
  const { provider } = options;
  // The contact goes in the User-Agent even when the outbound client was built without it (tests, benchmarks).
  const baseHeaders: Record<string, string> = {
    ...(options.contactEmail ? { 'user-agent': serviceUserAgent(options.contactEmail) } : {}),
    ...options.headers,
  };

  async function attempt(url: string, request: UpstreamRequestOptions): Promise<OutboundResponse> {
    const deadlineAt = request.deadlineAt ?? now() + options.timeoutMs;
    let release: () => void;
    try {
      release = await options.limiter.acquire({ deadlineAt, signal: request.signal });
    } catch (error) {
      const failure = limiterFailure(provider, error);
      if (failure.kind === 'rate_limited') options.observer?.rateLimited(provider, 'local');
      throw failure;
    }
    try {
      const remaining = Math.min(options.timeoutMs, deadlineAt - now());
      if (remaining <= 0)
        throw new ProviderError(provider, 'timeout', 'Deadline passed before the request started');
      const response = await options.outbound.request(url, {
        method: 'GET',
        headers: { ...baseHeaders, ...request.headers },
        timeoutMs: remaining,
        maxBytes: MAX_BODY_BYTES,
        signal: request.signal,
      });
      if (response.status === 429) options.observer?.rateLimited(provider, 'upstream');
      return response;
    } catch (error) {
      throw outboundFailure(provider, error);
    } finally {
      release();
    }
  }

  async function getWithRetry(
    url: string,
    request: UpstreamRequestOptions,
  ): Promise<OutboundResponse> {
    const deadlineAt = request.deadlineAt ?? now() + options.timeoutMs;
    const first = await attempt(url, { ...request, deadlineAt });
    if (first.status !== 429 && first.status !== 503) return first;
    const waitMs = parseRetryAfter(first.headers['retry-after'], now());
    if (waitMs === null || waitMs > MAX_RETRY_WAIT_MS || now() + waitMs >= deadlineAt) return first;
    try {
      await sleep(waitMs, request.signal);
    } catch {
      throw new ProviderError(provider, 'aborted', 'Aborted while waiting to retry');
    }
    return attempt(url, { ...request, deadlineAt });
  }

  async function get(url: string, request: UpstreamRequestOptions = {}): Promise<OutboundResponse> {
    const response = await getWithRetry(url, request);
    if (!request.leadsToFollowUp) await afterQueuedWrites();
    return response;
  }

  return { get };
}

/**
 * Resolves two turns of the event loop later, so that requests already on their way out are written
 * before the caller's CPU work (parsing an answer, often hundreds of kB of JSON or XML) starts.
 *
 * The providers' answers arrive at about the same time. PubMed and YouTube then send a second request,
 * and undici writes a request on a reused keep-alive connection only in a `setImmediate` callback (it
 * first reads any FIN or RST already pending on the idle socket). Without this wait, the other
 * providers' parsing, run as their answers complete in the same poll phase, comes before that write and
 * adds its whole duration to the search; after it, the parsing overlaps the second request's wait.
 * Two turns rather than one: a second request created later in the same poll phase than this answer
 * completed is queued behind this callback's first turn, but not its second.
 */
export function afterQueuedWrites(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

function limiterFailure(provider: ProviderId, error: unknown): ProviderError {
  if (error instanceof LimiterRefusedError) {
    if (error.reason === 'no_rate_slot_before_deadline') {
      return new ProviderError(
        provider,
        'rate_limited',
        'Local rate limit: no request slot before the deadline',
      );
    }
    if (error.reason === 'no_concurrency_slot_before_deadline') {
      return new ProviderError(provider, 'timeout', 'No free connection slot before the deadline');
    }
    return new ProviderError(provider, 'aborted', 'Request aborted');
  }
  return new ProviderError(
    provider,
    'network',
    error instanceof Error ? error.message : 'Limiter failure',
    undefined,
    { cause: error },
  );
}

function outboundFailure(provider: ProviderId, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof OutboundError) {
    const kind = error.kind === 'timeout' || error.kind === 'aborted' ? error.kind : 'network';
    const message = kind === 'network' ? `${error.kind}: ${error.message}` : error.message;
    return new ProviderError(provider, kind, message, undefined, { cause: error });
  }
  return new ProviderError(
    provider,
    'network',
    error instanceof Error ? error.message : 'Request failed',
    undefined,
    { cause: error },
  );
}

/** Throws the ProviderError that an unexpected HTTP status means (429 → rate_limited). */
export function failForStatus(
  provider: ProviderId,
  response: OutboundResponse,
  detail?: string,
): never {
  const message = detail ? `HTTP ${response.status}: ${detail}` : `HTTP ${response.status}`;
  if (response.status === 429)
    throw new ProviderError(provider, 'rate_limited', message, response.status);
  throw new ProviderError(provider, 'upstream', message, response.status);
}

/** Parses a JSON body or throws `bad_response`. */
export function readJson<T>(provider: ProviderId, response: OutboundResponse): T {
  try {
    return response.json<T>();
  } catch {
    throw new ProviderError(
      provider,
      'bad_response',
      `Body is not JSON (HTTP ${response.status})`,
      response.status,
    );
  }
}

/** Joins a base address and a path without doubling or dropping the slash. */
export function joinUrl(
  baseUrl: string,
  path: string,
  query?: Record<string, string | number | undefined>,
): string {
  const url = `${baseUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}
