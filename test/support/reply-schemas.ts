/**
 * Test-only: every JSON reply of the test app is checked against the response schema its route
 * declares for the reply's status, before the serializer writes it. The serializer (zod's, from
 * fastify-type-provider-zod) drops fields a schema does not name and answers a reply that does not
 * parse with a 500 that says only that; this check names the route and the fields. Mismatches are
 * recorded here; test/support/reply-check-setup.ts fails the test that made
 * them (after it ends, naming the route and the fields), so a test that only looks at the status
 * code still fails.
 *
 * What counts as a mismatch, for a route that declares response schemas:
 * - the reply, as JSON, does not parse with the schema for its status (exact, `4xx`, or `default`);
 * - it carries a field the schema does not name (the serializer would drop it);
 * - where the schema is a dialect union (`dialectUnion()`), the reply is not the shape of the
 *   request's own dialect (bearer → Variant B, otherwise Variant A);
 * - a JSON reply with a status the route does not declare.
 * A reply to a client that has already gone is not checked (nobody reads it).
 * Replies sent as JSON text (already serialised) are parsed and checked the same way, when sent.
 * A reply that fits is also written by zod's serializer, and what the app's serializer wrote
 * (src/platform/reply-serializer.ts: fast-json-stringify for most schemas) must be the same JSON.
 */
import type {
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preSerializationHookHandler,
  RouteOptions,
} from 'fastify';
import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

const DIALECTS_KEY = 'x-dialects';

const mismatches: string[] = [];

/** The mismatches recorded since the last call (and forgets them). */
export function takeReplyMismatches(): string[] {
  return mismatches.splice(0);
}

type ResponseMap = Record<string, unknown>;

function asZod(schema: unknown): z.ZodType | null {
  if (schema instanceof z.ZodType) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties instanceof z.ZodType ? properties : null;
}

/** Fastify's order: the exact status, then its class (`4xx`), then `default`. */
function declaredFor(responses: ResponseMap, status: number): unknown {
  return responses[String(status)] ?? responses[`${String(status)[0]}xx`] ?? responses.default;
}

/** The zod schema for a reply of this content type: a plain schema, or the entry of `content` for the media type. */
function schemaFor(declared: unknown, contentType: string): z.ZodType | null | 'undeclared-type' {
  const content = (declared as { content?: Record<string, { schema?: unknown }> } | null)?.content;
  if (!content) return asZod(declared);
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  const entry = content[mediaType];
  return entry ? asZod(entry.schema) : 'undeclared-type';
}

/** For a dialect union, the shape of the request's dialect; any other schema as it is. */
function forDialect(schema: z.ZodType, request: FastifyRequest): z.ZodType {
  const shapes = z.globalRegistry.get(schema)?.[DIALECTS_KEY] as
    { bearer: string; cookie: string } | undefined;
  if (!shapes || !(schema instanceof z.ZodUnion)) return schema;
  const want = request.auth?.via === 'bearer' ? shapes.bearer : shapes.cookie;
  const option = (schema.options as z.ZodType[]).find(
    (candidate) => z.globalRegistry.get(candidate)?.id === want,
  );
  return option ?? schema;
}

