/**
 * The one error handler: every error leaves the service as the one error envelope (docs/design.md,
 * Errors), with a status that matches its code and never a stack trace.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { unavailabilityOf, type Backend } from './backend-errors.js';
import {
  ApiError,
  errorBody,
  serviceUnavailable,
  UPSTREAM_FAILURES,
  type FieldProblem,
} from './errors.js';
import { ErrorResponse } from './openapi.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: { issue?: { path?: PropertyKey[]; code?: string; message?: string }; keys?: string[] };
}

function fieldOf(issue: ValidationIssue | undefined, context: string | undefined): string {
  const path = issue?.params?.issue?.path;
  if (path && path.length > 0) return path.map(String).join('.');
  const instancePath = issue?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
  // An unknown field of a closed body is named itself (the issue's path is the object holding it).
  const unknownKey = issue?.keyword === 'unrecognized_keys' ? issue.params?.keys?.[0] : undefined;
  if (unknownKey !== undefined) return instancePath ? `${instancePath}.${unknownKey}` : unknownKey;
  return instancePath || context || 'body';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How this route renders its errors, when not as the error envelope (`errorBody`). */
    presentError?: (error: ApiError) => unknown;
  }
}

/** Turns any thrown error into the ApiError the client sees. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (!(error instanceof Error)) return new ApiError('INTERNAL_ERROR', 'Internal server error');
  const fastifyError = error as FastifyError & {
    validation?: ValidationIssue[];
    validationContext?: string;
  };
  if (hasZodFastifySchemaValidationErrors(error) || fastifyError.validation) {
    const issues: Array<ValidationIssue | undefined> = fastifyError.validation?.length
      ? fastifyError.validation
      : [undefined];
    // Every failing field at once (a form shows them all); the first also as `field` and `reason`.
    const fields: FieldProblem[] = [];
    for (const issue of issues) {
      const problem = {
        field: fieldOf(issue, fastifyError.validationContext),
        reason: issue?.params?.issue?.message ?? issue?.message ?? 'is invalid',
      };
      if (!fields.some((known) => known.field === problem.field && known.reason === problem.reason))
        fields.push(problem);
    }
    const { field, reason } = fields[0]!;
    // A sentence about the field: `year must be a whole number` (platform/validation-messages.ts).
    return new ApiError('VALIDATION_ERROR', `${field} ${reason}`, {
      field,
      reason,
      fields,
    });
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
      return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('VALIDATION_ERROR', 'Unsupported content type', {
        field: 'content-type',
        reason: 'unsupported',
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('VALIDATION_ERROR', 'Request body is empty', {
        field: 'body',
        reason: 'empty',
      });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('VALIDATION_ERROR', 'Request body is not valid JSON', {
        field: 'body',
        reason: 'invalid_json',
      });
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ApiError('VALIDATION_ERROR', 'Expected multipart/form-data', {
        field: 'content-type',
        reason: 'not_multipart',
      });
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new ApiError('VALIDATION_ERROR', 'Request body is not valid JSON', {
      field: 'body',
      reason: 'invalid_json',
    });
  }
  const unavailable = unavailabilityOf(error);
  if (unavailable)
    return serviceUnavailable(
      `The ${unavailable.backend === 'database' ? 'database' : 'cache'} is unavailable, please retry shortly`,
    );
  const status = fastifyError.statusCode;
  if (status === 404) return new ApiError('NOT_FOUND', 'Not found');
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  if (status === 415)
    return new ApiError('VALIDATION_ERROR', 'Unsupported content type', {
      field: 'content-type',
      reason: 'unsupported',
    });
  if (status && status >= 400 && status < 500)
    return new ApiError('VALIDATION_ERROR', error.message);
  return new ApiError('INTERNAL_ERROR', 'Internal server error');
}

export interface ErrorHandlingOptions {
  /** Told of every request that failed because a backend is down (health looks again at once). */
  onBackendUnavailable?(backend: Backend): void;
  /** Answers a browser's request for an unknown page its own way (the web app's 404 page), or null to leave it to the JSON 404. */
  unknownPage?:
    ((request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | null) | null;
}

