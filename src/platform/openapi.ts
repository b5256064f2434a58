/**
 * The OpenAPI 3.1 document, generated from the routes' zod schemas, at /api/openapi.json, and a
 * browsable reference at /api/docs.
 *
 * Schemas named with `.meta({ id })` become components/schemas/<id> (request bodies as <id>Input).
 * The default document describes both dialects: where a reply's envelope depends on how the request
 * was authenticated it is a union of the two named shapes (`dialectUnion()`). A client
 * generator cannot narrow such a union, so `?dialect=cookie` and `?dialect=bearer` publish the same
 * document with each union replaced by that dialect's shape and only that dialect's security scheme.
 *
 * Routes declare, beside their zod schemas, what zod cannot say: `responseHeaders` (named headers by
 * status, from RESPONSE_HEADERS) and `requestBody` (a body the route reads itself, the multipart
 * upload). Both are documentation; the handlers set the headers.
 */
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DIALECT_CREDENTIAL, type DialectCredential } from './dialect.js';
import { ERROR_CODES } from './errors.js';
import { PAGE_SECURITY_HEADERS } from './page-headers.js';

export const ErrorResponse = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      details: z
        .object({
          field: z.string().optional().describe('The (first) field at fault'),
          reason: z.string().optional(),
          fields: z
            .array(z.object({ field: z.string(), reason: z.string() }))
            .optional()
            .describe(
              'Every failing field, when the request failed its schema (a form can show them all at once)',
            ),
        })
        .optional(),
    }),
  })
  .meta({
    id: 'Error',
    description:
      'Error envelope: a code matching the status, a message and, for invalid input, the field; never a stack trace',
  });

const DIALECTS_KEY = 'x-dialects';

function idOf(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('A dialect shape must be a named schema (.meta({ id }))');
  return id;
}

/**
 * A reply whose envelope depends on the dialect: Variant B (bearer) or Variant A (cookies), both
 * named schemas. The bearer envelope comes first: its required key (workspace, resource, session…)
 * is what tells the two apart when the reply is written (zod picks the first branch that parses).
 */
export function dialectUnion<B extends z.ZodType, C extends z.ZodType>(
  id: string,
  description: string,
  shapes: { bearer: B; cookie: C },
) {
  return z.union([shapes.bearer, shapes.cookie]).meta({
    id,
    description,
    [DIALECTS_KEY]: { bearer: idOf(shapes.bearer), cookie: idOf(shapes.cookie) },
  });
}

/**
 * What the document says of a request body beyond its validating schema. `shape`: the exact
 * alternatives a client may send, each a closed object, published in place of the validating schema
 * (which keeps the cleaning, and messages that name the field); a generated client types the body as
 * their union, where `anyOf: [{ required }]` beside the properties generates as `{…} | unknown`, which
 * any value satisfies. `examples`: bodies the service accepts (zod drops examples from the input side
 * of a schema that transforms, as every cleaned body does).
 */
interface BodyDocumentation {
  shape?: z.ZodType;
  /** Sets of fields of which the body must send at least one whole (an `anyOf` of the object, each
   * alternative requiring its set). */
  oneOf?: readonly (readonly string[])[];
  examples?: readonly Record<string, unknown>[];
}
const BODY_DOCUMENTATION = new WeakMap<z.ZodType, BodyDocumentation>();
export function documentBody<T extends z.ZodType>(
  validating: T,
  documentation: BodyDocumentation,
): T {
  BODY_DOCUMENTATION.set(validating, documentation);
  return validating;
}

interface OverrideContext {
  zodSchema: unknown;
  jsonSchema: Record<string, unknown>;
}
/**
 * The JSON Schema override: what fastify-type-provider-zod does by default for OpenAPI 3.1 (a union's
 * empty branches go), then a documented body's shape and examples.
 */
