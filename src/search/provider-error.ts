import type { ProviderId } from './types.js';

/**
 * How a provider call failed:
 * - `timeout`: its deadline passed (request deadline, or no concurrency slot before the deadline);
 * - `rate_limited`: the upstream answered 429 (or YouTube's quota 403) and no retry succeeded, or the
 *   local rate limit could not grant a request slot before the deadline;
 * - `upstream`: the API answered with an error (HTTP status or an error body);
 * - `bad_response`: the body could not be understood;
 * - `network`: connection failures, oversize bodies, refused addresses;
 * - `aborted`: the caller gave up.
 */
export type ProviderErrorKind =
  'timeout' | 'rate_limited' | 'upstream' | 'bad_response' | 'network' | 'aborted';

export class ProviderError extends Error {
  constructor(
    readonly provider: ProviderId,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
    this.name = 'ProviderError';
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
