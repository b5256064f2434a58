/**
 * Members and invitations on both stores: adding, listing, changing roles, transferring ownership
 * (one transaction, even when two transfers race), leaving, and invitations mailed with a single-use,
 * expiring link (accepted once however many accept at once; revoked; throttled per inviter).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema, BearerReply } from '../../../test/support/api-types.js';
import { buildTestApp, storeLegs, type TestApp } from '../../../test/support/app.js';
import { buildUser, uniqueEmail, type TestUser } from '../../../test/support/factories.js';
import { linkIn, mailWrittenBy } from '../../../test/support/outbox.js';
import { workspaceInvitations } from '../../platform/db/schema.js';
import { addResource, as, createWorkspace, DIALECTS } from '../test-support/helpers.js';

const INVITATION_LINK = /http:\/\/app\.test\/invitations\/[A-Za-z0-9_-]+/;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`members and invitations (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let ada: TestUser;
    let grace: TestUser;
    let stranger: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg, env: { RATE_LIMIT_INVITATIONS_PER_HOUR: '1000' } });
      [owner, ada, grace, stranger] = await Promise.all([
        buildUser(t.app, { name: 'Olive Owner' }),
        buildUser(t.app, { name: 'Ada Lovelace' }),
        buildUser(t.app, { name: 'Grace Hopper' }),
        buildUser(t.app),
      ]);
    });
    afterAll(async () => t?.close());

    const addMember = (by: TestUser, workspaceId: string, email: string, role: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/members`,
        headers: by.bearer,
        payload: { email, role },
      });
    const members = async (by: TestUser, workspaceId: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}/members`,
        headers: by.bearer,
      });
      expect(res.statusCode).toBe(200);
      return res.json<ApiSchema<'MemberList'>>();
    };
    /** A new workspace of `by`'s with `others` added by the owner (each [user, role]). */
    async function workspaceWith(by: TestUser, others: [TestUser, string][]): Promise<string> {
      const { id } = await createWorkspace(t.app, by, { name: 'Group reading' });
      for (const [user, role] of others)
        expect((await addMember(by, id, user.email, role)).statusCode).toBe(201);
      return id;
    }
    /** Invites `email` as `role` and returns the token of the link in the mail. */
    async function invite(
      by: TestUser,
      workspaceId: string,
      email: string,
      role = 'editor',
    ): Promise<{ token: string; id: string }> {
      let id = '';
      const mail = await mailWrittenBy(t.dataDir, async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${workspaceId}/invitations`,
          headers: by.bearer,
          payload: { email, role },
        });
        expect(res.statusCode, res.body).toBe(201);
        id = res.json<ApiSchema<'InvitationEnvelope'>>().invitation.id;
      });
      expect(mail).toContain(`To: ${email}`);
      return { token: linkIn(mail, INVITATION_LINK).split('/').pop()!, id };
    }

    describe('members', () => {
      it(
        'the owner adds accounts by e-mail; everyone in the workspace sees the ' +
          'list, the owner first, with e-mail addresses for the owner only (issue 33)',
        async () => {
          const id = await workspaceWith(owner, [
            [ada, 'editor'],
            [grace, 'viewer'],
          ]);
          // Names and roles to every member; their addresses to the owner alone.
          for (const reader of [grace, ada]) {
            const list = await members(reader, id);
            expect(list.total).toBe(3);
            expect(list.members.map((m) => [m.name, m.email, m.role, m.addedBy])).toEqual([
              ['Olive Owner', undefined, 'owner', null],
              ['Ada Lovelace', undefined, 'editor', owner.id],
              ['Grace Hopper', undefined, 'viewer', owner.id],
            ]);
          }
          const asOwner = await members(owner, id);
          expect(asOwner.members.map((m) => [m.name, m.email, m.role])).toEqual([
            ['Olive Owner', owner.email, 'owner'],
            ['Ada Lovelace', ada.email, 'editor'],
            ['Grace Hopper', grace.email, 'viewer'],
          ]);
        },
      );

      it('refuses a second add (409), an address without an account (404 naming email), a role of owner (400), and no session (401)', async () => {
        const id = await workspaceWith(owner, [[ada, 'editor']]);
        expect((await addMember(owner, id, ada.email, 'viewer')).json()).toMatchObject({
          error: { code: 'CONFLICT', details: { field: 'email', reason: 'already_member' } },
        });
        expect((await addMember(owner, id, owner.email, 'viewer')).statusCode).toBe(409);
        const unknown = await addMember(owner, id, uniqueEmail('nobody'), 'viewer');
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json()).toMatchObject({
          error: { details: { field: 'email', reason: 'no_account' } },
        });
        const asOwner = await addMember(owner, id, grace.email, 'owner');
        expect(asOwner.statusCode).toBe(400);
        expect(asOwner.json()).toMatchObject({
          error: { code: 'VALIDATION_ERROR', details: { field: 'role' } },
        });
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${id}/members`,
              payload: { email: grace.email, role: 'viewer' },
            })
          ).statusCode,
        ).toBe(401);
      });

      it.each(DIALECTS)(
        'GET /api/workspaces lists shared workspaces with the role in each (dialect %s); the owner list is unchanged in shape',
        async (dialect) => {
          const reader = await buildUser(t.app);
          const own = await createWorkspace(t.app, reader, { name: 'Mine' });
          const shared = await workspaceWith(owner, [[reader, 'viewer']]);
          const res = await t.app.inject({
            method: 'GET',
            url: '/api/workspaces',
            headers: as(reader, dialect),
          });
          expect(res.statusCode).toBe(200);
          const list =
            dialect === 'B'
              ? res.json<BearerReply<'WorkspaceListEnvelope'>>().workspaces
              : res.json<ApiSchema<'Workspace'>[]>();
          expect(list.map((w) => [w.id, w.role, w.ownerId])).toEqual([
            [shared, 'viewer', owner.id],
            [own.id, 'owner', reader.id],
          ]);
          expect(res.headers['x-total-count']).toBe('2');
          const detail = await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${shared}`,
            headers: as(reader, dialect),
          });
          expect(
            dialect === 'B'
              ? detail.json<BearerReply<'WorkspaceEnvelope'>>().workspace.role
              : detail.json<ApiSchema<'Workspace'>>().role,
          ).toBe('viewer');
          expect(
            (
              await t.app.inject({
                method: 'GET',
                url: `/api/workspaces/${shared}`,
                headers: as(stranger, dialect),
              })
            ).statusCode,
          ).toBe(404);
        },
      );

      it('library search finds what is in a workspace shared with the user, and not in one they are not a member of', async () => {
        const reader = await buildUser(t.app);
        const shared = await workspaceWith(owner, [[reader, 'viewer']]);
        const other = await createWorkspace(t.app, owner, { name: 'Private' });
        await addResource(t.app, owner, shared, { title: 'Quokka population dynamics' });
        await addResource(t.app, owner, other.id, { title: 'Quokka diets, unshared' });
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/library/search?q=quokka',
          headers: reader.bearer,
        });
        expect(res.statusCode).toBe(200);
        expect(JSON.stringify(res.json())).toContain('Quokka population dynamics');
        expect(JSON.stringify(res.json())).not.toContain('unshared');
      });

      it('a resource says who added it and an annotation who wrote it; a viewer annotates, and changes only their own words', async () => {
        const id = await workspaceWith(owner, [
          [ada, 'editor'],
          [grace, 'viewer'],
        ]);
        const resource = await addResource(t.app, ada, id, { title: 'Added by Ada' });
        const note = await t.app.inject({
          method: 'POST',
          url: `/api/resources/${resource.id}/annotations`,
          headers: grace.bearer,
          payload: { body: "Grace's reading" },
        });
        expect(note.statusCode).toBe(201);
        expect(note.json()).toMatchObject({ userId: grace.id, authorName: 'Grace Hopper' });
        const adaNote = await t.app.inject({
          method: 'POST',
          url: `/api/resources/${resource.id}/annotations`,
          headers: ada.bearer,
          payload: { body: "Ada's reading" },
        });
        const edit = await t.app.inject({
          method: 'PATCH',
          url: `/api/annotations/${adaNote.json<ApiSchema<'Annotation'>>().id}`,
          headers: grace.bearer,
          payload: { body: 'overwritten' },
        });
        expect(edit.statusCode).toBe(403);
        const detail = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${id}`,
          headers: grace.bearer,
        });
        const [shown] = detail.json<BearerReply<'WorkspaceDetailEnvelope'>>().resources;
        expect(shown!.addedBy).toBe(ada.id);
        expect(shown!.annotations.map((a) => [a.authorName, a.body])).toEqual([
          ['Grace Hopper', "Grace's reading"],
          ['Ada Lovelace', "Ada's reading"],
        ]);
      });

      it('the owner changes a role; the new role takes effect at once', async () => {
        const id = await workspaceWith(owner, [[ada, 'viewer']]);
        const before = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${id}/resources`,
          headers: ada.bearer,
          payload: { title: 'Too early' },
        });
        expect(before.statusCode).toBe(403);
        expect(before.json()).toEqual({
          error: {
            code: 'AUTHORIZATION_ERROR',
            message: 'This needs the editor role in this workspace; you are a viewer.',
          },
        });
        const changed = await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${id}/members/${ada.id}`,
          headers: owner.bearer,
          payload: { role: 'editor' },
        });
        expect(changed.statusCode).toBe(200);
        expect(changed.json()).toMatchObject({ member: { userId: ada.id, role: 'editor' } });
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${id}/resources`,
              headers: ada.bearer,
              payload: { title: 'Now' },
            })
          ).statusCode,
        ).toBe(201);
        expect(
          (
            await t.app.inject({
              method: 'PATCH',
              url: `/api/workspaces/${id}/members/${stranger.id}`,
              headers: owner.bearer,
              payload: { role: 'editor' },
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'PATCH',
              url: `/api/workspaces/${id}/members/${owner.id}`,
              headers: owner.bearer,
              payload: { role: 'viewer' },
            })
          ).statusCode,
        ).toBe(409);
      });

      it('transferring ownership is one change: the member becomes owner, the previous owner an editor', async () => {
        const id = await workspaceWith(owner, [[ada, 'viewer']]);
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${id}/members/${ada.id}`,
          headers: owner.bearer,
          payload: { role: 'owner' },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ member: { userId: ada.id, role: 'owner' } });
        expect((await members(ada, id)).members.map((m) => [m.userId, m.role])).toEqual([
          [ada.id, 'owner'],
          [owner.id, 'editor'],
        ]);
        const workspace = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${id}`,
          headers: owner.bearer,
        });
        expect(workspace.json()).toMatchObject({ workspace: { ownerId: ada.id, role: 'editor' } });
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${id}`,
              headers: owner.bearer,
            })
          ).statusCode,
        ).toBe(403);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${id}`,
              headers: ada.bearer,
            })
          ).statusCode,
        ).toBe(200);
      });

      it('two transfers at once: one happens, the other is refused, and the workspace has exactly one owner', async () => {
        const id = await workspaceWith(owner, [
          [ada, 'editor'],
          [grace, 'editor'],
        ]);
        const answers = await Promise.all(
          [ada, grace].map((to) =>
            t.app.inject({
              method: 'PATCH',
              url: `/api/workspaces/${id}/members/${to.id}`,
              headers: owner.bearer,
              payload: { role: 'owner' },
            }),
          ),
        );
        expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 403]);
        const winner = answers[0]!.statusCode === 200 ? ada : grace;
        const roles = (await members(winner, id)).members.map((m) => m.role);
        expect(roles.filter((r) => r === 'owner')).toHaveLength(1);
        expect(roles.sort()).toEqual(['editor', 'editor', 'owner']);
      });

      it('a member leaves (DELETE of their own id) and the workspace is then a 404 to them; the owner cannot leave', async () => {
        const id = await workspaceWith(owner, [
          [ada, 'viewer'],
          [grace, 'editor'],
        ]);
        const left = await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${id}/members/${ada.id}`,
          headers: ada.cookieHeaders,
        });
        expect(left.statusCode).toBe(200);
        expect(left.json()).toEqual({ success: true, id: ada.id });
        expect(
          (await t.app.inject({ method: 'GET', url: `/api/workspaces/${id}`, headers: ada.bearer }))
            .statusCode,
        ).toBe(404);
        const ownerLeaves = await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${id}/members/${owner.id}`,
          headers: owner.bearer,
        });
        expect(ownerLeaves.statusCode).toBe(409);
        expect(ownerLeaves.json()).toMatchObject({
          error: {
            message:
              'The owner cannot leave the workspace; transfer ownership to another member first',
          },
        });
        // An editor may leave, not remove someone else.
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${id}/members/${owner.id}`,
              headers: grace.bearer,
            })
          ).statusCode,
        ).toBe(403);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/workspaces/${id}/members/${grace.id}`,
              headers: owner.bearer,
            })
          ).statusCode,
        ).toBe(200);
        expect((await members(owner, id)).total).toBe(1);
      });
    });

    describe('invitations', () => {
      it('mails a link to /invitations/{token}; the page learns the workspace, inviter and role only; another account accepts it once', async () => {
        const id = await workspaceWith(owner, []);
        const invitee = uniqueEmail('invitee');
        const { token } = await invite(owner, id, invitee, 'editor');
        const rows = await t.app.ctx.db
          .select()
          .from(workspaceInvitations)
          .where(eq(workspaceInvitations.workspaceId, id));
        expect(JSON.stringify(rows)).not.toContain(token);

        const preview = await t.app.inject({ method: 'GET', url: `/api/invitations/${token}` });
        expect(preview.statusCode).toBe(200);
        expect(preview.json()).toEqual({
          workspaceName: 'Group reading',
          inviterName: 'Olive Owner',
          role: 'editor',
        });

        expect(
          (await t.app.inject({ method: 'POST', url: `/api/invitations/${token}/accept` }))
            .statusCode,
        ).toBe(401);
        const joiner = await buildUser(t.app);
        const accepted = await t.app.inject({
          method: 'POST',
          url: `/api/invitations/${token}/accept`,
          headers: joiner.cookieHeaders,
        });
        expect(accepted.statusCode).toBe(200);
        expect(accepted.json()).toEqual({ workspaceId: id, role: 'editor' });
        expect(
          (await members(owner, id)).members.map((m) => [m.userId, m.role, m.addedBy]),
        ).toEqual([
          [owner.id, 'owner', null],
          [joiner.id, 'editor', owner.id],
        ]);
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/invitations/${token}/accept`,
              headers: grace.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (await t.app.inject({ method: 'GET', url: `/api/invitations/${token}` })).statusCode,
        ).toBe(404);
        const listed = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${id}/invitations`,
          headers: owner.bearer,
        });
        expect(listed.json()).toMatchObject({
          total: 1,
          invitations: [
            { email: invitee, role: 'editor', status: 'accepted', invitedBy: owner.id },
          ],
        });
      });

      it('two accepts at once make one membership', async () => {
        const id = await workspaceWith(owner, []);
        const { token } = await invite(owner, id, uniqueEmail('race'), 'viewer');
        const [one, two] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
        const answers = await Promise.all(
          [one, two].map((user) =>
            t.app.inject({
              method: 'POST',
              url: `/api/invitations/${token}/accept`,
              headers: user.bearer,
            }),
          ),
        );
        expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
        expect((await members(owner, id)).total).toBe(2);
      });

      it('an invitation past its expiry opens nothing and is listed as expired; a revoked one likewise', async () => {
        const id = await workspaceWith(owner, []);
        const expired = await invite(owner, id, uniqueEmail('late'));
        await t.app.ctx.db
          .update(workspaceInvitations)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(workspaceInvitations.id, expired.id));
        expect(
          (await t.app.inject({ method: 'GET', url: `/api/invitations/${expired.token}` }))
            .statusCode,
        ).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/invitations/${expired.token}/accept`,
              headers: ada.bearer,
            })
          ).statusCode,
        ).toBe(404);

        const revoked = await invite(owner, id, uniqueEmail('revoked'));
        const revoke = await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${id}/invitations/${revoked.id}`,
          headers: owner.bearer,
        });
        expect(revoke.statusCode).toBe(200);
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/invitations/${revoked.token}/accept`,
              headers: ada.bearer,
            })
          ).statusCode,
        ).toBe(404);
        const again = await t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${id}/invitations/${revoked.id}`,
          headers: owner.bearer,
        });
        expect(again.json()).toMatchObject({
          error: { code: 'CONFLICT', details: { reason: 'revoked' } },
        });

        const listed = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${id}/invitations`,
          headers: owner.bearer,
        });
        expect(
          listed.json<ApiSchema<'InvitationList'>>().invitations.map((i) => [i.id, i.status]),
        ).toEqual([
          [revoked.id, 'revoked'],
          [expired.id, 'expired'],
        ]);
        expect((await members(owner, id)).total).toBe(1);
      });

      it('refuses a malformed token (400) and an invitation of a member (409)', async () => {
        const id = await workspaceWith(owner, [[ada, 'viewer']]);
        expect(
          (await t.app.inject({ method: 'GET', url: '/api/invitations/not*a*token' })).statusCode,
        ).toBe(400);
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${id}/invitations`,
          headers: owner.bearer,
          payload: { email: ada.email, role: 'editor' },
        });
        expect(res.json()).toMatchObject({
          error: { code: 'CONFLICT', details: { field: 'email', reason: 'already_member' } },
        });
      });

      it('throttles invitations per inviter (429 with Retry-After); another inviter is not held back', async () => {
        const limited = await buildTestApp({ leg, env: { RATE_LIMIT_INVITATIONS_PER_HOUR: '3' } });
        try {
          const [inviter, other] = await Promise.all([
            buildUser(limited.app),
            buildUser(limited.app),
          ]);
          const send = async (by: TestUser) => {
            const { id } = await createWorkspace(limited.app, by, { name: 'Throttled' });
            return limited.app.inject({
              method: 'POST',
              url: `/api/workspaces/${id}/invitations`,
              headers: by.bearer,
              payload: { email: uniqueEmail('many'), role: 'viewer' },
            });
          };
          for (let i = 0; i < 3; i++) expect((await send(inviter)).statusCode).toBe(201);
          const refused = await send(inviter);
          expect(refused.statusCode).toBe(429);
          expect(refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
          expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
          expect((await send(other)).statusCode).toBe(201);
        } finally {
          await limited.close();
        }
      });
    });
  });
}
