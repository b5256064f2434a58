/**
 * The web app's files served by the service: index.html for the app's routes (the SPA fallback),
 * hashed assets cached as immutable, the page revalidated and under a Content-Security-Policy, while
 * /api/*, /share/*, /storage/* and /auth/callback stay the server's. Without a build the app's routes
 * say how to make one and the API works. A small stand-in build is written to a temporary directory.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/support/app.js';

const INDEX =
  '<!doctype html><html lang="en"><head><title>Research ' +
  'Workspace</title><script type="module" ' +
  'src="/assets/index-Ab12Cd34.js"></script></head><body><div ' +
  'id="root"></div></body></html>';
const SCRIPT = 'console.log("app");';

function standInBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rw-web-dist-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  // What the build writes beside each text file (web/vite.config.ts).
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, '.vite', 'manifest.json'), '{}');
  return dir;
}

describe('the web app served at /', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = standInBuild();
    t = await buildTestApp({ env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each([
    '/',
    '/dashboard',
    '/library',
    '/library?q=fold&sort=date',
    '/workspaces',
    '/workspaces/7f0c6c1e-8d7b-4a43-9a3f-1f6f1a0f0b11',
    '/profile',
    '/analytics',
    '/alerts',
    '/alerts/unsubscribe/AbCdEfGhIjKlMnOpQrSt',
    '/invitations/AbCdEfGhIjKlMnOpQrSt',
    '/auth/signin',
    '/auth/signup',
    '/auth/update-password?token=abc',
  ])(
    "answers %s with index.html, revalidated, under the app's CSP, without cookies",
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toBe(INDEX);
      expect(response.headers['cache-control']).toBe('no-cache');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['set-cookie']).toBeUndefined();
    },
  );

  it('sends the compressed copy a browser accepts, the plain file to a client that accepts none', async () => {
    const brotli = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(String(brotli.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(SCRIPT);
    const gzip = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    // The compressed copies are not URLs of their own.
    expect((await t.app.inject({ method: 'GET', url: '/index.html.br' })).statusCode).toBe(404);
  });

  it('serves a hashed asset as immutable for a year, and HEAD too', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(SCRIPT);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.etag).toBeTruthy();
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/index-Ab12Cd34.js' });
    expect(head.statusCode).toBe(200);
  });

  it('answers a revalidation of an asset with 304', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    const again = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("serves the public folder's files by name, revalidated, and not the build manifest", async () => {
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ method: 'GET', url: '/.vite/manifest.json' })).statusCode).toBe(
      404,
    );
  });

  it('answers a missing asset with a 404 and a path out of the build with a refusal, never a file', async () => {
    for (const url of [
      '/assets/missing-0000.js',
      '/assets/../index.html',
      '/nowhere',
      '/index.html.bak',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toBe(INDEX);
    }
    for (const url of [
      '/assets/..%2F..%2Fpackage.json',
      '/assets/..%2Findex.html',
      '/assets/%2e%2e/%2e%2e/package.json',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect([400, 403, 404], url).toContain(response.statusCode);
      expect(response.body, url).not.toContain('research-workspace');
      expect(response.body, url).not.toBe(INDEX);
    }
  });

  it("answers a browser's request for an unknown page with the app and a 404, so its own not-found page shows", async () => {
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    for (const url of ['/nowhere', '/dashbord?q=graphs', '/workspaces-old/list']) {
      const response = await t.app.inject({ method: 'GET', url, headers: browser });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.body, url).toBe(INDEX);
      expect(String(response.headers['content-security-policy'])).toContain("script-src 'self'");
      expect(response.headers['set-cookie'], url).toBeUndefined();
    }
    // An API client, another method, the server's own paths and a missing asset keep the JSON 404.
    const notPages = [
      { method: 'GET' as const, url: '/nowhere', headers: { accept: 'application/json' } },
      { method: 'GET' as const, url: '/nowhere', headers: {} },
      { method: 'POST' as const, url: '/nowhere', headers: browser },
      { method: 'GET' as const, url: '/api/nothing-here', headers: browser },
      { method: 'GET' as const, url: '/share/', headers: browser },
      { method: 'GET' as const, url: '/storage/nothing', headers: browser },
      { method: 'GET' as const, url: '/assets/missing-0000.js', headers: browser },
    ];
    for (const request of notPages) {
      const response = await t.app.inject(request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
      expect(response.body, `${request.method} ${request.url}`).not.toBe(INDEX);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/nothing-here', headers: browser })).json()
        .error.code,
    ).toBe('NOT_FOUND');
  });

  it('leaves /api/*, /share/*, /storage/* and /auth/callback to the server', async () => {
    const unknownApi = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(unknownApi.statusCode).toBe(404);
    expect(unknownApi.json().error.code).toBe('NOT_FOUND');
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    const share = await t.app.inject({ method: 'GET', url: '/share/not-a-real-token' });
    expect(share.statusCode).toBe(404);
    expect(share.body).not.toBe(INDEX);
    const storage = await t.app.inject({
      method: 'GET',
      url: '/storage/avatars/7f0c6c1e-8d7b-4a43-9a3f-1f6f1a0f0b11/1.png',
    });
    expect(storage.statusCode).toBe(404);
    expect(storage.body).not.toBe(INDEX);
    const callback = await t.app.inject({ method: 'GET', url: '/auth/callback?code=x&state=y' });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toContain('/auth/signin?error=oauth_state_mismatch');
  });

  it("keeps the app's files out of the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, unknown>;
    }>();
    expect(
      Object.keys(doc.paths).filter(
        (path) =>
          !path.startsWith('/api/') &&
          !path.startsWith('/share/') &&
          !path.startsWith('/storage/') &&
          path !== '/auth/callback' &&
          path !== '/metrics',
      ),
    ).toEqual([]);
  });
});

describe('the service without a built web app', () => {
  let t: TestApp;
  let empty: string;
  beforeAll(async () => {
    empty = mkdtempSync(join(tmpdir(), 'rw-web-none-'));
    t = await buildTestApp({ env: { WEB_DIST_DIR: join(empty, 'dist') } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it("says on the app's routes how to build it, and the API keeps working", async () => {
    for (const url of ['/', '/dashboard', '/auth/signin']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toContain('npm run build');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/nothing-here' })).json().error.code,
    ).toBe('NOT_FOUND');
    // No app to show for an unknown page either: the JSON 404.
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/nowhere',
      headers: { accept: 'text/html' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
  });
});