/**
 * The error statuses this handler can give any route, whatever the route does: a fault (500), a
 * backend down (503), input that fails the route's schema (400) and a body over the limit (413).
 * Added to the responses of a route that declares its responses (unless it names them itself), so
 * that the OpenAPI document lists them and the envelope is written by its schema. A route with its
 * own error dialect (`plainErrors`) declares its own.
 */
function declareHandlerErrors(route: RouteOptions): void {
  const schema = route.schema;
  const responses = schema?.response as Record<string, unknown> | undefined;
  if (!schema || !responses || (route.config as { plainErrors?: boolean } | undefined)?.plainErrors)
    return;
  const statuses = [500, 503];
  if (schema.body || schema.querystring || schema.params) statuses.push(400);
  if (schema.body) statuses.push(413);
  const missing = statuses.filter(
    (status) => !(String(status) in responses) && !(`${String(status)[0]}xx` in responses),
  );
  if (missing.length === 0) return;
  // A new object: response maps may be shared between routes.
  route.schema = {
    ...schema,
    response: {
      ...responses,
      ...Object.fromEntries(missing.map((status) => [status, ErrorResponse])),
    },
  };
}

export function installErrorHandling(
  app: FastifyInstance,
  options: ErrorHandlingOptions = {},
): void {
  app.addHook('onRoute', declareHandlerErrors);
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    const unavailable = unavailabilityOf(error);
    if (unavailable) options.onBackendUnavailable?.(unavailable.backend);
    if (UPSTREAM_FAILURES.has(apiError.code)) {
      // Expected while a backend (or an upstream) is down: a warning naming the cause, no stack.
      request.log.warn(
        unavailable ?? { reason: apiError.message },
        apiError.code === 'SERVICE_UNAVAILABLE' ? 'service unavailable' : 'upstream failed',
      );
    } else if (apiError.status >= 500) {
      const serialization = isResponseSerializationError(error);
      request.log.error({ err: error, serialization }, 'request failed');
    }
    if (apiError.headers) void reply.headers(apiError.headers);
    const present = request.routeOptions.config?.presentError ?? errorBody;
    return reply.status(apiError.status).send(present(apiError));
  });
  app.setNotFoundHandler((request, reply) => {
    // @fastify/cors hands a preflight from an origin it does not serve to this handler: say why.
    if (
      request.method === 'OPTIONS' &&
      request.headers.origin &&
      request.headers['access-control-request-method']
    ) {
      return reply
        .status(403)
        .send(
          errorBody(
            new ApiError(
              'AUTHORIZATION_ERROR',
              'Cross-origin requests from this origin are not allowed',
              { field: 'origin', reason: 'not_allowed' },
            ),
          ),
        );
    }
    const page = options.unknownPage?.(request, reply);
    if (page) return page;
    return reply
      .status(404)
      .send(
        errorBody(
          new ApiError(
            'NOT_FOUND',
            `Route ${request.method} ${request.url.split('?')[0]} not found`,
          ),
        ),
      );
  });
}

/** What Node's HTTP parser refused before Fastify saw a request, as an API error. */
function clientErrorOf(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('HEADERS_TOO_LARGE', 'Request headers are too large');
    case 'HPE_INVALID_METHOD':
      return new ApiError('NOT_FOUND', 'Unknown HTTP method');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('REQUEST_TIMEOUT', 'Request took too long to arrive');
    default:
      return new ApiError('VALIDATION_ERROR', 'Malformed HTTP request', {
        field: 'request',
        reason: 'malformed',
      });
  }
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refused (headers over the limit, an unknown
 * method, garbage) is answered in the error envelope too, then the connection is closed, as Node does.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const apiError = clientErrorOf(error);
    const body = JSON.stringify(errorBody(apiError));
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
