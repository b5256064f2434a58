/**
 * POST /api/auth/change-password: the signed-in user changes their password. Every session ends but
 * the caller's, which goes on with new tokens; the old password and every token issued before stop
 * working; the user is mailed; refusals name the field.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import { APP_ORIGIN, buildUser, cookieHeader, cookiesFrom } from '../../test/support/factories.js';
import { mailWrittenBy } from '../../test/support/outbox.js';
import { users } from '../platform/db/schema.js';

const NEW_PASSWORD = 'harbor-nebula-57';

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`POST /api/auth/change-password (${leg.name})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ leg, env: { RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL: '3' } });
    });
    afterAll(async () => t?.close());

    const change = (headers: Record<string, string>, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/auth/change-password', headers, payload });

    it('changes the password, ends every other session, keeps this one with new cookies, and mails the user', async () => {
      const user = await buildUser(t.app);
      const other = (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { email: user.email, password: user.password },
        })
      ).json().session;
      let res!: Awaited<ReturnType<typeof change>>;
      const mail = await mailWrittenBy(t.dataDir, async () => {
        res = await change(user.cookieHeaders, {
          currentPassword: user.password,
          newPassword: NEW_PASSWORD,
        });
      });
      expect(res.statusCode).toBe(200);
      expect(mail).toContain('Subject: Your password was changed');
      expect(mail).toContain(`${APP_ORIGIN}/auth/forgot-password`);
      expect(mail).not.toContain(NEW_PASSWORD);

      // This client goes on, with the cookies of a new session.
      const jar = cookiesFrom(res);
      expect(jar.access_token).toBeTruthy();
      expect(jar.refresh_token).not.toBe(user.refreshToken);
      const fresh = {
        cookie: cookieHeader({
          access_token: jar.access_token!,
          refresh_token: jar.refresh_token!,
        }),
        origin: APP_ORIGIN,
      };
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: fresh }))
          .statusCode,
      ).toBe(200);
      expect(res.json().session.refresh_token).toBe(jar.refresh_token);

      // Every token issued before the change is refused: the other device's and this client's old ones.
      for (const access of [other.access_token, user.accessToken]) {
        const seen = await t.app.inject({
          method: 'GET',
          url: '/api/auth/session',
          headers: { authorization: `Bearer ${access}` },
        });
        expect(seen.statusCode).toBe(401);
      }
      for (const refresh of [other.refresh_token, user.refreshToken]) {
        const refused = await t.app.inject({
          method: 'POST',
          url: '/api/auth/refresh',
          payload: { refresh_token: refresh },
        });
        expect(refused.statusCode).toBe(401);
        expect(refused.json().error.details.reason).toBe('password_changed');
      }
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/signin',
            payload: { email: user.email, password: user.password },
          })
        ).statusCode,
      ).toBe(401);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/signin',
            payload: { email: user.email, password: NEW_PASSWORD },
          })
        ).statusCode,
      ).toBe(200);
    });

    it('refuses a wrong current password (400, currentPassword incorrect), changes nothing, and throttles guessing like sign-in', async () => {
      const user = await buildUser(t.app);
      const codes: number[] = [];
      let first: Awaited<ReturnType<typeof change>> | undefined;
      for (let i = 0; i < 4; i++) {
        const res = await change(user.bearer, {
          currentPassword: 'not-the-password-3',
          newPassword: NEW_PASSWORD,
        });
        first ??= res;
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([400, 400, 400, 429]);
      expect(first!.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'The current password is incorrect',
        details: { field: 'currentPassword', reason: 'incorrect' },
      });
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: user.bearer }))
          .statusCode,
      ).toBe(200);
      // The old password still signs in (from another address: this one's guesses are used up).
      const signin = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        remoteAddress: '203.0.113.9',
        payload: { email: user.email, password: user.password },
      });
      expect(signin.statusCode).toBe(200);
    });

    it('holds the new password to the sign-up rules and refuses the current one again, naming newPassword', async () => {
      const user = await buildUser(t.app);
      const common = await change(user.bearer, {
        currentPassword: user.password,
        newPassword: 'password123',
      });
      expect(common.statusCode).toBe(400);
      expect(common.json().error.details.field).toBe('newPassword');
      const short = await change(user.bearer, {
        currentPassword: user.password,
        newPassword: 'abc',
      });
      expect(short.statusCode).toBe(400);
      expect(short.json().error.details.field).toBe('newPassword');
      const same = await change(user.bearer, {
        currentPassword: user.password,
        newPassword: user.password,
      });
      expect(same.json().error.details).toEqual({ field: 'newPassword', reason: 'unchanged' });
      const tooLong = await change(user.bearer, {
        currentPassword: user.password,
        newPassword: 'x'.repeat(5000),
      });
      expect(tooLong.statusCode).toBe(400);
    });

    it('tells an account without a password (Google or GitHub) to set one through the reset mail', async () => {
      const user = await buildUser(t.app);
      await t.app.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
      const res = await change(user.bearer, {
        currentPassword: 'anything-at-all',
        newPassword: NEW_PASSWORD,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual({ field: 'currentPassword', reason: 'no_password' });
      expect(res.json().error.message).toMatch(/reset-password/);
    });

    it('answers 401 without a session and 403 for a cookie request from another origin', async () => {
      expect(
        (await change({}, { currentPassword: 'a', newPassword: NEW_PASSWORD })).statusCode,
      ).toBe(401);
      const user = await buildUser(t.app);
      expect(
        (
          await change(
            { cookie: user.cookie, origin: 'https://evil.test' },
            { currentPassword: user.password, newPassword: NEW_PASSWORD },
          )
        ).statusCode,
      ).toBe(403);
    });
  });
}
