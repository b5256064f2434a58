/**
 * The published OpenAPI document, checked as a client would use it: valid OpenAPI 3.1, every
 * operation named and its security declared, one document per dialect from which openapi-typescript
 * generates types that a small client compiles against, and string limits that are the ones the
 * service enforces (driven from the document, so that a drift between the two fails here).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema, BearerReply } from '../../test/support/api-types.js';
import { buildTestApp, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { PAGE_CONTENT_SECURITY_POLICY } from './page-headers.js';

interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaObject>;
  required?: string[];
  maxLength?: number;
  minLength?: number;
  format?: string;
  pattern?: string;
  anyOf?: SchemaObject[];
  examples?: unknown[];
}
interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  requestBody?: {
    content: Record<
      string,
      { schema: SchemaObject; example?: unknown; examples?: Record<string, { value: unknown }> }
    >;
  };
  responses: Record<
    string,
    { headers?: Record<string, unknown>; content?: Record<string, { schema?: SchemaObject }> }
  >;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, SchemaObject>;
    securitySchemes: Record<string, unknown>;
    headers?: Record<string, unknown>;
  };
  security?: Array<Record<string, string[]>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operations(doc: Document): Array<{ path: string; method: string; operation: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}

/** The security an operation has: its own, else the document's. */
function securityOf(
  doc: Document,
  operation: Operation,
): Array<Record<string, string[]>> | undefined {
  return operation.security ?? doc.security;
}

function resolve(doc: Document, schema: SchemaObject): SchemaObject {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 10; hops++) {
    current = doc.components.schemas[current.$ref.replace('#/components/schemas/', '')] ?? {};
  }
  return current;
}

/** Operations anyone may call without signing in (accounts, search, summaries, public pages, utility). */
const PUBLIC_OPERATIONS = [
  'POST /api/auth/signup',
  'POST /api/auth/signin',
  'POST /api/auth/refresh',
  'POST /api/auth/reset-password',
  'GET /api/auth/confirm',
  'GET /api/auth/{provider}',
  'GET /auth/callback',
  'GET /storage/avatars/{userId}/{file}',
  'GET /share/{token}',
  'GET /api/search/providers',
  'GET /api/health',
  'GET /api/debug/emailjs',
];