function overrideJsonSchema(ctx: OverrideContext): void {
  const zodSchema = ctx.zodSchema as z.ZodType;
  if (zodSchema._zod.def.type === 'union' && Array.isArray(ctx.jsonSchema.anyOf)) {
    ctx.jsonSchema.anyOf = (ctx.jsonSchema.anyOf as object[]).filter(
      (branch) => Object.keys(branch).length > 0,
    );
  }
  const documentation = BODY_DOCUMENTATION.get(zodSchema);
  if (!documentation) return;
  if (documentation.shape) {
    const { description } = ctx.jsonSchema;
    const shape = z.toJSONSchema(documentation.shape, {
      io: 'input',
      target: 'draft-2020-12',
      unrepresentable: 'any',
    }) as Record<string, unknown>;
    delete shape.$schema;
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    Object.assign(ctx.jsonSchema, shape, description === undefined ? {} : { description });
  }
  if (documentation.oneOf) {
    // Each alternative is the whole object with its set required, so a generator types the body as
    // their union (an `anyOf` of bare `required`s beside the properties generates as unknown). The
    // parts are shared, not copied: zod fills them in after this runs.
    const { description, ...object } = ctx.jsonSchema;
    const required = Array.isArray(object.required) ? (object.required as string[]) : [];
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    ctx.jsonSchema.anyOf = documentation.oneOf.map((fields) => ({
      ...object,
      required: [...new Set([...required, ...fields])],
    }));
    if (description !== undefined) ctx.jsonSchema.description = description;
  }
  if (documentation.examples) ctx.jsonSchema.examples = structuredClone(documentation.examples);
}

/** Security requirements: an operation anyone may call, and one that also serves signed-in users as such. */
export const PUBLIC: Array<Record<string, string[]>> = [];
export const SIGNED_IN_OPTIONAL: Array<Record<string, string[]>> = [
  {},
  { bearer: [] },
  { cookie: [] },
];

/** The response headers the service sends, documented once in components/headers. */
export const RESPONSE_HEADERS = {
  'X-Total-Count': {
    description:
      'How many items there are in all; the reply holds the page asked for by limit and offset',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed in the current window',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer', minimum: 1 },
  },
  'Content-Disposition': {
    description: 'attachment; filename="<workspace name>.<extension>"',
    schema: { type: 'string' },
  },
  Location: { description: 'Where the redirect goes', schema: { type: 'string' } },
  ETag: {
    description:
      'The version of the object in the reply (also its `version` field), a strong validator such as `"r3"`: send it back as `If-Match` to change or delete the object only if nobody has changed it since (412 otherwise)',
    schema: { type: 'string' },
  },
} as const;
export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;
export const RATE_LIMIT_HEADERS: ResponseHeaderName[] = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
];

/**
 * A file part of a multipart body, as generators read it: `format: binary` is what OpenAPI 3.0 and
 * the generators that map files (openapi-generator, hey-api, orval, Kubb: `Blob`/`File`) look for;
 * `contentMediaType` is OpenAPI 3.1's word for what the bytes are. openapi-typescript (7.x) reads
 * neither and gives `string`; scripts/web-api.ts maps `format: binary` to Blob for it (docs/api.md).
 */
export function filePart(mediaType: string, description: string) {
  return { type: 'string', format: 'binary', contentMediaType: mediaType, description };
}

interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content: Record<string, { schema: Record<string, unknown> }>;
}

declare module 'fastify' {
  interface FastifySchema {
    /** Headers each status sends (documentation: the handler sets them). */
    responseHeaders?: Readonly<Partial<Record<number, readonly ResponseHeaderName[]>>>;
    /** A request body the route reads itself (a multipart upload), as the document shows it. */
    requestBody?: RequestBodyObject;
  }
}

type Json = Record<string, unknown>;
interface OperationObject {
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, Json & { headers?: Json }>;
  requestBody?: RequestBodyObject;
  'x-response-headers'?: Partial<Record<string, readonly ResponseHeaderName[]>>;
  'x-request-body'?: RequestBodyObject;
  /** The body's schema accepts `{}`, so no body at all is accepted too (request-input.ts reads none as `{}`). */
  'x-body-optional'?: boolean;
}
interface OpenApiDocument {
  info: Json & { description?: string };
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas?: Record<string, Json>; securitySchemes?: Json; headers?: Json };
  security?: Array<Record<string, string[]>>;
}

const SCHEMA_REF = '#/components/schemas/';

/** What each status means here, for responses the route did not describe itself. */
const STATUS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '302': 'Redirect (see Location)',
  '400': 'Invalid input: details.field names the field',
  '401': 'Not signed in, or the session has ended',
  '403': 'Refused: a cookie-authenticated change from another origin',
  '404': "Not found (also another user's object)",
  '409': 'Conflict with what exists',
  '412':
    'If-Match named a version the object no longer has: nothing was written; `current` is the object as it is now (its ETag in the header)',
  '413': 'Too large',
  '415': 'A Content-Type the route does not read',
  '422': 'The paper cannot be summarised (no PDF, not a PDF, or no text)',
  '429': 'Rate limited: retry after Retry-After seconds',
  '502': 'An upstream service failed',
  '503': 'A backing service is unavailable',
  '504': 'An upstream service was too slow',
};
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** Every `$ref` inside a value. */
function refsIn(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) value.forEach((entry) => refsIn(entry, found));
  else if (isObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(SCHEMA_REF))
        found.add(inner.slice(SCHEMA_REF.length));
      else refsIn(inner, found);
    }
  }
  return found;
}

