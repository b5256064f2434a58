/** What a failed request tells the user: the API's error envelope, typed, with Retry-After for 429s. */
import type { components } from './schema';

export type ErrorEnvelope = components['schemas']['Error'];
export type ErrorCode = ErrorEnvelope['error']['code'] | 'NETWORK_ERROR';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: {
      field?: string;
      reason?: string;
      fields?: Array<{ field: string; reason: string }>;
    } = {},
    /** Seconds to wait before trying again (429, 503), from Retry-After. */
    readonly retryAfter: number | null = null,
    /** A 412's `current`: the object as it is saved now (someone else changed it). */
    readonly current: unknown = undefined,
  ) {
    super(message);
  }

  /** The field at fault, when the API named one. */
  get field(): string | undefined {
    return this.details.field;
  }
}

/**
 * The API answered 404 (the object does not exist, or is not the user's: the API does not say which),
 * or refused the address's `id` as no id at all: nothing is there either way.
 */
export function isNotFound(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 404 || (error.status === 400 && error.field === 'id'))
  );
}

/** The API refused a change made from a version someone else has changed since (412): `current` is theirs. */
export function isStale(error: unknown): error is ApiError & { current: object } {
  return (
    error instanceof ApiError &&
    error.status === 412 &&
    typeof error.current === 'object' &&
    error.current !== null
  );
}

function isEnvelope(body: unknown): body is ErrorEnvelope & { current?: unknown } {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = body.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/** Seconds from a Retry-After header (a number of seconds or an HTTP date). */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(1, Math.ceil((at - now) / 1000));
}

/** An ApiError from a failed response and its (already parsed) body. */
export function apiErrorFrom(response: Response, body: unknown): ApiError {
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
  if (isEnvelope(body)) {
    const { code, message, details } = body.error;
    return new ApiError(
      response.status,
      code,
      message,
      details ?? {},
      retryAfter,
      'current' in body ? body.current : undefined,
    );
  }
  // POST /api/summarize answers `{ error: "<message>" }`.
  if (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { error?: unknown }).error === 'string'
  ) {
    return new ApiError(
      response.status,
      'INTERNAL_ERROR',
      (body as { error: string }).error,
      {},
      retryAfter,
    );
  }
  return new ApiError(
    response.status,
    response.status === 429 ? 'RATE_LIMITED' : 'INTERNAL_ERROR',
    `The server answered ${response.status} ${response.statusText}`.trim(),
    {},
    retryAfter,
  );
}

/** The sentence to show for an error: the API's message, and when to try again after a 429. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    // The service's own 429 message has no full stop ("Too many requests, please try again later").
    if (error.status === 429 && error.retryAfter !== null)
      return `${error.message.trim().replace(/([^.!?])$/u, '$1.')} Try again in ${formatWait(error.retryAfter)}.`;
    return error.message;
  }
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The longest Retry-After a read waits out by itself (a busy moment, not a spent allowance). */
const BRIEF_WAIT_SECONDS = 5;

/**
 * Whether a failed read is asked again (at most twice): a network or server failure, and a refusal
 * whose Retry-After is a few seconds (the service's bound on requests running at once, e.g. two
 * formatting requests per user while the cite dialog asks for a style's text and HTML). Any other
 * client error (bad input, not found, signed out, an allowance spent for the hour) is the answer.
 */
export function retryRead(failures: number, error: unknown): boolean {
  if (failures >= 2) return false;
  if (!(error instanceof ApiError)) return true;
  if (error.retryAfter !== null && error.retryAfter <= BRIEF_WAIT_SECONDS) return true;
  return error.status < 400 || error.status >= 500;
}

/** How long before asking again: the Retry-After when there is one, else one, then two seconds. */
export function retryReadDelay(failures: number, error: unknown): number {
  if (error instanceof ApiError && error.retryAfter !== null) return error.retryAfter * 1000;
  return 1000 * 2 ** failures;
}
