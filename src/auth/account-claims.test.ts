/**
 * A reset that claims an account whose address was never confirmed (the default with
 * EMAIL_CONFIRMATION=off): the share links made before are paused, not revoked; the owner is mailed
 * which workspaces, and resumes the links they made at the same address. A session that ended says
 * why on its next request; the confirmation link says what it did.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../../test/support/api-types.js';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import {
  APP_ORIGIN,
  buildUser,
  cookieHeader,
  cookiesFrom,
  uniqueEmail,
  type TestUser,
} from '../../test/support/factories.js';
import { linkIn, mailWrittenBy } from '../../test/support/outbox.js';
import { emailTokens } from '../platform/db/schema.js';
import { createWorkspace, shareWorkspace } from '../workspaces/test-support/helpers.js';

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`account claims and ended sessions (${leg.name})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
    });
    afterAll(async () => t?.close());

    const sharePage = (token: string) => t.app.inject({ method: 'GET', url: `/share/${token}` });
    const links = async (user: { authorization: string }, workspaceId: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${workspaceId}/share`,
          headers: user,
        })
      ).json<ApiSchema<'ShareLink'>[]>();

    async function resetPassword(email: string, password: string): Promise<string> {
      const mail = await mailWrittenBy(t.dataDir, () =>
        t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { email } }),
      );
      const token = new URL(
        linkIn(mail, /http:\/\/app\.test\/auth\/update-password\?token=[A-Za-z0-9_-]+/),
      ).searchParams.get('token')!;
      return mailWrittenBy(t.dataDir, async () => {
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: '/api/auth/update-password',
              payload: { token, password },
            })
          ).statusCode,
        ).toBe(200);
      });
    }

    async function signIn(email: string, password: string): Promise<TestUser['bearer']> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email, password },
      });
      expect(res.statusCode).toBe(200);
      return {
        authorization: `Bearer ${res.json<ApiSchema<'SignInResult'>>().session.access_token}`,
      };
    }

    it('a reset pauses the links made before, mails the owner which workspaces, and the owner resumes theirs at the same address', async () => {
      const owner = await buildUser(t.app);
      const workspace = await createWorkspace(t.app, owner, { name: 'Thesis & "sources"' });
      const link = await shareWorkspace(t.app, owner, workspace.id);
      expect((await sharePage(link.token)).statusCode).toBe(200);

      const mail = await resetPassword(owner.email, 'brand-new-pass-81');
      expect(mail).toContain('Subject: Your share links are paused');
      expect(mail).toContain(`${APP_ORIGIN}/workspaces/${workspace.id}`);
      expect(mail).toContain('>Thesis &amp; &quot;sources&quot;</a>');
      expect(mail).toContain('- Thesis & "sources": ');
      expect((await sharePage(link.token)).statusCode).toBe(404);

      const bearer = await signIn(owner.email, 'brand-new-pass-81');
      const [listed] = await links(bearer, workspace.id);
      expect(listed).toMatchObject({ id: link.id, active: false });
      expect(listed!.pausedAt).not.toBeNull();

      const resumed = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspace.id}/share/${link.id}/resume`,
        headers: bearer,
      });
      expect(resumed.statusCode).toBe(200);
      expect(resumed.json()).toMatchObject({
        id: link.id,
        active: true,
        pausedAt: null,
        url: link.url,
      });
      expect((await sharePage(link.token)).statusCode).toBe(200);
      // Resumed once: there is nothing paused to resume again.
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${workspace.id}/share/${link.id}/resume`,
            headers: bearer,
          })
        ).statusCode,
      ).toBe(404);

      // The address is now proven: the next reset is no claim, and pauses and mails nothing.
      const second = await mailWrittenBy(t.dataDir, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/reset-password',
          payload: { email: owner.email },
        }),
      );
      const token = new URL(
        linkIn(second, /http:\/\/app\.test\/auth\/update-password\?token=[A-Za-z0-9_-]+/),
      ).searchParams.get('token')!;
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/update-password',
            payload: { token, password: 'third-pass-ok-93' },
          })
        ).statusCode,
      ).toBe(200);
      expect((await sharePage(link.token)).statusCode).toBe(200);
    });

    it("a squatter's links stay paused: they cannot resume them, nor can anyone else", async () => {
      const victimEmail = uniqueEmail('victim');
      const squatter = await buildUser(t.app, { email: victimEmail, password: 'squatter-pass-31' });
      const planted = await createWorkspace(t.app, squatter, { name: 'My research' });
      const link = await shareWorkspace(t.app, squatter, planted.id);
      await resetPassword(victimEmail, 'owner-pass-after-7');

      expect((await sharePage(link.token)).statusCode).toBe(404);
      const resume = (headers: Record<string, string>) =>
        t.app.inject({
          method: 'POST',
          url: `/api/workspaces/${planted.id}/share/${link.id}/resume`,
          headers,
        });
      expect((await resume(squatter.bearer)).statusCode).toBe(401);
      expect((await resume({ cookie: squatter.cookie, origin: APP_ORIGIN })).statusCode).toBe(401);
      const stranger = await buildUser(t.app);
      expect((await resume(stranger.bearer)).statusCode).toBe(404);
      expect((await sharePage(link.token)).statusCode).toBe(404);
    });

    it('a request whose session ended says why: signed out, or the password changed', async () => {
      const user = await buildUser(t.app);
      const signedOut = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signout',
        headers: user.bearer,
      });
      expect(signedOut.statusCode).toBe(200);
      // The same browser's cookies, still held by another tab: the access token is refused and its refresh token too.
      const afterSignOut = await t.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { cookie: user.cookie },
      });
      expect(afterSignOut.statusCode).toBe(401);
      expect(afterSignOut.json()).toMatchObject({
        error: { code: 'AUTHENTICATION_ERROR', details: { reason: 'signed_out' } },
      });
      const refresh = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: user.refreshToken },
      });
      expect(refresh.json()).toMatchObject({ error: { details: { reason: 'signed_out' } } });

      // The password changed on another device (a session of its own): this one ends.
      const other = await buildUser(t.app);
      const elsewhere = await signIn(other.email, other.password);
      const changed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/update-password',
        headers: elsewhere,
        payload: { currentPassword: other.password, password: 'another-pass-62' },
      });
      expect(changed.statusCode).toBe(200);
      const afterChange = await t.app.inject({
        method: 'GET',
        url: '/api/workspaces',
        headers: { cookie: other.cookie },
      });
      expect(afterChange.statusCode).toBe(401);
      expect(afterChange.json()).toMatchObject({
        error: { details: { reason: 'password_changed' } },
      });
      // Nothing ended: no session cookies, no reason.
      const anonymous = await t.app.inject({ method: 'GET', url: '/api/auth/session' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().error.details?.reason).toBeUndefined();
    });

    it('sets the signed_in hint with the session cookies, readable by the app, and clears it at sign-out', async () => {
      const user = await buildUser(t.app);
      const signin = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: user.email, password: user.password },
      });
      const hint = signin.cookies.find((cookie) => cookie.name === 'signed_in');
      expect(hint).toMatchObject({ value: '1', path: '/' });
      expect(hint!.httpOnly).toBeFalsy();
      expect(signin.cookies.find((cookie) => cookie.name === 'access_token')!.httpOnly).toBe(true);
      const signout = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signout',
        headers: { cookie: cookieHeader(cookiesFrom(signin)), origin: APP_ORIGIN },
      });
      expect(signout.cookies.find((cookie) => cookie.name === 'signed_in')).toMatchObject({
        value: '',
      });
    });
  });
}

describe('the confirmation link says what it did (EMAIL_CONFIRMATION=required)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { EMAIL_CONFIRMATION: 'required' } });
  });
  afterAll(async () => t?.close());

  const confirmAt = async (path: string) => {
    const res = await t.app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(302);
    return res.headers.location;
  };

  it('confirmed, then already confirmed when used again; expired past its day; invalid when unknown', async () => {
    const mail = await mailWrittenBy(t.dataDir, () => buildUser(t.app));
    const path = linkIn(mail, /\/api\/auth\/confirm\?token=[A-Za-z0-9_-]+/);
    expect(await confirmAt(path)).toBe(`${APP_ORIGIN}/auth/confirmed?status=confirmed`);
    expect(await confirmAt(path)).toBe(`${APP_ORIGIN}/auth/confirmed?status=already_confirmed`);

    const late = await mailWrittenBy(t.dataDir, () => buildUser(t.app));
    const latePath = linkIn(late, /\/api\/auth\/confirm\?token=[A-Za-z0-9_-]+/);
    await t.app.ctx.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.purpose, 'email_confirmation'));
    expect(await confirmAt(latePath)).toBe(`${APP_ORIGIN}/auth/confirmed?status=expired`);
    expect(await confirmAt('/api/auth/confirm?token=not-a-real-token')).toBe(
      `${APP_ORIGIN}/auth/confirmed?status=invalid`,
    );
  });

  it('sign-up says a confirmation was sent; a signed-in user asks for another link, until the address is confirmed', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: uniqueEmail('resend'), password: 'mellow-harbor-5' },
    });
    expect(signup.json()).toMatchObject({ confirmationSent: true });
    let user!: TestUser;
    await mailWrittenBy(t.dataDir, async () => {
      user = await buildUser(t.app);
    });
    const resend = () =>
      t.app.inject({ method: 'POST', url: '/api/auth/resend-confirmation', headers: user.bearer });
    const again = await mailWrittenBy(t.dataDir, async () => {
      const res = await resend();
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toContain(user.email);
    });
    expect(await confirmAt(linkIn(again, /\/api\/auth\/confirm\?token=[A-Za-z0-9_-]+/))).toBe(
      `${APP_ORIGIN}/auth/confirmed?status=confirmed`,
    );
    const confirmed = await resend();
    expect(confirmed.statusCode).toBe(409);
    expect(confirmed.json()).toMatchObject({ error: { details: { reason: 'already_confirmed' } } });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/resend-confirmation' })).statusCode,
    ).toBe(401);
  });
});