/** Replaces `$ref`s by the map, everywhere in a value. */
function rewriteRefs(value: unknown, replace: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((entry) => rewriteRefs(entry, replace));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(SCHEMA_REF)) {
        const target = replace.get(inner.slice(SCHEMA_REF.length));
        return [key, target ? SCHEMA_REF + target : inner];
      }
      return [key, rewriteRefs(inner, replace)];
    }),
  );
}

/** Keeps only the component schemas the paths reach (zod's registry yields an input and an output copy of each). */
function pruneSchemas(doc: OpenApiDocument): void {
  const schemas = doc.components.schemas ?? {};
  const reached = new Set<string>();
  const pending = [...refsIn(doc.paths)];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (reached.has(name) || !schemas[name]) continue;
    reached.add(name);
    pending.push(...refsIn(schemas[name]));
  }
  doc.components.schemas = Object.fromEntries(
    Object.entries(schemas)
      .filter(([name]) => reached.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/**
 * What the routes declared beside their schemas, put where OpenAPI wants it: the multipart body, the
 * named headers per response (and the headers every signed-in or rate-limited answer carries).
 */
function finishOperations(doc: OpenApiDocument): void {
  const headerRef = (name: ResponseHeaderName) => ({ $ref: `#/components/headers/${name}` });
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) {
      if (operation['x-request-body']) {
        // Beside a body the schema declares (JSON), the one the route reads itself (multipart) is another content type.
        const declared = operation.requestBody;
        const own = operation['x-request-body'];
        operation.requestBody = declared
          ? { ...own, content: { ...declared.content, ...own.content } }
          : own;
        delete operation['x-request-body'];
      }
      if (operation['x-body-optional'] && operation.requestBody)
        operation.requestBody.required = false;
      delete operation['x-body-optional'];
      const declared = operation['x-response-headers'] ?? {};
      delete operation['x-response-headers'];
      const signedIn = (operation.security ?? doc.security ?? []).some(
        (entry) => Object.keys(entry).length > 0,
      );
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description === 'Default Response' && STATUS_DESCRIPTIONS[status])
          response.description = STATUS_DESCRIPTIONS[status];
        // A reply in a route's own error shape (`{ error: "<message>" }`) has no `details`: its
        // message is the sentence that names the field.
        if (status === '400' && response.content && !refsIn(response.content).has('Error'))
          response.description = 'Invalid input: the message is a sentence that names the field';
        // 204 and 304 carry no body (RFC 9110 §15.3.5, §15.4.5), whatever schema the route gave.
        if (status === '204' || status === '304') delete response.content;
        const names = new Set<ResponseHeaderName>(declared[status] ?? []);
        // A signed-in request is counted against the user's hourly limit, and the answer says so
        // (not a 401 or 403: those are refused before anything is counted).
        if (signedIn && status !== '401' && status !== '403')
          RATE_LIMIT_HEADERS.forEach((name) => names.add(name));
        if (status === '429')
          ['Retry-After' as const, ...RATE_LIMIT_HEADERS].forEach((name) => names.add(name));
        if (names.size > 0)
          response.headers = Object.fromEntries([...names].map((name) => [name, headerRef(name)]));
      }
    }
  }
  doc.components.headers = RESPONSE_HEADERS;
}

/** The document as one dialect's client sees it: each dialect union is that dialect's shape. */
function documentForDialect(source: object, dialect: DialectCredential): object {
  const doc = structuredClone(source) as OpenApiDocument;
  const schemas = doc.components.schemas ?? {};
  const chosen = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) {
    const shapes = schema[DIALECTS_KEY] as Partial<Record<DialectCredential, string>> | undefined;
    if (shapes?.[dialect]) chosen.set(name, shapes[dialect]);
  }
  const rewritten = rewriteRefs({ paths: doc.paths, schemas }, chosen) as {
    paths: OpenApiDocument['paths'];
    schemas: Record<string, Json>;
  };
  doc.paths = rewritten.paths;
  doc.components.schemas = rewritten.schemas;
  const other = dialect === 'cookie' ? 'bearer' : 'cookie';
  const withoutOther = (security: Array<Record<string, string[]>>) =>
    security.filter((entry) => !(other in entry));
  doc.security = withoutOther(doc.security ?? []);
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item))
      if (operation.security) operation.security = withoutOther(operation.security);
  }
  if (doc.components.securitySchemes) delete doc.components.securitySchemes[other];
  doc.info = {
    ...doc.info,
    description: `${doc.info.description ?? ''} This document is the ${dialect} dialect: requests authenticated by ${dialect === 'cookie' ? 'session cookies (Variant A)' : 'a bearer token (Variant B)'}.`,
  };
  pruneSchemas(doc);
  return doc;
}

