import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { annotate, addResource, createWorkspace } from '../workspaces/test-support/helpers.js';
import { jsonNestingExceeds, pathOfNul } from './request-input.js';

describe('jsonNestingExceeds', () => {
  it('counts brackets outside strings only', () => {
    expect(jsonNestingExceeds('[[[1]]]', 3)).toBe(false);
    expect(jsonNestingExceeds('[[[[1]]]]', 3)).toBe(true);
    expect(jsonNestingExceeds('{"a":"[[[[[[\\"[[[["}', 1)).toBe(false);
  });
});

describe('pathOfNul', () => {
  it('names the first string or key holding U+0000', () => {
    expect(pathOfNul({ a: [{ b: 'x' }, { c: 'y\0' }] })).toEqual(['a', '1', 'c']);
    expect(pathOfNul({ ['k\0']: 1 })).toEqual(['k\\u0000']);
    expect(pathOfNul({ a: 'fine', n: 3 })).toBeNull();
  });
});

const json = { 'content-type': 'application/json' };

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`request input (${leg.name})`, () => {
    let t: TestApp;
    let user: TestUser;
    let workspaceId: string;
    let resourceId: string;
    let annotationId: string;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
      user = await buildUser(t.app);
      workspaceId = (await createWorkspace(t.app, user)).id;
      resourceId = (await addResource(t.app, user, workspaceId, { title: 'A paper' })).id;
      annotationId = (await annotate(t.app, user, resourceId, { body: 'first thought' })).id;
    });
    afterAll(async () => t?.close());

    describe('U+0000 in a text field', () => {
      const cases: Array<
        [
          string,
          () => {
            method: 'POST' | 'PUT' | 'PATCH';
            url: string;
            payload: Record<string, unknown>;
            auth: boolean;
          },
          string,
        ]
      > = [
        [
          'sign-up name',
          () => ({
            method: 'POST',
            url: '/api/auth/signup',
            payload: {
              email: 'nul-user@example.org',
              password: 'tidal-quasar-42',
              name: 'Ada\u0000',
            },
            auth: false,
          }),
          'name',
        ],
        [
          'profile bio',
          () => ({ method: 'PUT', url: '/api/profile', payload: { bio: 'x\u0000y' }, auth: true }),
          'bio',
        ],
        [
          'workspace name',
          () => ({
            method: 'POST',
            url: '/api/workspaces',
            payload: { name: '\u0000' },
            auth: true,
          }),
          'name',
        ],
        [
          'workspace description',
          () => ({
            method: 'PATCH',
            url: `/api/workspaces/${workspaceId}`,
            payload: { description: 'a\u0000' },
            auth: true,
          }),
          'description',
        ],
        [
          'resource notes',
          () => ({
            method: 'POST',
            url: `/api/workspaces/${workspaceId}/resources`,
            payload: { title: 'T', notes: 'n\u0000' },
            auth: true,
          }),
          'notes',
        ],
        [
          'resource data, nested',
          () => ({
            method: 'POST',
            url: `/api/workspaces/${workspaceId}/resources`,
            payload: { title: 'T', data: { venue: ['ok', 'bad\u0000'] } },
            auth: true,
          }),
          'data.venue.1',
        ],
        [
          'annotation body',
          () => ({
            method: 'PATCH',
            url: `/api/annotations/${annotationId}`,
            payload: { body: 'b\u0000' },
            auth: true,
          }),
          'body',
        ],
      ];
      it.each(cases)('%s → 400 naming the field', async (_name, request, field) => {
        const { method, url, payload, auth } = request();
        const res = await t.app.inject({ method, url, payload, headers: auth ? user.bearer : {} });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: { field, reason: 'contains_nul' },
        });
      });

      it('in a query parameter → 400 naming it', async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/workspaces?limit=1%00',
          headers: user.bearer,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details).toMatchObject({ field: 'limit', reason: 'contains_nul' });
      });

      it('in a parameter of the summary stream → its error event, naming it', async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/summarize?title=a%00b&abstract=Some%20text',
        });
        expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
        expect(res.body).toMatch(/^event: error$/m);
        const data = JSON.parse(/^data: (.*)$/m.exec(res.body)![1]!) as {
          message: string;
          code: string;
        };
        expect(data).toEqual({
          code: 'VALIDATION_ERROR',
          message: 'title must not contain U+0000',
        });
      });

      it('leaves the account unmade (nothing reached the database)', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { email: 'nul-user@example.org', password: 'tidal-quasar-42' },
        });
        expect(res.statusCode).toBe(401);
      });
    });

    describe('deeply nested JSON', () => {
      it('5,000 levels → 400 before anything recurses', async () => {
        const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${workspaceId}/resources`,
          headers: { ...user.bearer, ...json },
          payload: `{"title":"T","data":{"a":${deep}}}`,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: { field: 'body', reason: 'too_deep' },
        });
      });

      it('a few levels are still accepted', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${workspaceId}/resources`,
          headers: user.bearer,
          payload: { title: 'Nested', data: { a: [[[{ b: [1] }]]] } },
        });
        expect(res.statusCode).toBe(201);
      });
    });

    describe('empty bodies of POSTs whose fields are all optional', () => {
      it.each([
        ['no body, no content type', {}],
        ['an empty JSON body', { headers: json, payload: '' }],
      ])('POST /api/workspaces/{id}/share with %s → 201', async (_name, extra) => {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${workspaceId}/share`,
          ...extra,
          headers: { ...user.bearer, ...('headers' in extra ? extra.headers : {}) },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({ readOnly: true, active: true });
      });

      it('POST /api/auth/refresh with the refresh cookie and an empty body → 200', async () => {
        const fresh = await buildUser(t.app);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/refresh',
          headers: { ...fresh.cookieHeaders, ...json },
          payload: '',
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().user.id).toBe(fresh.id);
      });

      it('a route with required fields names them', async () => {
        const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup' });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.field).toBe('email');
      });
    });

    describe('validation errors', () => {
      it('list every failing field, the first also as field/reason', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${workspaceId}/resources`,
          headers: user.bearer,
          payload: { title: 'x'.repeat(301), url: 'ftp://nope', tags: 'not-a-list' },
        });
        expect(res.statusCode).toBe(400);
        const details = res.json().error.details as {
          field: string;
          reason: string;
          fields: Array<{ field: string; reason: string }>;
        };
        expect(details.fields.map((problem) => problem.field).sort()).toEqual([
          'tags',
          'title',
          'url',
        ]);
        expect(details.fields[0]).toEqual({ field: details.field, reason: details.reason });
      });
    });
  });
}

describe('CORS preflight', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('from another origin → 403 in the envelope, without CORS headers', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/workspaces',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'AUTHORIZATION_ERROR',
      details: { field: 'origin', reason: 'not_allowed' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("from the app's origin → 204 with CORS headers", async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/workspaces',
      headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://app.test');
  });
});
