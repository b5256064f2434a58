/**
 * The authorization matrix, generated from the policy table: every workspace-scoped route (as the
 * app registers it) × {owner, editor, viewer, non-member, signed out} × {bearer, cookie}. The expected
 * status comes from POLICY and ROUTE_ACTIONS (policy.ts), the actual one from a real request; a route
 * added without an entry in ROUTE_ACTIONS fails the first test. A refusal changes nothing; an allowed
 * change runs on a fresh workspace of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema, BearerReply } from '../../test/support/api-types.js';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { eq } from 'drizzle-orm';
import { asc } from 'drizzle-orm';
import { shareLinks, workspaceEvents, workspaceMembers } from '../platform/db/schema.js';
import type { AddressInfo } from 'node:net';
import { linkIn, mailWrittenBy } from '../../test/support/outbox.js';
import { openSse } from '../../test/support/sse-client.js';
import {
  allows,
  BODY_ACTIONS,
  POLICY,
  roleMay,
  ROUTE_ACTIONS,
  SECRETS,
  type Role,
  type Rule,
} from './policy.js';
import { addResource, annotate, createWorkspace, pdfMultipart } from './test-support/helpers.js';

/** A route, or a route with a body asking for more (BODY_ACTIONS): `METHOD path (what in the body)`. */
type RouteKey = keyof typeof ROUTE_ACTIONS | keyof typeof BODY_ACTIONS;
const ACTIONS = { ...ROUTE_ACTIONS, ...BODY_ACTIONS };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Fixture {
  workspaceId: string;
  resourceId: string;
  /** Another resource of the workspace (a copy of the first), for a merge. */
  copyId: string;
  annotationId: string;
  shareId: string;
  pausedShareId: string;
  invitationId: string;
  /** A viewer other than the ones asking: the one whose role is changed, or who is removed. */
  extraId: string;
  /** A workspace the asker owns, for a bulk move's target. */
  targetOf: (user: TestUser | null) => Promise<string>;
  /** A feed of the workspace the asker made (a made-up id when they may not make one). */
  feedOf: (user: TestUser | null) => Promise<string>;
}

interface MatrixRequest {
  url: string;
  /** An event stream: answered as soon as its headers are sent, then closed. */
  stream?: true;
  payload?: unknown;
  headers?: Record<string, string>;
  /** What an allowed request answers. */
  success: number;
}

const PDF = Buffer.from('%PDF-1.4\n% matrix test\n%%EOF\n', 'latin1');

/** One valid request per route and body variant: one missing here does not compile (the record is total over both tables). */
const REQUESTS: Record<
  RouteKey,
  (f: Fixture, asker: TestUser | null) => Promise<MatrixRequest> | MatrixRequest
