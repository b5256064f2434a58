/**
 * OAuth sign-in through the built service as a real process (`npm start`'s code), against a real
 * local OAuth 2.0 / OIDC server. The in-process OAuth tests cannot see what the process's globals do
 * to Node's own fetch, which arctic uses for the code exchange (issue 13, item 1).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process.js';

let oauth: OAuth2Server;
let github: Server;
let server: ServerProcess;
let nextIdentity: { sub: string; email: string; email_verified: boolean; name: string };

beforeAll(async () => {
  oauth = new OAuth2Server();
  await oauth.issuer.keys.generate('RS256');
  await oauth.start(0, '127.0.0.1');
  oauth.service.on('beforeUserinfo', (response: { body: unknown }) => {
    response.body = nextIdentity;
  });
  // GitHub's REST endpoints beside the OAuth server; they accept only its access tokens.
  github = createServer((req, res) => {
    const payload = (req.headers.authorization ?? '').replace(/^Bearer /, '').split('.')[1];
    const claims = payload ? (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iss?: string }) : {};
    if (claims.iss !== oauth.issuer.url) {
      res.writeHead(401).end('{"message":"Bad credentials"}');
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (req.url === '/user') res.end(JSON.stringify({ id: 4242, login: 'octocat', name: 'Mona Octocat' }));
    else if (req.url === '/user/emails') res.end(JSON.stringify([{ email: 'mona-e2e@example.org', primary: true, verified: true }]));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));

  const issuer = oauth.issuer.url!;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  server = await startServerProcess({
    env: {
      PORT: String(port),
      APP_ORIGIN: origin,
      PUBLIC_URL: origin,
      OUTBOUND_ALLOW_PRIVATE: '1',
      GOOGLE_CLIENT_ID: 'google-client',
      GOOGLE_CLIENT_SECRET: 'google-secret',
      GOOGLE_AUTHORIZATION_URL: `${issuer}/authorize`,
      GOOGLE_TOKEN_URL: `${issuer}/token`,
      GOOGLE_USERINFO_URL: `${issuer}/userinfo`,
      GITHUB_CLIENT_ID: 'github-client',
      GITHUB_CLIENT_SECRET: 'github-secret',
      GITHUB_AUTHORIZATION_URL: `${issuer}/authorize`,
      GITHUB_TOKEN_URL: `${issuer}/token`,
      GITHUB_API_URL: `http://127.0.0.1:${(github.address() as AddressInfo).port}`,
    },
  });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await oauth?.stop();
  await new Promise((resolve) => github?.close(resolve));
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
    const res = await fetch(url, { redirect: 'manual', headers: fromService && jar.size ? { cookie: cookie() } : {} });
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
  ] as const)('%s: provider → /auth/callback → /dashboard, and the session cookies work', async (provider, name) => {
    nextIdentity = { sub: 'g-e2e-1', email: 'gina-e2e@example.org', email_verified: true, name: 'Gina Google' };
    const { final, visited, cookie, jar } = await signInThroughRedirects(provider);
    expect(visited.some((step) => step.startsWith(oauth.issuer.url!))).toBe(true);
    expect(visited.some((step) => step.startsWith(`${server.url}/auth/callback?`))).toBe(true);
    expect(final.toString()).toBe(`${server.url}/dashboard`);
    expect(jar.get('access_token')).toBeTruthy();

    const session = await fetch(`${server.url}/api/auth/session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { name: string } }).user.name).toBe(name);
  });
});
