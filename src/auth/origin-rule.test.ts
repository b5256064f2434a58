import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/support/app.js';
import { APP_ORIGIN, buildUser, type TestUser } from '../../test/support/factories.js';

describe('origin rule for cookie-authenticated changes', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    user = await buildUser(t.app);
  });
  afterAll(async () => t?.close());

  const create = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: { cookie: user.cookie, ...headers },
      payload: { name: 'Origin check' },
    });

  it("refuses `Origin: null` even with the app's Referer (403)", async () => {
    const res = await create({ origin: 'null', referer: `${APP_ORIGIN}/dashboard` });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('AUTHORIZATION_ERROR');
  });

  it("accepts the app's Referer when there is no Origin", async () => {
    expect((await create({ referer: `${APP_ORIGIN}/dashboard` })).statusCode).toBe(201);
  });

  it("accepts the app's Origin", async () => {
    expect((await create({ origin: APP_ORIGIN })).statusCode).toBe(201);
  });

  describe('a page served at an address other than APP_ORIGIN (127.0.0.1, a LAN name)', () => {
    it('accepts an Origin that is the origin the request was sent to (its Host, over this connection)', async () => {
      expect(
        (await create({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' })).statusCode,
      ).toBe(201);
      expect(
        (await create({ host: 'research.lan:8080', origin: 'http://research.lan:8080' }))
          .statusCode,
      ).toBe(201);
      expect((await create({ host: 'localhost', origin: 'http://localhost' })).statusCode).toBe(
        201,
      );
    });

    it("accepts a Referer from the request's own origin when there is no Origin", async () => {
      expect(
        (await create({ host: '127.0.0.1:3000', referer: 'http://127.0.0.1:3000/workspaces' }))
          .statusCode,
      ).toBe(201);
    });

    it('refuses another origin, whatever the Host (403)', async () => {
      for (const origin of [
        'http://evil.example',
        'http://127.0.0.1:3001',
        'https://127.0.0.1:3000',
        'http://127.0.0.1',
      ]) {
        const res = await create({ host: '127.0.0.1:3000', origin });
        expect(res.statusCode, origin).toBe(403);
        expect(res.json().error.message, origin).toBe('Cross-origin request refused');
      }
    });

    it('refuses when the Host is not a plain host name (403)', async () => {
      expect(
        (await create({ host: 'evil.example@127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }))
          .statusCode,
      ).toBe(403);
    });

    it('believes X-Forwarded-Proto only from a trusted proxy', async () => {
      const untrusted = await create({
        host: 'research.example',
        'x-forwarded-proto': 'https',
        origin: 'https://research.example',
      });
      expect(untrusted.statusCode).toBe(403);
      const behindProxy = await buildTestApp({ env: { TRUST_PROXY: '1' } });
      try {
        const someone = await buildUser(behindProxy.app);
        const res = await behindProxy.app.inject({
          method: 'POST',
          url: '/api/workspaces',
          headers: {
            cookie: someone.cookie,
            host: 'research.example',
            'x-forwarded-proto': 'https',
            origin: 'https://research.example',
          },
          payload: { name: 'Behind a proxy' },
        });
        expect(res.statusCode).toBe(201);
      } finally {
        await behindProxy.close();
      }
    });
  });
});