/** Paths (`a.b.0.c`) of the keys `given` has that `kept` (what the schema let through) lacks. */
function droppedKeys(given: unknown, kept: unknown, path: string[] = []): string[] {
  if (Array.isArray(given) && Array.isArray(kept))
    return given.flatMap((entry, index) =>
      droppedKeys(entry, kept[index], [...path, String(index)]),
    );
  if (
    !given ||
    typeof given !== 'object' ||
    !kept ||
    typeof kept !== 'object' ||
    Array.isArray(given)
  )
    return [];
  return Object.entries(given).flatMap(([key, value]) =>
    key in kept
      ? droppedKeys(value, (kept as Record<string, unknown>)[key], [...path, key])
      : [[...path, key].join('.')],
  );
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/** The mismatch of one JSON value against the route's declaration, or null when it fits. */
function replyMismatch(
  responses: ResponseMap,
  status: number,
  contentType: string,
  value: unknown,
  request: FastifyRequest,
): string | null {
  const declared = declaredFor(responses, status);
  if (declared === undefined)
    return `status ${status} is not declared (declared: ${Object.keys(responses).join(', ')})`;
  const schema = schemaFor(declared, contentType);
  if (schema === 'undeclared-type')
    return `status ${status} does not declare the content type ${contentType}`;
  if (!schema) return null;
  const shape = forDialect(schema, request);
  const result = shape.safeParse(value);
  const name = z.globalRegistry.get(shape)?.id ?? 'its schema';
  if (!result.success)
    return `status ${status} does not match ${name}: ${describeIssues(result.error)}`;
  const extra = droppedKeys(value, result.data);
  if (extra.length > 0)
    return `status ${status} has fields ${name} does not name (the serializer would drop them): ${extra.slice(0, 8).join(', ')}`;
  return null;
}

const checked = new WeakSet<FastifyRequest>();
/** What zod's serializer writes for the request's reply, parsed: the app's serializer must write the same. */
const zodWrites = new WeakMap<FastifyRequest, unknown>();

/** A reply to a client that has gone (the summary's 499) reaches no one: nothing to check. */
function clientGone(reply: FastifyReply): boolean {
  return reply.raw.destroyed && !reply.raw.writableFinished;
}

function record(request: FastifyRequest, problem: string): void {
  mismatches.push(
    `${request.method} ${request.routeOptions.url ?? request.url} (${request.auth?.via ?? 'no credentials'}): ${problem}`,
  );
}

function isJson(contentType: string): boolean {
  return /\bjson\b/i.test(contentType.split(';')[0] ?? '');
}

function contentTypeOf(reply: FastifyReply): string {
  const header = reply.getHeader('content-type');
  return typeof header === 'string' ? header : 'application/json';
}

/** The checks, added to every route that declares response schemas (an `onRoute` hook). */
export function checkReplySchemas(route: RouteOptions): void {
  const responses = route.schema?.response as ResponseMap | undefined;
  if (!responses) return;

  // The object the handler (or the error handler) sent, before the serializer writes it.
  const beforeSerialization: preSerializationHookHandler<unknown> = (
    request,
    reply,
    payload,
    done,
  ) => {
    checked.add(request);
    const contentType = contentTypeOf(reply);
    if (isJson(contentType) && !clientGone(reply)) {
      // As JSON would carry it (a Date as its ISO string, undefined fields absent).
      const value: unknown = JSON.parse(JSON.stringify(payload) ?? 'null');
      const problem = replyMismatch(responses, reply.statusCode, contentType, value, request);
      if (problem) record(request, problem);
      const declared = declaredFor(responses, reply.statusCode);
      const schema = declared === undefined ? null : schemaFor(declared, contentType);
      if (!problem && schema && schema !== 'undeclared-type') {
        const written = zodSerializerCompiler({
          schema,
          method: request.method,
          url: request.routeOptions.url ?? request.url,
        })(payload);
        zodWrites.set(request, JSON.parse(written));
      }
    }
    done(null, payload);
  };

  // JSON text sent as is (already serialised by the route): parsed and checked the same way.
  const whenSent: onSendHookHandler<unknown> = (request, reply, payload, done) => {
    const contentType = contentTypeOf(reply);
    const expected = zodWrites.get(request);
    if (expected !== undefined && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const written: unknown = JSON.parse(payload.toString());
      if (!isDeepStrictEqual(written, expected))
        record(
          request,
          `status ${reply.statusCode} was written ` +
            `as ${JSON.stringify(written).slice(0, 300)} where zod's serializer ` +
            `writes ${JSON.stringify(expected).slice(0, 300)}`,
        );
    }
    if (
      !checked.has(request) &&
      !clientGone(reply) &&
      isJson(contentType) &&
      (typeof payload === 'string' || Buffer.isBuffer(payload))
    ) {
      let value: unknown;
      try {
        value = JSON.parse(payload.toString());
      } catch {
        record(request, `status ${reply.statusCode} is labelled ${contentType} but is not JSON`);
        return done(null, payload);
      }
      const problem = replyMismatch(responses, reply.statusCode, contentType, value, request);
      if (problem) record(request, problem);
    }
    done(null, payload);
  };

  route.preSerialization = [
    ...hooksOf(route.preSerialization),
    beforeSerialization,
  ] as RouteOptions['preSerialization'];
  route.onSend = [...hooksOf(route.onSend), whenSent] as RouteOptions['onSend'];
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
