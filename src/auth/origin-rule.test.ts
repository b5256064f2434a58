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
    t.app.inject({ method: 'POST', url: '/api/workspaces', headers: { cookie: user.cookie, ...headers }, payload: { name: 'Origin check' } });

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
});
