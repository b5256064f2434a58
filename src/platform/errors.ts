/**
 * Errors the API answers with. Handlers throw these (through the factories below); one error handler
 * renders every one of them with its status, never a stack: as `{ error: { code, message, details? } }`
 * unless the route names its own presenter (route config `presentError`).
 */
/** Every code an error can carry; `STATUS_OF` gives each its status. */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'AUTHENTICATION_ERROR',
  'AUTHORIZATION_ERROR',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RANGE_NOT_SATISFIABLE',
  'REQUEST_TIMEOUT',
  'HEADERS_TOO_LARGE',
  'PRECONDITION_FAILED',
  'UNPROCESSABLE',
  'RATE_LIMITED',
  'CLIENT_CLOSED_REQUEST',
  'INTERNAL_ERROR',
  'BAD_GATEWAY',
  'SERVICE_UNAVAILABLE',
  'GATEWAY_TIMEOUT',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const STATUS_OF: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  AUTHENTICATION_ERROR: 401,
  AUTHORIZATION_ERROR: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
  PRECONDITION_FAILED: 412,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  // nginx's "client closed request": the work stopped because nobody is waiting for the answer.
  CLIENT_CLOSED_REQUEST: 499,
  INTERNAL_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

/** Failures of an upstream the service called (not of the service itself): logged as warnings. */
export const UPSTREAM_FAILURES: ReadonlySet<ErrorCode> = new Set([
  'BAD_GATEWAY',
  'SERVICE_UNAVAILABLE',
  'GATEWAY_TIMEOUT',
]);

export interface FieldProblem {
  field: string;
  reason: string;
}

export interface ErrorDetails {
  field?: string;
  reason?: string;
  /** Every failing field when a request failed its schema (`field` and `reason` repeat the first). */
  fields?: FieldProblem[];
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = STATUS_OF[code];
  }
}

export const validationError = (field: string, reason: string, message?: string) =>
  new ApiError('VALIDATION_ERROR', message ?? `${field} is not accepted (${reason})`, {
    field,
    reason,
  });

/** A 401 always says how to authenticate (RFC 9110 §11.6.1): a plain Bearer challenge unless the caller names the problem (RFC 6750 §3). */
export const authenticationError = (
  message = 'Authentication required',
  challenge = 'Bearer',
  details?: ErrorDetails,
) => new ApiError('AUTHENTICATION_ERROR', message, details, { 'www-authenticate': challenge });

export const authorizationError = (message = 'Not allowed') =>
  new ApiError('AUTHORIZATION_ERROR', message);

export const notFound = (what = 'Resource') => new ApiError('NOT_FOUND', `${what} not found`);

export const conflict = (message: string, details?: ErrorDetails) =>
  new ApiError('CONFLICT', message, details);

/**
 * A 412: `If-Match` named a version the object no longer has. `current` is the object as it is now
 * (presented, as a reply would give it) and its ETag is sent, so a client can show it and retry.
 */
export class PreconditionFailedError extends ApiError {
  constructor(
    readonly current: unknown,
    etag: string,
  ) {
    super(
      'PRECONDITION_FAILED',
      'Someone else changed this since you loaded it, so nothing was changed.',
      { field: 'if-match', reason: 'stale' },
      { etag },
    );
  }
}

export const preconditionFailed = (current: unknown, etag: string) =>
  new PreconditionFailedError(current, etag);

export const payloadTooLarge = (message: string) => new ApiError('PAYLOAD_TOO_LARGE', message);

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError('RATE_LIMITED', 'Too many requests, please try again later', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

export const serviceUnavailable = (message = 'A backing service is unavailable') =>
  new ApiError('SERVICE_UNAVAILABLE', message);

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetails };
  /** A 412's object as it is now (PreconditionFailedError). */
  current?: unknown;
}

export function errorBody(error: ApiError): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
    ...(error instanceof PreconditionFailedError ? { current: error.current } : {}),
  };
}
