/**
 * OAuth sign-in through the built service as a real process (`npm start`'s code), against a real
 * local OAuth 2.0 / OIDC server. The in-process OAuth tests cannot see what the process's globals do
 * to Node's own fetch, which arctic uses for the code exchange.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { startOAuthProviders, type OAuthProviders } from '../support/oauth-providers.js';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process.js';

let providers: OAuthProviders;
let server: ServerProcess;

beforeAll(async () => {
  providers = await startOAuthProviders();
  providers.nextGithub({
    id: 4242,
    login: 'octocat',
    name: 'Mona Octocat',
    emails: [{ email: 'mona-e2e@example.org', primary: true, verified: true }],
  });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  server = await startServerProcess({
    env: { ...providers.env(), PORT: String(port), APP_ORIGIN: origin, PUBLIC_URL: origin },
  });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await providers?.stop();
});

/** Follows the sign-in's redirects by hand, as a browser would, keeping the service's cookies. */
async function signInThroughRedirects(provider: 'google' | 'github') {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  let url = new URL(`/api/auth/${provider}`, server.url);
  const visited: string[] = [];
  for (let hop = 0; hop < 6; hop++) {
    visited.push(url.toString());
    const fromService = url.origin === server.url;
    const res = await fetch(url, {
      redirect: 'manual',
      headers: fromService && jar.size ? { cookie: cookie() } : {},
    });
    await res.arrayBuffer();
    if (fromService) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
    }
    const location = res.headers.get('location');
    expect(res.status, `${url} answered ${res.status}`).toBe(302);
    url = new URL(location!, url);
    if (url.pathname === '/dashboard' || url.pathname === '/auth/signin') break;
  }
  return { final: url, visited, cookie: cookie(), jar };
}

describe('OAuth sign-in in the built service (real process)', () => {
  it.each([
    ['google', 'Gina Google'],
    ['github', 'Mona Octocat'],
  ] as const)(
    '%s: provider → /auth/callback → /dashboard, and the session cookies work',
    async (provider, name) => {
      providers.nextGoogle({
        sub: 'g-e2e-1',
        email: 'gina-e2e@example.org',
        email_verified: true,
        name: 'Gina Google',
      });
      const { final, visited, cookie, jar } = await signInThroughRedirects(provider);
      expect(visited.some((step) => step.startsWith(providers.issuer))).toBe(true);
      expect(visited.some((step) => step.startsWith(`${server.url}/auth/callback?`))).toBe(true);
      expect(final.toString()).toBe(`${server.url}/dashboard`);
      expect(jar.get('access_token')).toBeTruthy();

      const session = await fetch(`${server.url}/api/auth/session`, { headers: { cookie } });
      expect(session.status).toBe(200);
      expect(((await session.json()) as ApiSchema<'CookieSession'>).user.name).toBe(name);
    },
  );
});
