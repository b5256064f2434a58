/**
 * The request side of the contract: for every operation of the OpenAPI document, a request that sends
 * only what the document calls required (path parameters, required query parameters and headers, the
 * required fields of the body's example) is never refused for something the document calls optional.
 * A 400 may name only a part that was sent (a made-up path value may fail its pattern); a 404 for
 * made-up ids is fine. Provider calls go to a closed local port, so nothing leaves the machine.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../../test/support/api-types.js';
import { buildTestApp, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  minLength?: number;
  minItems?: number;
  minProperties?: number;
  items?: Schema;
  required?: string[];
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  examples?: unknown[];
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: {
    required?: boolean;
    content: Record<
      string,
      { schema: Schema; example?: unknown; examples?: Record<string, { value: unknown }> }
    >;
  };
  security?: Array<Record<string, string[]>>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** Values a path parameter's pattern may want: ids of each kind the routes take. */
const CANDIDATES = [
  randomUUID(),
  randomBytes(32).toString('base64url'),
  'arxiv:2101.00001',
  'W2741809807',
  '12345',
  'avatar.png',
  'google',
  'x',
];

function resolve(document: Document, schema: Schema): Schema {
  return schema.$ref
    ? resolve(document, document.components.schemas[schema.$ref.split('/').pop()!]!)
    : schema;
}

/** A value the schema takes, made up from its type, format, pattern and bounds. */
function valueOf(document: Document, raw: Schema): unknown {
  const schema = resolve(document, raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternative = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alternative) return valueOf(document, alternative);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 1, 1);
  if (type === 'boolean') return true;
  if (type === 'array')
    return Array.from({ length: Math.max(schema.minItems ?? 1, 1) }, () =>
      valueOf(document, schema.items ?? {}),
    );
  if (schema.format === 'uuid') return randomUUID();
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    return CANDIDATES.find((candidate) => pattern.test(candidate)) ?? CANDIDATES[0];
  }
  return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
}

/**
 * The body's first example cut down to the fields its schema (or the alternative it matches)
 * requires, and to as many as `minProperties` asks for (a PATCH must change something).
 */
function requiredBodyOf(
  document: Document,
  media: NonNullable<Operation['requestBody']>['content'][string],
): Record<string, unknown> | undefined {
  const schema = resolve(document, media.schema);
  // A named body keeps its examples in its schema; an inline one has them on its media type.
  const example =
    schema.examples?.[0] ?? media.example ?? Object.values(media.examples ?? {})[0]?.value;
  if (typeof example !== 'object' || example === null || Array.isArray(example)) return undefined;
  // What the schema requires, and the first of its alternatives (`anyOf` of `required`s) the example takes.
  const alternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map((entry) =>
    resolve(document, entry),
  );
  const matching = alternatives.find(
    (entry) => entry.required && entry.required.every((key) => key in example),
  );
  const required = [...(schema.required ?? []), ...(matching?.required ?? [])];
  const entries = Object.entries(example as Record<string, unknown>);
  const kept = entries.filter(([key]) => required.includes(key));
  const atLeast = schema.minProperties ?? 0;
  for (const entry of entries) if (kept.length < atLeast && !kept.includes(entry)) kept.push(entry);
  return Object.fromEntries(kept);
}

/**
 * Query parameters of which one must be sent: OpenAPI cannot say "one of these" of parameters, so
 * the operation's description says it (and the refusal names what to send).
 */
const ONE_OF_IN_QUERY = new Set(['GET /api/summarize']);

/** Operations that end the session or the account run last, the account's deletion the very last. */
const order = (path: string, method: string) =>
  path === '/api/account' && method === 'delete'
    ? 3
    : path.startsWith('/api/auth/') && method !== 'get'
      ? 2
      : 1;

describe('every operation accepts a request without its optional parts', () => {
  let t: TestApp;
  let user: TestUser;
  let document: Document;
  const closedPort = 'http://127.0.0.1:9';

  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        OUTBOUND_ALLOW_PRIVATE: 'true',
        ...Object.fromEntries(
          ['ARXIV', 'PUBMED', 'CROSSREF', 'OPENALEX', 'SEMANTICSCHOLAR', 'ZENODO', 'YOUTUBE'].map(
            (provider) => [`${provider}_API_URL`, closedPort],
          ),
        ),
      },
    });
    user = await buildUser(t.app);
    document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Document>();
  });
  afterAll(async () => t?.close());

  it('refuses none of them for a part the document calls optional', async () => {
    const operations = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
      )
      .sort((a, b) => order(a.path, a.method) - order(b.path, b.method));
    expect(operations.length).toBeGreaterThan(50);
    const refusals: string[] = [];
    for (const { path, method, operation } of operations) {
      const parameters = operation.parameters ?? [];
      const sent = new Set<string>();
      let url = path;
      const query: Record<string, string | string[]> = {};
      // Both credentials: the bearer token decides the dialect; the cookies let refresh find its token.
      const headers: Record<string, string> = { ...user.bearer, ...user.cookieHeaders };
      for (const parameter of parameters.filter((entry) => entry.required)) {
        const value = valueOf(document, parameter.schema ?? {});
        sent.add(parameter.name);
        if (parameter.in === 'path')
          url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
        else if (parameter.in === 'query')
          query[parameter.name] = Array.isArray(value) ? value.map(String) : String(value);
        else if (parameter.in === 'header') headers[parameter.name] = String(value);
      }
      const content = operation.requestBody?.content ?? {};
      let payload: Record<string, unknown> | undefined;
      if (content['application/json'] && operation.requestBody?.required !== false) {
        payload = requiredBodyOf(document, content['application/json']) ?? {};
        Object.keys(payload).forEach((key) => sent.add(key));
      } else if (operation.requestBody?.required) {
        // A multipart or raw body the route reads itself: not sending it may be refused by name.
        ['body', 'file', 'content-type'].forEach((name) => sent.add(name));
      }
      const response = await t.app.inject({
        method: method.toUpperCase() as 'GET',
        url,
        query,
        headers,
        ...(payload ? { payload } : {}),
      });
      const at = `${method.toUpperCase()} ${path}`;
      if (response.statusCode === 400) {
        const error = response.json<ApiSchema<'Error' | 'PlainError'>>().error;
        const field = typeof error === 'string' ? error.split(' ')[0] : error.details?.field;
        const named = (field ?? '').split('.')[0]!;
        if (!sent.has(named))
          refusals.push(`${at}: 400 for ${named || '(no field)'}: ${JSON.stringify(error)}`);
      }
      if (
        String(response.headers['content-type']).startsWith('text/event-stream') &&
        !ONE_OF_IN_QUERY.has(at)
      ) {
        const problem = /^event: error\ndata: (.*)$/m.exec(response.body)?.[1];
        const event = problem ? (JSON.parse(problem) as { code?: string; message?: string }) : null;
        if (event?.code === 'VALIDATION_ERROR' && !sent.has(event.message?.split(' ')[0] ?? ''))
          refusals.push(`${at}: error event ${problem}`);
      }
    }
    expect(refusals).toEqual([]);
  }, 300_000);
});
