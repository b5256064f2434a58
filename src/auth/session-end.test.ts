/**
 * A session ends for good: its access tokens and every refresh token of its family, including one
 * issued by a refresh that raced the sign-out (the sign-out's update did not see the new row).
 */
import { and, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../../test/support/api-types.js';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { APP_ORIGIN, buildUser, uniqueEmail } from '../../test/support/factories.js';
import { eventually } from '../../test/support/process-client.js';
import { refreshTokens } from '../platform/db/schema.js';
import { LIVE_FOR_MS } from './revocations.js';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`a session that has ended (${leg.name})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ leg, env: { RATE_LIMIT_SIGNIN_PER_15MIN_PER_IP: '5' } });
    });
    afterAll(async () => t?.close());

    it('refuses a refresh token of the family that escaped the revocation, and its access tokens', async () => {
      const user = await buildUser(t.app);
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: user.refreshToken },
      });
      expect(refreshed.statusCode).toBe(200);
      const { access_token: access, refresh_token: escaped } =
        refreshed.json<ApiSchema<'SignInResult'>>().session;
      const [{ familyId }] = (await t.app.ctx.db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.userId, user.id))
        .limit(1)) as [{ familyId: string }];

      // The state a lost race leaves: the sign-out revoked the rows it saw, not the newest.
      const escapedRows = await t.app.ctx.db
        .select({ id: refreshTokens.id })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.rotatedAt)));
      expect(escapedRows).toHaveLength(1);
      await t.app.ctx.db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(eq(refreshTokens.familyId, familyId));
      await t.app.ctx.db
        .update(refreshTokens)
        .set({ revokedAt: null })
        .where(eq(refreshTokens.id, escapedRows[0]!.id));

      // A live session is believed for LIVE_FOR_MS without asking the database: the access token is
      // refused once that has passed (a read, asked until it is, within a bound).
      const sessionRefused = async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: '/api/auth/session',
            headers: { authorization: `Bearer ${access}` },
          })
        ).statusCode === 401;
      expect(await eventually(sessionRefused, LIVE_FOR_MS + 2000, 50)).toBe(true);
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: escaped },
      });
      expect(again.statusCode).toBe(401);
    });

    it('throttles sign-outs that end no live session like failed sign-ins, per address; one that ends a session is not counted', async () => {
      const address = '203.0.113.80';
      const signOut = (headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'POST', url: '/api/auth/signout', headers, remoteAddress: address });
      const user = await buildUser(t.app);
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await signOut()).statusCode);
      expect((await signOut(user.bearer)).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) codes.push((await signOut()).statusCode);
      expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(
        (await signOut({ cookie: `refresh_token=${uniqueEmail()}`, origin: APP_ORIGIN }))
          .statusCode,
      ).toBe(429);
    });

    if (leg.postgres) {
      it('says a session ended on the channel only when a sign-out ended a live one', async () => {
        const listener = new pg.Client({ connectionString: t.store.databaseUrl });
        await listener.connect();
        try {
          const heard: string[] = [];
          listener.on('notification', (message) => heard.push(message.payload ?? ''));
          await listener.query('listen session_ended');
          const user = await buildUser(t.app);
          const from = { remoteAddress: '203.0.113.81' };
          for (let i = 0; i < 3; i++)
            expect(
              (await t.app.inject({ method: 'POST', url: '/api/auth/signout', ...from }))
                .statusCode,
            ).toBe(200);
          expect(
            (
              await t.app.inject({
                method: 'POST',
                url: '/api/auth/signout',
                headers: { cookie: `refresh_token=${user.refreshToken}`, origin: APP_ORIGIN },
                ...from,
              })
            ).statusCode,
          ).toBe(200);
          // The same session again: it has already ended.
          expect(
            (
              await t.app.inject({
                method: 'POST',
                url: '/api/auth/signout',
                headers: { cookie: `refresh_token=${user.refreshToken}`, origin: APP_ORIGIN },
                ...from,
              })
            ).statusCode,
          ).toBe(200);
          // Notifications arrive in the order their transactions committed: the marker comes after any sign-out's.
          await listener.query("select pg_notify('session_ended', 'marker')");
          expect(await eventually(async () => heard.includes('marker'), 5000, 10)).toBe(true);
          expect(heard.filter((payload) => payload !== 'marker')).toHaveLength(1);
        } finally {
          await listener.end();
        }
      });
    }
  });
}