> = {
  'GET /api/workspaces/:id': (f) => ({ url: `/api/workspaces/${f.workspaceId}`, success: 200 }),
  'PATCH /api/workspaces/:id': (f) => ({
    url: `/api/workspaces/${f.workspaceId}`,
    payload: { name: 'Renamed' },
    success: 200,
  }),
  'DELETE /api/workspaces/:id': (f) => ({ url: `/api/workspaces/${f.workspaceId}`, success: 200 }),
  'GET /api/workspaces/:id/resources': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/resources`,
    success: 200,
  }),
  'POST /api/workspaces/:id/resources': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/resources`,
    payload: { title: 'Another paper' },
    success: 201,
  }),
  'POST /api/workspaces/:id/resources/bulk/tag': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/resources/bulk/tag`,
    payload: { resourceIds: [f.resourceId], add: ['read'] },
    success: 200,
  }),
  'POST /api/workspaces/:id/resources/bulk/move': async (f, asker) => ({
    url: `/api/workspaces/${f.workspaceId}/resources/bulk/move`,
    payload: { resourceIds: [f.resourceId], targetWorkspaceId: await f.targetOf(asker) },
    success: 200,
  }),
  'POST /api/workspaces/:id/resources/bulk/remove': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/resources/bulk/remove`,
    payload: { resourceIds: [f.resourceId] },
    success: 200,
  }),
  'PATCH /api/workspaces/:id/resources/:resourceId': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/resources/${f.resourceId}`,
    payload: { notes: 'changed' },
    success: 200,
  }),
  // The fixture's resource has no DOI, arXiv id or PMID: an allowed asker gets as far as the 409
  // that says so, and no provider is asked.
  'GET /api/workspaces/:id/resources/:resourceId/refresh': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/resources/${f.resourceId}/refresh`,
    success: 409,
  }),
  'POST /api/workspaces/:id/resources/:resourceId/notes': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/resources/${f.resourceId}/notes`,
    payload: { text: 'Appended' },
    success: 200,
  }),
  'DELETE /api/workspaces/:id/resources/:resourceId': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/resources/${f.resourceId}`,
    success: 200,
  }),
  'PUT /api/workspaces/:id/resources/:resourceId/pdf': (f) => {
    const upload = pdfMultipart('paper.pdf', PDF);
    return {
      url: `/api/workspaces/${f.workspaceId}/resources/${f.resourceId}/pdf`,
      payload: upload.payload,
      headers: upload.headers,
      success: 200,
    };
  },
  'GET /api/workspaces/:id/resources/:resourceId/pdf': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/resources/${f.resourceId}/pdf`,
    success: 200,
  }),
  'DELETE /api/workspaces/:id/resources/:resourceId/pdf': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/resources/${f.resourceId}/pdf`,
    success: 200,
  }),
  'GET /api/workspaces/:id/duplicates': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/duplicates`,
    success: 200,
  }),
  'POST /api/workspaces/:id/duplicates/merge': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/duplicates/merge`,
    payload: { keep: f.resourceId, merge: [f.copyId] },
    success: 200,
  }),
  'GET /api/workspaces/:id/export': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/export`,
    success: 200,
  }),
  'GET /api/workspaces/:id/cite': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/cite?resourceIds=${f.resourceId}&style=apa`,
    success: 200,
  }),
  // The fixture's resource has no identifier a provider knows: suggestions ask no provider.
  'GET /api/workspaces/:id/suggestions': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/suggestions`,
    success: 200,
  }),
  'POST /api/workspaces/:id/import': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/import`,
    payload: '@article{matrix, title={Imported in the matrix}, year={2020}}\n',
    headers: { 'content-type': 'application/x-bibtex' },
    success: 200,
  }),
  'GET /api/workspaces/:id/share': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/share`,
    success: 200,
  }),
  'POST /api/workspaces/:id/share': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/share`,
    payload: {},
    success: 201,
  }),
  'POST /api/workspaces/:id/share (readOnly: false)': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/share`,
    payload: { readOnly: false },
    success: 201,
  }),
  'POST /api/workspaces/:id/share (allowJoin: true)': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/share`,
    payload: { allowJoin: true },
    success: 201,
  }),
  'PATCH /api/workspaces/:id/share/:shareId': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/share/${f.shareId}`,
    payload: { allowJoin: true },
    success: 200,
  }),
  'DELETE /api/workspaces/:id/share/:shareId': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/share/${f.shareId}`,
    success: 200,
  }),
  'POST /api/workspaces/:id/share/:shareId/resume': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/share/${f.pausedShareId}/resume`,
    success: 200,
  }),
  'POST /api/workspaces/:id/feeds': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/feeds`,
    payload: { format: 'bibtex' },
    success: 201,
  }),
  'GET /api/workspaces/:id/feeds': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/feeds`,
    success: 200,
  }),
  'DELETE /api/workspaces/:id/feeds/:feedId': async (f, asker) => ({
    url: `/api/workspaces/${f.workspaceId}/feeds/${await f.feedOf(asker)}`,
    success: 200,
  }),
  'GET /api/workspaces/:id/members': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/members`,
    success: 200,
  }),
  'POST /api/workspaces/:id/members': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/members`,
    payload: { email: joinerEmail, role: 'viewer' },
    success: 201,
  }),
  'PATCH /api/workspaces/:id/members/:userId': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/members/${f.extraId}`,
    payload: { role: 'editor' },
    success: 200,
  }),
  'DELETE /api/workspaces/:id/members/:userId': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/members/${f.extraId}`,
    success: 200,
  }),
  'GET /api/workspaces/:id/invitations': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/invitations`,
    success: 200,
  }),
  'POST /api/workspaces/:id/invitations': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/invitations`,
    payload: { email: 'matrix-invitee@example.org', role: 'viewer' },
    success: 201,
  }),
  'DELETE /api/workspaces/:id/invitations/:invitationId': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/invitations/${f.invitationId}`,
    success: 200,
  }),
  'GET /api/workspaces/:id/events': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/events`,
    stream: true,
    success: 200,
  }),
  'GET /api/workspaces/:id/activity': (f) => ({
    url: `/api/workspaces/${f.workspaceId}/activity`,
    success: 200,
  }),
  'GET /api/resources/:id/annotations': (f) => ({
    url: `/api/resources/${f.resourceId}/annotations`,
    success: 200,
  }),
  'POST /api/resources/:id/annotations': (f) => ({
    url: `/api/resources/${f.resourceId}/annotations`,
    payload: { body: 'my reading' },
    success: 201,
  }),
  'PATCH /api/annotations/:id': (f) => ({
    url: `/api/annotations/${f.annotationId}`,
    payload: { body: 'changed' },
    success: 200,
  }),
  'DELETE /api/annotations/:id': (f) => ({
    url: `/api/annotations/${f.annotationId}`,
    success: 200,
  }),
};

let joinerEmail = '';

/** Workspace-scoped: a workspace, resource or annotation named by id in the path. */
const SCOPED = /^\/api\/(workspaces\/:id(\/|$)|resources\/:id\/|annotations\/:id$)/;

type Asker = Role | 'non-member' | 'signed out';
const ASKERS: Asker[] = ['owner', 'editor', 'viewer', 'non-member', 'signed out'];
const AUTHS = ['bearer', 'cookie'] as const;

/** The status the table predicts (the fixture's annotation is written by the owner). */
function expectedStatus(key: RouteKey, asker: Asker, success: number): number {
  if (asker === 'signed out') return 401;
  if (asker === 'non-member') return 404;
  const [kind, action] = ACTIONS[key];
  const rule: Rule = (POLICY[kind] as Record<string, Rule>)[action]!;
  return allows(rule, asker, kind === 'annotation' && asker === 'owner') ? success : 403;
}

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`authorization matrix (${leg.name})`, () => {
    let t: TestApp;
    const registered: string[] = [];
    let users: Record<Role | 'non-member', TestUser>;
    let extra: TestUser;
    let joiner: TestUser;
    let shared: Fixture;
    const targets = new Map<string, string>();

    beforeAll(async () => {
      t = await buildTestApp({
        leg,
        env: {
          RATE_LIMIT_INVITATIONS_PER_HOUR: '100000',
          RATE_LIMIT_AUTHENTICATED_PER_HOUR: '100000',
        },
        build: {
          onRoute(route) {
            for (const method of [route.method].flat())
              if (method !== 'HEAD' && SCOPED.test(route.url))
                registered.push(`${method} ${route.url}`);
          },
        },
      });
      const [owner, editor, viewer, stranger] = await Promise.all([
        buildUser(t.app),
        buildUser(t.app),
        buildUser(t.app),
        buildUser(t.app),
      ]);
      [extra, joiner] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
      joinerEmail = joiner.email;
      users = { owner: owner, editor: editor, viewer: viewer, 'non-member': stranger };
      shared = await fixture();
    });
    afterAll(async () => t?.close());

    /**
     * A workspace of the owner's with an editor, two viewers and a resource with an annotation; with a
     * PDF, share links (one paused) and a pending invitation when `route` (or, without one, everything) needs them.
     */
    async function fixture(route?: RouteKey): Promise<Fixture> {
      const owner = users.owner;
      const needs = (part: string) => route === undefined || route.includes(part);
      const workspace = await createWorkspace(t.app, owner, { name: 'Lab reading list' });
      const resource = await addResource(t.app, owner, workspace.id, { title: 'Shared paper' });
      const annotation = await annotate(t.app, owner, resource.id, { body: "the owner's note" });
      const copy = needs('/duplicates')
        ? await addResource(t.app, owner, workspace.id, { title: 'Shared paper (copy)' })
        : null;
      await t.app.ctx.db.insert(workspaceMembers).values(
        (
          [
            [users.editor, 'editor'],
            [users.viewer, 'viewer'],
            [extra, 'viewer'],
          ] as const
        ).map(([member, role]) => ({
          workspaceId: workspace.id,
          userId: member.id,
          role,
          addedBy: owner.id,
        })),
      );
      if (needs('/pdf')) {
        const upload = pdfMultipart('paper.pdf', PDF);
        const pdf = await t.app.inject({
          method: 'PUT',
          url: `/api/workspaces/${workspace.id}/resources/${resource.id}/pdf`,
          headers: { ...owner.bearer, ...upload.headers },
          payload: upload.payload,
        });
        expect(pdf.statusCode).toBe(200);
      }
      const [share, paused] = needs('/share')
        ? await Promise.all(
            [0, 1].map(() =>
              t.app
                .inject({
                  method: 'POST',
                  url: `/api/workspaces/${workspace.id}/share`,
                  headers: owner.bearer,
                  payload: {},
                })
                .then((res) => res.json<ApiSchema<'ShareLink'>>().id),
            ),
          )
        : ['', ''];
      if (paused)
        await t.app.ctx.db
          .update(shareLinks)
          .set({ pausedAt: new Date() })
          .where(eq(shareLinks.id, paused));
      const invitation = needs('/invitations')
        ? await t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${workspace.id}/invitations`,
            headers: owner.bearer,
            payload: { email: 'pending@example.org', role: 'editor' },
          })
        : null;
      if (invitation) expect(invitation.statusCode).toBe(201);
      return {
        workspaceId: workspace.id,
        resourceId: resource.id,
        copyId: copy?.id ?? '',
        annotationId: annotation.id,
        shareId: share!,
        pausedShareId: paused!,
        invitationId: invitation?.json<ApiSchema<'InvitationEnvelope'>>().invitation.id ?? '',
        extraId: extra.id,
        async feedOf(asker) {
          const made = asker
            ? await t.app.inject({
                method: 'POST',
                url: `/api/workspaces/${workspace.id}/feeds`,
                headers: asker.bearer,
                payload: {},
              })
            : null;
          return made?.statusCode === 201
            ? made.json<ApiSchema<'FeedCreated'>>().id
            : '00000000-0000-4000-8000-000000000000';
        },
        async targetOf(asker) {
          if (!asker) return workspace.id;
          const known = targets.get(asker.id);
          if (known) return known;
          const target = (await createWorkspace(t.app, asker, { name: 'Elsewhere' })).id;
          targets.set(asker.id, target);
          return target;
        },
      };
    }

    it('every workspace-scoped route the app registers has its action in the policy table, and no entry names a route that does not exist', () => {
      expect(registered.length).toBeGreaterThan(20);
      expect([...registered].sort()).toEqual(Object.keys(ROUTE_ACTIONS).sort());
    });

    const cases = (Object.keys(ACTIONS) as RouteKey[]).flatMap((key) =>
      ASKERS.flatMap((asker) => AUTHS.map((auth) => ({ key, asker, auth }))),
    );

    it.each(cases)('$key as $asker ($auth)', async ({ key, asker, auth }) => {
      const [method, path] = key.split(' ') as [Method, string];
      const user = asker === 'signed out' ? null : users[asker];
      const probe = await REQUESTS[key](shared, user);
      const expected = expectedStatus(key, asker, probe.success);
      const changes = method !== 'GET';
      // An allowed change runs on a fresh workspace, so that it leaves the shared one as it was.
      const f = expected === probe.success && changes ? await fixture(key) : shared;
      const request = f === shared ? probe : await REQUESTS[key](f, user);
      const authHeaders = user ? (auth === 'bearer' ? user.bearer : user.cookieHeaders) : {};
      const res = await t.app.inject({
        method,
        url: request.url,
        headers: { ...authHeaders, ...request.headers },
        ...(request.payload === undefined ? {} : { payload: request.payload as string }),
        // A stream that opens never ends by itself: its headers are the answer.
        ...(request.stream && expected === request.success ? { payloadAsStream: true } : {}),
      });
      if (request.stream && expected === request.success) {
        res.stream().destroy();
        res.raw.res.destroy();
        expect(res.statusCode).toBe(expected);
        expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        return;
      }
      expect(res.statusCode, `${method} ${path}: ${res.body.slice(0, 300)}`).toBe(expected);
      if (expected === 403) {
        const [kind, action] = ACTIONS[key];
        const rule: Rule = (POLICY[kind] as Record<string, Rule>)[action]!;
        expect(res.json()).toEqual({
          error: {
            code: 'AUTHORIZATION_ERROR',
            message: expect.stringContaining(
              rule.least ? `needs the ${rule.least} role` : 'Only its author',
            ),
          },
        });
      }
      if (expected === 404) expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    });

    it('nothing the refused requests asked for happened to the shared workspace', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${shared.workspaceId}`,
        headers: users.owner.bearer,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<BearerReply<'WorkspaceDetailEnvelope'>>();
      expect(body.workspace.name).toBe('Lab reading list');
      expect(
        body.resources.map((r) => [r.id, r.notes, r.tags, r.annotations.map((a) => a.body)]),
        // Newest first: the copy a refused merge would have removed, then the annotated resource.
      ).toEqual([
        [shared.copyId, '', [], []],
        [shared.resourceId, '', [], ["the owner's note"]],
      ]);
      const members = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${shared.workspaceId}/members`,
        headers: users.owner.bearer,
      });
      // Added in one statement, the three share a joining time: compared as a set.
      const byId = (a: string[], b: string[]) => a[0]!.localeCompare(b[0]!);
      expect(
        members
          .json<ApiSchema<'MemberList'>>()
          .members.map((m) => [m.userId, m.role])
          .sort(byId),
      ).toEqual(
        [
          [users.owner.id, 'owner'],
          [users.editor.id, 'editor'],
          [users.viewer.id, 'viewer'],
          [extra.id, 'viewer'],
        ].sort(byId),
      );
    });

    /**
     * Every secret of a workspace (SECRETS) × every kind of asker, on purpose (issue 33: "a token a role
     * could read that undid an owner's decision"): the owner, an editor, a viewer, an editor the owner
     * demoted to viewer, an editor the owner removed, a stranger and a signed-out visitor each ask every
     * workspace-scoped GET route (REQUESTS) and the live events from the start of the log; a secret is
     * in their answers exactly when the table lets their role read it.
     */
    describe('secrets by role', () => {
      type SecretAsker = Role | 'demoted' | 'removed' | 'non-member' | 'signed out';
      const SECRET_ASKERS: SecretAsker[] = [
        'owner',
        'editor',
        'viewer',
        'demoted',
        'removed',
        'non-member',
        'signed out',
      ];
      /** The role each asker holds now (null: none). */
      const roleOf: Record<SecretAsker, Role | null> = {
        owner: 'owner',
        editor: 'editor',
        viewer: 'viewer',
        demoted: 'viewer',
        removed: null,
        'non-member': null,
        'signed out': null,
      };
      const SECRET_PDF = Buffer.from('%PDF-1.4\n% secret-pdf-bytes-0413\n%%EOF\n', 'latin1');
      let base = '';
      let askers: Record<Exclude<SecretAsker, 'signed out'>, TestUser>;
      let f: Fixture;
      let secretValues: Record<keyof typeof SECRETS, string[]>;
      let links: { editable: string; joinable: string; plain: string };
      let invitedBefore = '';
      /** The workspace's first logged change, and how many came after it (the stream replays those). */
      let firstEventId = 0;
      let laterEvents = 0;

      const api = (
        user: TestUser | null,
        method: Method,
        url: string,
        payload?: Record<string, unknown>,
      ) =>
        t.app.inject({
          method,
          url,
          headers: user ? user.bearer : {},
          ...(payload ? { payload } : {}),
        });

      async function invitationToken(workspaceId: string, email: string): Promise<string> {
        const mail = await mailWrittenBy(t.dataDir, async () => {
          const res = await api(users.owner, 'POST', `/api/workspaces/${workspaceId}/invitations`, {
            email,
            role: 'editor',
          });
          expect(res.statusCode, res.body).toBe(201);
        });
        return linkIn(mail, /http:\/\/app\.test\/invitations\/[A-Za-z0-9_-]+/)
          .split('/')
          .pop()!;
      }

      beforeAll(async () => {
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
        const [demoted, removed, stranger] = await Promise.all([
          buildUser(t.app),
          buildUser(t.app),
          buildUser(t.app),
        ]);
        askers = {
          owner: users.owner,
          editor: users.editor,
          viewer: users.viewer,
          demoted,
          removed,
          'non-member': stranger,
        };
        const owner = users.owner;
        const workspace = await createWorkspace(t.app, owner, { name: 'Secrets' });
        const ws = workspace.id;
        const resource = await addResource(t.app, owner, ws, { title: 'A private paper' });
        const annotation = await annotate(t.app, owner, resource.id, { body: 'a note' });
        const upload = pdfMultipart('private.pdf', SECRET_PDF);
        expect(
          (
            await t.app.inject({
              method: 'PUT',
              url: `/api/workspaces/${ws}/resources/${resource.id}/pdf`,
              headers: { ...owner.bearer, ...upload.headers },
              payload: upload.payload,
            })
          ).statusCode,
        ).toBe(200);
        // An invitation the removed editor holds from before their removal (sent, then they were added directly).
        invitedBefore = await invitationToken(ws, removed.email);
        // Everyone added by the owner; then one editor demoted, another removed, as the owner decided.
        for (const [member, role] of [
          [users.editor, 'editor'],
          [users.viewer, 'viewer'],
          [demoted, 'editor'],
          [removed, 'editor'],
        ] as const) {
          const res = await api(owner, 'POST', `/api/workspaces/${ws}/members`, {
            email: member.email,
            role,
          });
          expect(res.statusCode, res.body).toBe(201);
        }
        const pending = await invitationToken(ws, 'secrets-invitee@example.org');
        expect(
          (
            await api(owner, 'PATCH', `/api/workspaces/${ws}/members/${demoted.id}`, {
              role: 'viewer',
            })
          ).statusCode,
        ).toBe(200);
        expect(
          (await api(owner, 'DELETE', `/api/workspaces/${ws}/members/${removed.id}`)).statusCode,
        ).toBe(200);
        const share = async (by: TestUser, payload: Record<string, unknown>) => {
          const res = await api(by, 'POST', `/api/workspaces/${ws}/share`, payload);
          expect(res.statusCode, res.body).toBe(201);
          // A link just made carries its token (null only after the service secret changed).
          const link = res.json<ApiSchema<'ShareLink'>>();
          expect(link.token).toEqual(expect.any(String));
          return { ...link, token: link.token! };
        };
        const editable = await share(owner, { readOnly: false });
        const joinable = await share(owner, { allowJoin: true });
        const plain = await share(users.editor, {});
        links = { editable: editable.token, joinable: joinable.token, plain: plain.token };
        // Every member's feed, and the removed editor's made before their removal (gone with it).
        const feedSecret = async (by: TestUser) => {
          const res = await api(by, 'POST', `/api/workspaces/${ws}/feeds`, { format: 'bibtex' });
          expect(res.statusCode, res.body).toBe(201);
          return /\/api\/feeds\/([^./]+)\./.exec(res.json<ApiSchema<'FeedCreated'>>().url)![1]!;
        };
        const feeds = [
          await feedSecret(owner),
          await feedSecret(users.editor),
          await feedSecret(users.viewer),
          await feedSecret(demoted),
        ];
        secretValues = {
          editableShareTokens: [editable.token],
          readOnlyShareTokens: [joinable.token, plain.token],
          invitationTokens: [invitedBefore, pending],
          memberEmails: [owner, users.editor, users.viewer, demoted].map((user) => user.email),
          pdfDownloads: ['secret-pdf-bytes-0413'],
          feedSecrets: feeds,
        };
        f = {
          workspaceId: ws,
          resourceId: resource.id,
          copyId: '',
          annotationId: annotation.id,
          shareId: plain.id,
          pausedShareId: plain.id,
          invitationId: '',
          extraId: demoted.id,
          targetOf: async () => ws,
          feedOf: async () => '00000000-0000-4000-8000-000000000000',
        };
        const logged = await t.app.ctx.db
          .select({ id: workspaceEvents.id })
          .from(workspaceEvents)
          .where(eq(workspaceEvents.workspaceId, ws))
          .orderBy(asc(workspaceEvents.id));
        firstEventId = logged[0]!.id;
        laterEvents = logged.length - 1;
        expect(laterEvents).toBeGreaterThan(5);
      });

      /** Everything `asker` reads: every workspace-scoped GET route, and the live events from the log's start. */
      async function everythingReadBy(asker: SecretAsker): Promise<string> {
        const user = asker === 'signed out' ? null : askers[asker];
        const answers: string[] = [];
        for (const key of Object.keys(ROUTE_ACTIONS) as (keyof typeof ROUTE_ACTIONS)[]) {
          if (!key.startsWith('GET ')) continue;
          const request = await REQUESTS[key](f, user);
          if (request.stream) {
            const sse = await openSse(`${base}${request.url}`, {
              ...(user ? user.bearer : {}),
              'last-event-id': String(firstEventId),
            });
            try {
              if (sse.status === 200)
                await sse.waitFor(laterEvents, (event) => event.event === 'change');
              answers.push(sse.text());
            } finally {
              sse.close();
            }
            continue;
          }
          const res = await t.app.inject({
            method: 'GET',
            url: request.url,
            headers: user ? user.bearer : {},
          });
          answers.push(res.body);
        }
        return answers.join('\n');
      }

      it.each(SECRET_ASKERS)(
        'as %s: each secret is in the answers exactly when the policy table allows',
        async (asker) => {
          const read = await everythingReadBy(asker);
          const role = roleOf[asker];
          const own = asker === 'signed out' ? null : askers[asker].email;
          const seen: Record<string, boolean> = {};
          const expected: Record<string, boolean> = {};
          for (const [secret, guard] of Object.entries(SECRETS)) {
            const values = secretValues[secret as keyof typeof SECRETS].filter(
              (value) => value !== own,
            );
            seen[secret] = values.some((value) => read.includes(value));
            // Each value of a secret goes together: some of them but not all is a leak too.
            if (seen[secret])
              expect(
                values.every((value) => read.includes(value)),
                secret,
              ).toBe(true);
            expected[secret] =
              guard !== null && role !== null && roleMay(role, guard[0], guard[1] as never);
          }
          expect(seen).toEqual(expected);
        },
      );

      it("no share link undoes the owner's decisions: the removed stay out until invited again, the demoted come back no higher", async () => {
        const join = (user: TestUser, token: string) =>
          api(user, 'POST', `/api/share/${token}/join`);
        const { removed, demoted } = askers;
        const stranger = askers['non-member'];
        for (const token of [links.editable, links.joinable]) {
          const refused = await join(removed, token);
          expect(refused.statusCode, refused.body).toBe(403);
          expect(refused.json().error).toMatchObject({
            code: 'AUTHORIZATION_ERROR',
            details: { field: 'token', reason: 'removed' },
          });
        }
        // An invitation sent before the removal does not undo it either, and stays unused.
        const stale = await api(removed, 'POST', `/api/invitations/${invitedBefore}/accept`);
        expect(stale.statusCode, stale.body).toBe(403);
        expect(stale.json().error.details).toEqual({ field: 'token', reason: 'removed' });
        expect((await api(removed, 'GET', `/api/workspaces/${f.workspaceId}`)).statusCode).toBe(
          404,
        );

        // The demoted editor leaves, and comes back through the editable link as viewer.
        expect(
          (await api(demoted, 'DELETE', `/api/workspaces/${f.workspaceId}/members/${demoted.id}`))
            .statusCode,
        ).toBe(200);
        const back = await join(demoted, links.editable);
        expect(back.statusCode, back.body).toBe(200);
        expect(back.json().workspace.role).toBe('viewer');

        // A read-only link nobody opened to joining admits nobody; one the owner opened admits a viewer.
        const closed = await join(stranger, links.plain);
        expect(closed.statusCode, closed.body).toBe(403);
        expect(closed.json().error.details).toEqual({ field: 'token', reason: 'join_not_allowed' });
        const opened = await join(stranger, links.joinable);
        expect(opened.statusCode, opened.body).toBe(200);
        expect(opened.json().workspace.role).toBe('viewer');

        // A new invitation lets the removed editor back, with its role; then links admit them again.
        const fresh = await invitationToken(f.workspaceId, removed.email);
        const accepted = await api(removed, 'POST', `/api/invitations/${fresh}/accept`);
        expect(accepted.statusCode, accepted.body).toBe(200);
        expect(accepted.json()).toEqual({ workspaceId: f.workspaceId, role: 'editor' });
      });
    });
  });
}
