/**
 * The policy, one test per action: the owner may, another user is told the object does not exist —
 * the same 404 body as for an id that names nothing — and the object is left as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { addResource, annotate, createWorkspace, UNKNOWN_ID } from './test-support/helpers.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface Fixture {
  workspaceId: string;
  resourceId: string;
  annotationId: string;
}

interface ActionCase {
  action: string;
  what: 'Workspace' | 'Resource' | 'Annotation';
  method: Method;
  url: (f: Fixture) => string;
  payload?: Record<string, unknown>;
  ownerStatus: number;
  /** Reads the object back as its owner: it must be unchanged after the other user's attempt. */
  check: (f: Fixture) => string;
}

const CASES: ActionCase[] = [
  { action: 'workspace read', what: 'Workspace', method: 'GET', url: (f) => `/api/workspaces/${f.workspaceId}`, ownerStatus: 200, check: (f) => `/api/workspaces/${f.workspaceId}` },
  {
    action: 'workspace update',
    what: 'Workspace',
    method: 'PATCH',
    url: (f) => `/api/workspaces/${f.workspaceId}`,
    payload: { name: 'Renamed' },
    ownerStatus: 200,
    check: (f) => `/api/workspaces/${f.workspaceId}`,
  },
  { action: 'workspace delete', what: 'Workspace', method: 'DELETE', url: (f) => `/api/workspaces/${f.workspaceId}`, ownerStatus: 200, check: (f) => `/api/workspaces/${f.workspaceId}` },
  {
    action: 'workspace share',
    what: 'Workspace',
    method: 'POST',
    url: (f) => `/api/workspaces/${f.workspaceId}/share`,
    payload: {},
    ownerStatus: 201,
    check: (f) => `/api/workspaces/${f.workspaceId}/share`,
  },
  { action: 'workspace export', what: 'Workspace', method: 'GET', url: (f) => `/api/workspaces/${f.workspaceId}/export`, ownerStatus: 200, check: (f) => `/api/workspaces/${f.workspaceId}` },
  { action: 'resource read', what: 'Resource', method: 'GET', url: (f) => `/api/resources/${f.resourceId}/annotations`, ownerStatus: 200, check: (f) => `/api/resources/${f.resourceId}/annotations` },
  {
    action: 'resource annotate',
    what: 'Resource',
    method: 'POST',
    url: (f) => `/api/resources/${f.resourceId}/annotations`,
    payload: { body: 'a note' },
    ownerStatus: 201,
    check: (f) => `/api/resources/${f.resourceId}/annotations`,
  },
  {
    // The workspace in the URL is checked first: another user is refused at it, as for an unknown one.
    action: 'resource update',
    what: 'Workspace',
    method: 'PATCH',
    url: (f) => `/api/workspaces/${f.workspaceId}/resources/${f.resourceId}`,
    payload: { notes: 'changed', tags: ['changed'] },
    ownerStatus: 200,
    check: (f) => `/api/workspaces/${f.workspaceId}`,
  },
  {
    action: 'resource delete',
    what: 'Workspace',
    method: 'DELETE',
    url: (f) => `/api/workspaces/${f.workspaceId}/resources/${f.resourceId}`,
    ownerStatus: 200,
    check: (f) => `/api/workspaces/${f.workspaceId}`,
  },
  {
    action: 'annotation update',
    what: 'Annotation',
    method: 'PATCH',
    url: (f) => `/api/annotations/${f.annotationId}`,
    payload: { body: 'changed' },
    ownerStatus: 200,
    check: (f) => `/api/resources/${f.resourceId}/annotations`,
  },
  { action: 'annotation delete', what: 'Annotation', method: 'DELETE', url: (f) => `/api/annotations/${f.annotationId}`, ownerStatus: 200, check: (f) => `/api/resources/${f.resourceId}/annotations` },
];

const unknown: Fixture = { workspaceId: UNKNOWN_ID, resourceId: UNKNOWN_ID, annotationId: UNKNOWN_ID };

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`workspace policy (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
    });
    afterAll(async () => t?.close());

    async function fixture(): Promise<Fixture> {
      const workspace = await createWorkspace(t.app, owner, { name: 'Private reading' });
      const resource = await addResource(t.app, owner, workspace.id, { title: 'Private paper' });
      const annotation = await annotate(t.app, owner, resource.id, { body: 'private note' });
      return { workspaceId: workspace.id, resourceId: resource.id, annotationId: annotation.id };
    }

    it.each(CASES)('$action: another user gets the 404 of an unknown id and changes nothing; the owner may', async (c) => {
      const f = await fixture();
      const before = await t.app.inject({ method: 'GET', url: c.check(f), headers: owner.bearer });
      expect(before.statusCode).toBe(200);

      const refused = await t.app.inject({ method: c.method, url: c.url(f), headers: stranger.bearer, ...(c.payload ? { payload: c.payload } : {}) });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ error: { code: 'NOT_FOUND', message: `${c.what} not found` } });
      const missing = await t.app.inject({ method: c.method, url: c.url(unknown), headers: owner.bearer, ...(c.payload ? { payload: c.payload } : {}) });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual(refused.json());

      const after = await t.app.inject({ method: 'GET', url: c.check(f), headers: owner.bearer });
      expect(after.json()).toEqual(before.json());

      const allowed = await t.app.inject({ method: c.method, url: c.url(f), headers: owner.bearer, ...(c.payload ? { payload: c.payload } : {}) });
      expect(allowed.statusCode).toBe(c.ownerStatus);
    });
  });
}
