/**
 * Rate limits of visitors (not signed in) on search and summaries: counted by their anonymous session
 * and by their address, so that a new `anon_session` cookie with every request does not reset them.
 * The address is the connection's, or with TRUST_PROXY the one the nearest proxy saw.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/support/app.js';
import { buildUser } from '../../test/support/factories.js';
import {
  providerEnvFor,
  startFixtureServer,
  type FixtureServer,
} from '../../test/support/fixture-server.js';

const LIMITS = {
  RATE_LIMIT_SEARCH_PER_HOUR: '2',
  RATE_LIMIT_SEARCH_PER_HOUR_PER_IP: '3',
  RATE_LIMIT_SUMMARIZE_PER_HOUR: '2',
  RATE_LIMIT_SUMMARIZE_PER_HOUR_PER_IP: '3',
};
const TEXT =
  'Graph neural networks learn node representations by passing messages along edges. '.repeat(8);

/** A request as a visitor presenting a brand-new anonymous session cookie. */
const freshVisitor = (extra: Record<string, string> = {}) => ({
  cookie: `anon_session=${randomUUID()}`,
  ...extra,
});

describe('visitor rate limits', () => {
  let fixtures: FixtureServer;
  let t: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    // Every provider answers 404 at once: a search costs no time and reaches nothing outside.
    fixtures = await startFixtureServer([]);
    const env = { ...providerEnvFor(fixtures.url), ...LIMITS };
    t = await buildTestApp({ env });
    proxied = await buildTestApp({ env: { ...env, TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
    await fixtures?.close();
  });

  const search = (app: TestApp, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    app.app.inject({
      method: 'GET',
      url: '/api/search?q=graphs&providers=openalex',
      headers,
      remoteAddress,
    });
  const summarize = (app: TestApp, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    app.app.inject({
      method: 'POST',
      url: '/api/summarize',
      headers,
      remoteAddress,
      payload: { content: TEXT },
    });

  it.each([
    ['search', search],
    ['summarize', summarize],
  ] as const)(
    'a new anon_session cookie per request does not escape the %s limit: the address is counted too',
    async (_name, ask) => {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push((await ask(t, freshVisitor(), '198.51.100.1')).statusCode);
      expect(codes).toEqual([200, 200, 200, 429, 429]);
      // Another address is not affected.
      expect((await ask(t, freshVisitor(), '198.51.100.2')).statusCode).toBe(200);
    },
  );

  it('one visitor keeps their own, smaller allowance, and says what remains', async () => {
    const visitor = freshVisitor();
    const first = await search(t, visitor, '198.51.100.3');
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('2');
    expect(first.headers['ratelimit-remaining']).toBe('1');
    expect((await search(t, visitor, '198.51.100.3')).statusCode).toBe(200);
    const third = await search(t, visitor, '198.51.100.3');
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('signed-in users are counted per user, not by address', async () => {
    const user = await buildUser(t.app);
    for (let i = 0; i < 3; i++)
      expect((await search(t, freshVisitor(), '198.51.100.4')).statusCode).toBe(200);
    expect((await search(t, freshVisitor(), '198.51.100.4')).statusCode).toBe(429);
    expect((await search(t, user.bearer, '198.51.100.4')).statusCode).toBe(200);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: a new one per request does not escape the limit', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push(
        (
          await search(
            t,
            freshVisitor({ 'x-forwarded-for': `203.0.113.${10 + i}` }),
            '198.51.100.5',
          )
        ).statusCode,
      );
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it('with TRUST_PROXY, the address the proxy saw is counted; addresses the client prepends are not', async () => {
    const proxy = '10.0.0.2';
    const viaProxy = (client: string, claimed?: string) =>
      freshVisitor({ 'x-forwarded-for': claimed ? `${claimed}, ${client}` : client });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push(
        (await search(proxied, viaProxy('203.0.113.50', `192.0.2.${i + 1}`), proxy)).statusCode,
      );
    expect(codes).toEqual([200, 200, 200, 429]);
    // Another client behind the same proxy has its own allowance.
    expect((await search(proxied, viaProxy('203.0.113.51'), proxy)).statusCode).toBe(200);
  });
});