describe('OpenAPI document', () => {
  let t: TestApp;
  let user: TestUser;
  const docs: Record<'default' | 'cookie' | 'bearer', Document> = {} as never;

  beforeAll(async () => {
    t = await buildTestApp();
    user = await buildUser(t.app);
    for (const [name, query] of [
      ['default', ''],
      ['cookie', '?dialect=cookie'],
      ['bearer', '?dialect=bearer'],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url: `/api/openapi.json${query}` });
      expect(response.statusCode).toBe(200);
      docs[name] = response.json<Document>();
    }
  });
  afterAll(async () => t?.close());

  it('is valid OpenAPI 3.1, in every dialect', async () => {
    for (const [name, doc] of Object.entries(docs)) {
      expect(doc.openapi, name).toBe('3.1.0');
      const result = await validate(structuredClone(doc) as never);
      expect(result.valid, `${name}: ${result.valid ? '' : compileErrors(result)}`).toBe(true);
    }
  });

  it('describes the cookies a session is accepted by: access_token, or refresh_token alone (rotated, new cookies set)', async () => {
    for (const dialect of ['default', 'cookie'] as const) {
      const scheme = docs[dialect].components.securitySchemes.cookie as {
        type: string;
        in: string;
        name: string;
        description?: string;
      };
      expect(scheme, dialect).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'access_token' });
      expect(scheme.description, dialect).toMatch(/`refresh_token` alone/);
    }
    // What the description says: the refresh cookie alone authenticates, and the answer sets both cookies.
    const fresh = await buildUser(t.app);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/workspaces',
      headers: { cookie: `refresh_token=${fresh.refreshToken}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.map((cookie) => cookie.name)).toEqual(
      expect.arrayContaining(['access_token', 'refresh_token']),
    );
  });

  it('refuses an unknown dialect', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json?dialect=soap' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.field).toBe('dialect');
  });

  it('names every operation with a unique operationId, and declares its security', () => {
    const ids = operations(docs.default).map(({ path, method, operation }) => {
      expect(operation.operationId, `${method.toUpperCase()} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(
        Array.isArray(securityOf(docs.default, operation)),
        `${method.toUpperCase()} ${path} security`,
      ).toBe(true);
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks the public operations with security: []', () => {
    for (const name of PUBLIC_OPERATIONS) {
      const [method, path] = name.split(' ') as [string, string];
      const operation = docs.default.paths[path]?.[method.toLowerCase()];
      expect(operation, name).toBeDefined();
      expect(operation?.security, name).toEqual([]);
    }
  });

  it('documents a GET as signed-in only exactly when the service answers it 401 without credentials', async () => {
    const sample: Record<string, string> = { provider: 'github', file: '1.png', token: 'x' };
    const query: Record<string, string> = {
      '/api/auth/confirm': '?token=x',
      '/api/resources/lookup': '?id=nothing',
      '/api/search': '?q=x&providers=none',
    };
    for (const { path, method, operation } of operations(docs.default)) {
      if (method !== 'get') continue;
      const url =
        path.replace(
          /\{(\w+)\}/g,
          (_, name: string) => sample[name] ?? '00000000-0000-4000-8000-000000000000',
        ) + (query[path] ?? '');
      const response = await t.app.inject({ method: 'GET', url });
      const security = securityOf(docs.default, operation) ?? [];
      const anonymousAllowed =
        security.length === 0 || security.some((entry) => Object.keys(entry).length === 0);
      expect(response.statusCode === 401, `GET ${path} answered ${response.statusCode}`).toBe(
        !anonymousAllowed,
      );
    }
  });

  it('documents 400 where input is validated, 401 and 429 where a session may be presented, 404 where a signed-in route names an object', () => {
    // Where the service answers otherwise by design: the share page answers any token with its 404
    // page; the summary and search streams report every problem (bad query, rate limit) as an `error` event.
    const byDesign = new Set([
      'GET /share/{token}',
      'GET /api/summarize',
      'GET /api/search/stream',
    ]);
    for (const { path, method, operation } of operations(docs.default)) {
      const name = `${method.toUpperCase()} ${path}`;
      if (byDesign.has(name)) continue;
      const security = securityOf(docs.default, operation) ?? [];
      const signedInOnly =
        security.length > 0 && security.every((entry) => Object.keys(entry).length > 0);
      const statuses = Object.keys(operation.responses);
      const validates = Boolean(
        (operation as { parameters?: unknown[] }).parameters?.length || operation.requestBody,
      );
      if (validates) expect(statuses, `${name} 400`).toContain('400');
      if (signedInOnly) expect(statuses, `${name} 401`).toContain('401');
      if (security.length > 0) expect(statuses, `${name} 429`).toContain('429');
      if (signedInOnly && path.includes('{')) expect(statuses, `${name} 404`).toContain('404');
    }
  });

  it('publishes the avatar upload as a multipart body with a file field', () => {
    const body = docs.default.paths['/api/profile/avatar']?.post?.requestBody;
    const schema = body?.content['multipart/form-data']?.schema;
    expect(schema?.required).toEqual(['file']);
    expect(schema?.properties?.file).toMatchObject({
      type: 'string',
      contentMediaType: 'application/octet-stream',
    });
  });

  it("publishes both bodies of POST …/resources (JSON or a multipart PDF) and the PDF routes' file replies", () => {
    const create = docs.default.paths['/api/workspaces/{id}/resources']?.post?.requestBody;
    expect(Object.keys(create?.content ?? {}).sort()).toEqual([
      'application/json',
      'multipart/form-data',
    ]);
    expect(create?.content['application/json']?.schema).toMatchObject({
      $ref: expect.stringContaining('ResourceCreate'),
    });
    expect(create?.content['multipart/form-data']?.schema?.properties?.file).toMatchObject({
      type: 'string',
      contentMediaType: 'application/pdf',
    });
    const pdf = docs.default.paths['/api/workspaces/{id}/resources/{resourceId}/pdf'];
    expect(Object.keys(pdf?.put?.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    expect(Object.keys(pdf?.get?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '206', '304', '416', '404']),
    );
    expect(Object.keys(pdf?.get?.responses['206']?.content ?? {})).toEqual(['application/pdf']);
  });

  it('names the response headers the service sends', async () => {
    const headersOf = (path: string, method: string, status: string) =>
      Object.keys(docs.default.paths[path]?.[method]?.responses[status]?.headers ?? {});
    expect(headersOf('/api/workspaces', 'get', '200')).toEqual(
      expect.arrayContaining([
        'X-Total-Count',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
      ]),
    );
    expect(headersOf('/api/workspaces/{id}/resources', 'get', '200')).toContain('X-Total-Count');
    expect(headersOf('/api/resources/{id}/annotations', 'get', '200')).toContain('X-Total-Count');
    expect(headersOf('/api/workspaces/{id}/export', 'get', '200')).toContain('Content-Disposition');
    expect(headersOf('/api/search', 'get', '200')).toEqual(
      expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    );
    expect(headersOf('/api/search', 'get', '429')).toContain('Retry-After');
    for (const path of ['/api/auth/confirm', '/auth/callback', '/api/auth/{provider}'])
      expect(headersOf(path, 'get', '302'), path).toContain('Location');
    // What the service really sends, for the ones documented above.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/workspaces',
      headers: user.bearer,
    });
    for (const header of [
      'x-total-count',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
    ])
      expect(list.headers, header).toHaveProperty(header);
  });

  it('documents the redirects and errors of callback, confirm and storage, and the event stream', () => {
    const responses = (path: string) => Object.keys(docs.default.paths[path]?.get?.responses ?? {});
    expect(responses('/auth/callback')).toEqual(expect.arrayContaining(['302', '400']));
    expect(responses('/api/auth/confirm')).toEqual(expect.arrayContaining(['302', '400']));
    expect(responses('/storage/avatars/{userId}/{file}')).toEqual(
      expect.arrayContaining(['200', '400', '404']),
    );
    expect(
      Object.keys(
        docs.default.paths['/storage/avatars/{userId}/{file}']?.get?.responses['200']?.content ??
          {},
      ),
    ).toEqual(['image/png', 'image/jpeg', 'image/webp']);
    expect(
      Object.keys(docs.default.paths['/api/summarize']?.get?.responses['200']?.content ?? {}),
    ).toEqual(['text/event-stream']);
    const csl =
      docs.default.paths['/api/workspaces/{id}/export']?.get?.responses['200']?.content?.[
        'application/vnd.citationstyles.csl+json'
      ]?.schema;
    expect(resolve(docs.default, csl ?? {}).type).toBe('array');
  });

  it('gives each dialect exact reply types that a generated client compiles against', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rw-openapi-'));
    try {
      for (const dialect of ['cookie', 'bearer'] as const) {
        writeFileSync(
          join(dir, `${dialect}.ts`),
          astToString(await openapiTS(docs[dialect] as never)),
        );
      }
      const json = "['content']['application/json']";
      writeFileSync(
        join(dir, 'client.ts'),
        [
          "import type { paths as Cookie } from './cookie.js';",
          "import type { paths as Bearer } from './bearer.js';",
          `type CookieWorkspace = Cookie['/api/workspaces/{id}']['get']['responses'][200]${json};`,
          `type CookieList = Cookie['/api/workspaces']['get']['responses'][200]${json};`,
          `type CookieCreated = Cookie['/api/workspaces']['post']['responses'][201]${json};`,
          `type CookieResource = Cookie['/api/workspaces/{id}/resources']['post']['responses'][201]${json};`,
          `type CookieSession = Cookie['/api/auth/session']['get']['responses'][200]${json};`,
          `type BearerWorkspace = Bearer['/api/workspaces/{id}']['get']['responses'][200]${json};`,
          `type BearerList = Bearer['/api/workspaces']['get']['responses'][200]${json};`,
          `type BearerCreated = Bearer['/api/workspaces']['post']['responses'][201]${json};`,
          `type BearerResource = Bearer['/api/workspaces/{id}/resources']['post']['responses'][201]${json};`,
          `type BearerSession = Bearer['/api/auth/session']['get']['responses'][200]${json};`,
          'export function cookieClient(detail: CookieWorkspace, list: ' +
            'CookieList, created: CookieCreated, resource: CookieResource, session: ' +
            'CookieSession): string[] {',
          '  // @ts-expect-error the cookie dialect has no Variant B envelope',
          '  void detail.workspace;',
          '  return [detail.name, detail.resources[0]!.title, list[0]!.name, created.title, resource.title, session.user.email];',
          '}',
          'export function bearerClient(detail: BearerWorkspace, list: ' +
            'BearerList, created: BearerCreated, resource: BearerResource, session: ' +
            'BearerSession): string[] {',
          '  // @ts-expect-error the bearer dialect has no Variant A workspace',
          '  void detail.name;',
          '  const total: number = list.total;',
          '  return [detail.workspace.name, detail.resources[0]!.title, ' +
            'list.workspaces[0]!.name, created.workspace.name, ' +
            'resource.resource.title, session.session.access_token, String(total)];',
          '}',
        ].join('\n'),
      );
      const program = ts.createProgram([join(dir, 'client.ts')], {
        strict: true,
        noEmit: true,
        noUncheckedIndexedAccess: true,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        skipLibCheck: true,
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map(
          (diagnostic) =>
            `${diagnostic.file?.fileName.split('/').pop()}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
        );
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  /** The document's request body schemas, checked as JSON Schema 2020-12 (what OpenAPI 3.1 says they are). */
  function bodyValidator(doc: Document) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    for (const [name, schema] of Object.entries(doc.components.schemas))
      ajv.addSchema(schema, `#/components/schemas/${name}`);
    return (schema: SchemaObject, value: unknown) => {
      const check = ajv.compile(schema);
      return check(value) ? null : ajv.errorsText(check.errors);
    };
  }

  it('gives every JSON request body examples that match its schema and that the service accepts', async () => {
    const doc = docs.default;
    const conforms = bodyValidator(doc);
    // What a stateful client would have made first: the objects the paths name, and the example account.
    const workspaceId = (
      await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: user.bearer,
        payload: { name: 'Examples' },
      })
    ).json<BearerReply<'WorkspaceEnvelope'>>().workspace.id;
    const resourceId = (
      await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/resources`,
        headers: user.bearer,
        payload: { title: 'Paper' },
      })
    ).json<BearerReply<'ResourceEnvelope'>>().resource.id;
    const annotationId = (
      await t.app.inject({
        method: 'POST',
        url: `/api/resources/${resourceId}/annotations`,
        headers: user.bearer,
        payload: { body: 'Note' },
      })
    ).json<ApiSchema<'Annotation'>>().id;
    const alertId = (
      await t.app.inject({
        method: 'POST',
        url: '/api/alerts',
        headers: user.bearer,
        payload: { query: 'examples', frequency: 'daily' },
      })
    ).json<ApiSchema<'Alert'>>().id;
    const shareId = (
      await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/share`,
        headers: user.bearer,
        payload: {},
      })
    ).json<ApiSchema<'ShareLink'>>().id;
    const ids: Record<string, string> = {
      '/api/workspaces/{id}': workspaceId,
      '/api/resources/{id}': resourceId,
      '/api/annotations/{id}': annotationId,
      '/api/alerts/{id}': alertId,
    };
    // A member's id: the example account's, once it has signed up (POST …/members adds it from its example).
    let exampleUserId = '{userId}';
    const urlOf = (path: string) =>
      path
        .replace('{resourceId}', resourceId)
        .replace('{shareId}', shareId)
        .replace('{userId}', exampleUserId)
        .replace(
          /^(\/api\/\w+\/)\{id\}/,
          (prefix, base: string) => base + (ids[`${base}{id}`] ?? '{id}'),
        );
    // A bulk body names resources (and a target workspace) by id: a fresh resource and workspace take the examples' places.
    const concrete = async (path: string, example: unknown): Promise<unknown> => {
      if (path.endsWith('/duplicates/merge')) {
        // Two fresh resources take the places of the merge's kept and merged ones (at version 1, as in the example).
        const [keep, merged] = await Promise.all(
          ['Merge kept', 'Merge merged'].map(
            async (title) =>
              (
                await t.app.inject({
                  method: 'POST',
                  url: `/api/workspaces/${workspaceId}/resources`,
                  headers: user.bearer,
                  payload: { title },
                })
              ).json<BearerReply<'ResourceEnvelope'>>().resource.id,
          ),
        );
        return { keep, merge: [merged], expectedVersions: { [keep!]: 1, [merged!]: 1 } };
      }
      if (!path.includes('/resources/bulk/')) return example;
      const made = (
        await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${workspaceId}/resources`,
          headers: user.bearer,
          payload: { title: `Bulk ${path}` },
        })
      ).json<BearerReply<'ResourceEnvelope'>>().resource.id;
      const target = (
        await t.app.inject({
          method: 'POST',
          url: '/api/workspaces',
          headers: user.bearer,
          payload: { name: 'Target' },
        })
      ).json<BearerReply<'WorkspaceEnvelope'>>().workspace.id;
      const body = example as ApiSchema<'BulkTagInput' | 'BulkMoveInput' | 'BulkRemoveInput'>;
      return {
        ...body,
        resourceIds: [made],
        ...('targetWorkspaceId' in body ? { targetWorkspaceId: target } : {}),
      };
    };
    // A refresh token comes from a sign-in (the cookie does as well); no fixed example can carry a live one.
    // Nor can one carry a live unsubscribe token, which only a digest mail holds (alerts.test.ts posts it).
    const withoutExamples = new Set([
      'POST /api/auth/refresh',
      'POST /api/alerts/unsubscribe/{token}',
    ]);
    // Signed up from its example, the example account signs in and changes its password from theirs.
    const order = ['POST /api/auth/signup', 'POST /api/auth/signin'];
    // Then, as the example account and after everything else: its password set, changed back, and the account deleted.
    const last = [
      'POST /api/auth/update-password',
      'POST /api/auth/change-password',
      'DELETE /api/account',
    ];
    const asExampleAccount = new Set([
      '/api/auth/update-password',
      '/api/auth/change-password',
      '/api/account',
    ]);
    const bodies = operations(doc)
      .filter(({ operation }) => operation.requestBody?.content['application/json'])
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`)
      .sort(
        (a, b) =>
          (order.includes(b) ? 1 : 0) - (order.includes(a) ? 1 : 0) ||
          last.indexOf(a) - last.indexOf(b),
      );
    let exampleAccount: Record<string, string> = {};
    let sent = 0;
    for (const name of bodies) {
      const [method, path] = name.split(' ') as [string, string];
      const media =
        doc.paths[path]?.[method.toLowerCase()]?.requestBody?.content['application/json'];
      const schema = media?.schema ?? {};
      // A named body keeps its examples in its schema; an inline one has them on its media type.
      const examples = [
        ...(resolve(doc, schema).examples ?? []),
        ...(media && 'example' in media ? [media.example] : []),
        ...Object.values(media?.examples ?? {}).map(({ value }) => value),
      ];
      if (withoutExamples.has(name)) continue;
      expect(examples.length, `${name} has examples`).toBeGreaterThan(0);
      for (const example of examples) {
        expect(conforms(schema, example), `${name} example ${JSON.stringify(example)}`).toBeNull();
        const headers = asExampleAccount.has(path)
          ? exampleAccount
          : path.startsWith('/api/auth/')
            ? {}
            : user.bearer;
        const response = await t.app.inject({
          method: method as 'POST',
          url: urlOf(path),
          headers,
          payload: (await concrete(path, example)) as object,
        });
        expect(
          response.statusCode,
          `${name} ${JSON.stringify(example)}: ${response.body.slice(0, 300)}`,
        ).toBeLessThan(300);
        if (path === '/api/auth/signin' || path === '/api/auth/change-password') {
          const signedIn = response.json<ApiSchema<'SignInResult'>>();
          exampleAccount = { authorization: `Bearer ${signedIn.session.access_token}` };
          exampleUserId = signedIn.user.id;
        }
        sent++;
      }
    }
    expect(sent).toBeGreaterThanOrEqual(15);
  }, 60_000);

  it('refuses in the document what the service refuses: blank, spaces-only, markup-only and NUL names, unknown fields, PATCH with nothing known', async () => {
    const doc = docs.default;
    const conforms = bodyValidator(doc);
    const { id } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: user.bearer,
        payload: { name: 'Refusals' },
      })
    ).json<BearerReply<'WorkspaceEnvelope'>>().workspace;
    const cases: Array<{ method: 'post' | 'patch'; path: string; url: string; body: unknown }> = [
      ...['', '   ', '\t\u00a0\u3000', '<b></b>', '<p>&nbsp;</p>', 'Name\u0000', '&#32;'].map(
        (name) => ({
          method: 'post' as const,
          path: '/api/workspaces',
          url: '/api/workspaces',
          body: { name },
        }),
      ),
      { method: 'post', path: '/api/workspaces', url: '/api/workspaces', body: { nmae: 'typo' } },
      {
        method: 'post',
        path: '/api/workspaces',
        url: '/api/workspaces',
        body: { name: 'Typo', isPubic: true },
      },
      { method: 'post', path: '/api/workspaces', url: '/api/workspaces', body: 42 },
      {
        method: 'post',
        path: '/api/workspaces/{id}/resources',
        url: `/api/workspaces/${id}/resources`,
        body: { title: ' ' },
      },
      {
        method: 'post',
        path: '/api/workspaces/{id}/resources',
        url: `/api/workspaces/${id}/resources`,
        body: { resourceId: '  ' },
      },
      {
        method: 'post',
        path: '/api/workspaces/{id}/resources',
        url: `/api/workspaces/${id}/resources`,
        body: { url: 'https://example.org' },
      },
      {
        method: 'patch',
        path: '/api/workspaces/{id}',
        url: `/api/workspaces/${id}`,
        body: { colour: 'red' },
      },
      {
        method: 'patch',
        path: '/api/workspaces/{id}',
        url: `/api/workspaces/${id}`,
        body: { name: 'One', title: 'Other' },
      },
      {
        method: 'post',
        path: '/api/workspaces/{id}/share',
        url: `/api/workspaces/${id}/share`,
        body: { expiresInDays: 7, forever: true },
      },
    ];
    for (const { method, path, url, body } of cases) {
      const schema =
        doc.paths[path]?.[method]?.requestBody?.content['application/json']?.schema ?? {};
      const label = `${method.toUpperCase()} ${path} ${JSON.stringify(body)}`;
      expect(conforms(schema, body), `the document refuses ${label}`).not.toBeNull();
      const response = await t.app.inject({
        method: method.toUpperCase() as 'POST',
        url,
        payload: JSON.stringify(body),
        headers: { ...user.bearer, 'content-type': 'application/json' },
      });
      expect(response.statusCode, `the service refuses ${label}`).toBe(400);
    }
    // An unknown field is refused by its name, so a typo is found where it was made.
    const typo = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: user.bearer,
      payload: { name: 'Typo', isPubic: true },
    });
    expect(typo.json().error.details.field).toBe('isPubic');
    // What the schema cannot carry is in the description: an expiry in the past, or further than a year.
    const share = resolve(
      doc,
      doc.paths['/api/workspaces/{id}/share']?.post?.requestBody?.content['application/json']
        ?.schema ?? {},
    );
    expect(resolve(doc, share.properties?.expiresAt ?? {})).toMatchObject({
      format: 'date-time',
      description: expect.stringContaining('in the future'),
    });
    const past = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${id}/share`,
      headers: user.bearer,
      payload: { expiresAt: '2020-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(400);
  });

  it('publishes the string limits the service enforces: maxLength is accepted, one more is refused', async () => {
    const { id: workspaceId } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: user.bearer,
        payload: { name: 'Limits' },
      })
    ).json<BearerReply<'WorkspaceEnvelope'>>().workspace;
    // In a workspace of its own: a citation key the create sample gave at its limit is not taken there.
    const { id: editedWorkspaceId } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: user.bearer,
        payload: { name: 'Limits of changes' },
      })
    ).json<BearerReply<'WorkspaceEnvelope'>>().workspace;
    const { id: resourceId } = (
      await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${editedWorkspaceId}/resources`,
        headers: user.bearer,
        payload: { title: 'Paper' },
      })
    ).json<BearerReply<'ResourceEnvelope'>>().resource;
    // A valid body of each sampled operation (name and title are alternatives: one is sent, not both);
    // every plain string field the document bounds is tried at its limit and past it.
    const samples: Array<{
      method: string;
      path: string;
      url: string;
      base: Record<string, unknown>;
      auth: boolean;
    }> = [
      {
        method: 'post',
        path: '/api/workspaces',
        url: '/api/workspaces',
        base: { name: 'Limits' },
        auth: true,
      },
      {
        method: 'patch',
        path: '/api/workspaces/{id}',
        url: `/api/workspaces/${workspaceId}`,
        base: { isPublic: false },
        auth: true,
      },
      { method: 'put', path: '/api/profile', url: '/api/profile', base: {}, auth: true },
      {
        method: 'post',
        path: '/api/workspaces/{id}/resources',
        url: `/api/workspaces/${workspaceId}/resources`,
        base: { title: 'Paper' },
        auth: true,
      },
      {
        method: 'patch',
        path: '/api/workspaces/{id}/resources/{resourceId}',
        url: `/api/workspaces/${editedWorkspaceId}/resources/${resourceId}`,
        base: { tags: ['limits'] },
        auth: true,
      },
      {
        method: 'post',
        path: '/api/resources/{id}/annotations',
        url: `/api/resources/${resourceId}/annotations`,
        base: { body: 'Note' },
        auth: true,
      },
      {
        method: 'post',
        path: '/api/auth/signup',
        url: '/api/auth/signup',
        base: { password: 'tidal-quasar-42' },
        auth: false,
      },
    ];
    const alternatives = new Set(['name', 'title']);
    // A resourceId is looked up through the search providers, which a test does not reach.
    const notTried = new Set(['resourceId']);
    let checked = 0;
    for (const sample of samples) {
      const schema = resolve(
        docs.default,
        docs.default.paths[sample.path]?.[sample.method]?.requestBody?.content['application/json']
          ?.schema ?? {},
      );
      // A body of alternatives (anyOf of closed objects) bounds its fields in each; the first says how.
      const properties = Object.assign(
        {},
        ...[
          ...(schema.anyOf ?? []).map((branch) => resolve(docs.default, branch)).reverse(),
          schema,
        ].map((shape) => shape.properties ?? {}),
      ) as Record<string, SchemaObject>;
      for (const [field, property] of Object.entries(properties)) {
        const inner = resolve(docs.default, property);
        const lettersAllowed = !inner.pattern || new RegExp(inner.pattern, 'u').test('aa');
        if (
          inner.type !== 'string' ||
          inner.maxLength === undefined ||
          inner.format ||
          !lettersAllowed ||
          notTried.has(field)
        )
          continue;
        const base = Object.fromEntries(
          Object.entries(sample.base).filter(
            ([key]) => !(alternatives.has(field) && alternatives.has(key)),
          ),
        );
        const tag = () => `${checked}-${Math.random().toString(36).slice(2)}`;
        // A new account each time; a new work each time (the same title twice is a likely duplicate, a 409).
        const unique = () =>
          sample.path === '/api/auth/signup'
            ? { email: `limit-${tag()}@example.org` }
            : sample.path === '/api/workspaces/{id}/resources'
              ? { title: `Paper ${tag()}` }
              : {};
        const send = (length: number) =>
          t.app.inject({
            method: sample.method.toUpperCase() as 'POST',
            url: sample.url,
            headers: sample.auth ? user.bearer : {},
            payload: { ...base, ...unique(), [field]: 'a'.repeat(length) },
          });
        const atLimit = await send(inner.maxLength);
        expect(
          atLimit.statusCode,
          `${sample.path} ${field} at ${inner.maxLength}: ${atLimit.body.slice(0, 200)}`,
        ).toBeLessThan(300);
        const past = await send(inner.maxLength + 1);
        expect(past.statusCode, `${sample.path} ${field} at ${inner.maxLength + 1}`).toBe(400);
        expect(past.json().error.details.field, `${sample.path} ${field}`).toBe(field);
        checked++;
      }
    }
    // workspace name and description (create and update), display name, bio, title, notes (create and update), type, body, name, password
    expect(checked).toBeGreaterThanOrEqual(13);
  }, 60_000);

  it('publishes minLength, required fields, minProperties, alternatives and exclusions the service enforces', async () => {
    const bodyOf = (path: string, method: string) =>
      resolve(
        docs.default,
        docs.default.paths[path]?.[method]?.requestBody?.content['application/json']?.schema ?? {},
      );
    const signup = bodyOf('/api/auth/signup', 'post');
    expect(signup.required).toEqual(expect.arrayContaining(['email', 'password']));
    const minLength = resolve(docs.default, signup.properties?.password ?? {}).minLength ?? 0;
    expect(minLength).toBeGreaterThan(0);
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'short@example.org', password: 'q'.repeat(minLength - 1) },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details.field).toBe('password');
    expect(bodyOf('/api/annotations/{id}', 'patch')).toMatchObject({ minProperties: 1 });
    expect(bodyOf('/api/workspaces/{id}', 'patch')).toMatchObject({ minProperties: 1 });
    expect(bodyOf('/api/workspaces/{id}/resources/{resourceId}', 'patch')).toMatchObject({
      minProperties: 1,
    });
    const empty = await t.app.inject({
      method: 'PATCH',
      url: '/api/workspaces/00000000-0000-4000-8000-000000000000',
      headers: user.bearer,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    // Alternatives and exclusions: a workspace is named by name or title; a share link expires in days or at a time, not both.
    expect(bodyOf('/api/workspaces', 'post')).toMatchObject({
      anyOf: [{ required: ['name'] }, { required: ['title'] }],
    });
    const unnamed = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: user.bearer,
      payload: { description: 'no name' },
    });
    expect(unnamed.statusCode).toBe(400);
    expect(bodyOf('/api/workspaces/{id}/share', 'post')).toMatchObject({
      not: { required: ['expiresInDays', 'expiresAt'] },
    });
    const { id } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: user.bearer,
        payload: { name: 'Shared' },
      })
    ).json<BearerReply<'WorkspaceEnvelope'>>().workspace;
    const both = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${id}/share`,
      headers: user.bearer,
      payload: { expiresInDays: 3, expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(both.statusCode).toBe(400);
  });
});

describe('the API reference page (GET /api/docs/)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it("carries the app's page headers on its HTML, scripts and styles: no framing by another origin, no sniffing, our scripts only", async () => {
    for (const url of [
      '/api/docs/',
      '/api/docs',
      '/api/docs/static/swagger-initializer.js',
      '/api/docs/static/swagger-ui-bundle.js',
      '/api/docs/static/swagger-ui.css',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-security-policy'], url).toBe(PAGE_CONTENT_SECURITY_POLICY);
      expect(response.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
    }
    // The headers are the reference's own: the API's JSON is not a page.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/health' })).headers['x-frame-options'],
    ).toBeUndefined();
  });
});