const OpenApiQuery = z.object({
  dialect: z
    .enum(DIALECT_CREDENTIAL)
    .optional()
    .describe('Publish the document for one dialect (exact reply types); both when absent'),
});

export async function registerOpenApi(
  app: FastifyInstance,
  info: { version: string; publicUrl: string },
): Promise<void> {
  const zodToJsonConfig = { override: overrideJsonSchema as never };
  const zodTransform = createJsonSchemaTransform({ skipList: [], zodToJsonConfig });
  const zodTransformObject = createJsonSchemaTransformObject({ zodToJsonConfig });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Research Workspace API',
        version: info.version,
        description:
          'Accounts and sessions, profiles, federated academic search, extractive summaries, workspaces with resources, annotations and share links, analytics and health. Requests authenticated by a bearer token get Variant B envelopes; requests authenticated by session cookies get Variant A (objects carry the field names of both variants; when both credentials are sent, the bearer token wins). One document per dialect, with exact reply types: ?dialect=cookie and ?dialect=bearer.',
      },
      servers: [{ url: info.publicUrl }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'Every 401 carries `WWW-Authenticate`: `Bearer` when no token was sent; `Bearer error="invalid_token", error_description="…"` (RFC 6750) when the token sent expired ("The access token expired": refresh it), was revoked or is invalid.',
          },
          cookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'access_token',
            description:
              'The session cookies, set by sign-in: `access_token` (the access JWT, one hour), or, when it is missing or expired, `refresh_token` alone. A request carrying a valid `refresh_token` cookie without a live `access_token` is authenticated: the refresh token is rotated and the answer sets both cookies anew (`Set-Cookie`), as `POST /api/auth/refresh` would. A state-changing request authenticated by cookie must come from `APP_ORIGIN` or `PUBLIC_URL` (its `Origin` or `Referer`), else 403.',
          },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
    },
    // @fastify/swagger copies `x-` keys of a route schema into its operation; finishOperations moves them.
    transform: (input) => {
      const { schema, url } = zodTransform(input);
      const declared = input.schema as
        { responseHeaders?: unknown; requestBody?: unknown; body?: unknown } | undefined;
      const extended = schema as Json;
      // A body without an id is written inline, where zod's override does not reach its root.
      const inlineExamples = declared?.body
        ? BODY_DOCUMENTATION.get(declared.body as z.ZodType)?.examples
        : undefined;
      if (inlineExamples && isObject(extended.body) && !extended.body.$ref)
        extended.body.examples = structuredClone(inlineExamples);
      if (declared?.responseHeaders) extended['x-response-headers'] = declared.responseHeaders;
      if (declared?.requestBody) extended['x-request-body'] = declared.requestBody;
      // A request without a body is judged as `{}` (request-input.ts): a schema that accepts it makes the body optional.
      const body = (input.schema as { body?: unknown } | undefined)?.body;
      if (body instanceof z.ZodType && body.safeParse({}).success)
        extended['x-body-optional'] = true;
      delete extended.responseHeaders;
      delete extended.requestBody;
      return { schema, url };
    },
    transformObject: (input) => {
      const doc = zodTransformObject(input) as unknown as OpenApiDocument;
      finishOperations(doc);
      pruneSchemas(doc);
      return doc as never;
    },
  });
  // The reference is a page like the app's and gets its headers (no framing, no sniffing, our scripts
  // only), on its HTML and its static files alike: the hook sits in a scope holding only Swagger UI.
  // No validator badge: it would load an image from validator.swagger.io.
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (_request, reply) => {
      reply.headers(PAGE_SECURITY_HEADERS);
    });
    await scope.register(swaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
    });
  });
  const perDialect = new Map<DialectCredential, object>();
  app.get(
    '/api/openapi.json',
    { schema: { hide: true, querystring: OpenApiQuery } },
    async (request) => {
      const dialect = (request.query as z.infer<typeof OpenApiQuery>).dialect;
      if (!dialect) return app.swagger();
      let doc = perDialect.get(dialect);
      if (!doc) perDialect.set(dialect, (doc = documentForDialect(app.swagger(), dialect)));
      return doc;
    },
  );
}
