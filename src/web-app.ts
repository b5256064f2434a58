/**
 * The web app (web/, built by `vite build` into `config.webDistDir`) served at `/`: its hashed assets
 * under /assets/ (cached for a year, immutable), the files of its public folder (favicon…), and
 * index.html (never cached without revalidation) for every route the app itself draws (the SPA
 * fallback). Everything else stays the server's: /api/*, /share/*, /storage/*, /auth/callback. An
 * unknown URL is the API's JSON 404, except a browser's request for a page (unknownPage). Without a
 * build, the app's routes say how to make one (503) and the API still works.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC } from './platform/openapi.js';
import { PAGE_SECURITY_HEADERS } from './platform/page-headers.js';

/** The URLs the app's router draws; `/auth/callback` is more specific than `/auth/*` and stays the server's route. */
const APP_ROUTES = [
  '/',
  '/dashboard',
  '/library',
  '/workspaces',
  '/workspaces/*',
  '/profile',
  '/analytics',
  '/alerts',
  '/alerts/*',
  '/invitations/*',
  '/join/*',
  '/auth/*',
] as const;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

const PAGE_HEADERS = { 'cache-control': REVALIDATE, ...PAGE_SECURITY_HEADERS };

/** Where an unknown URL is the server's to answer, even when a browser asks for a page. */
const SERVER_PREFIXES = ['/api/', '/share/', '/storage/', '/assets/', '/auth/callback'];

/**
 * The answer to a browser's request for a page nobody serves (a mistyped or outdated address): the app,
 * with status 404, whose router shows its "page not found" with a way back, rather than the API's JSON.
 * A client that does not ask for HTML, a request that is not a GET, and the server's own paths keep
 * the JSON 404. Null when the app is not built.
 */
export function unknownPage(
  distDir: string,
): ((request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | null) | null {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return null;
  return (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (
      request.method !== 'GET' ||
      !request.headers.accept?.includes('text/html') ||
      SERVER_PREFIXES.some((prefix) => path.startsWith(prefix))
    )
      return null;
    // Read each time: a rebuild (new hashed assets) needs no restart, and a mistyped address is rare.
    return readFile(index, 'utf8').then((html) =>
      reply.status(404).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(html),
    );
  };
}

// Static files need no session: no credentials are read, no anonymous cookie is set, nothing is counted.
const routeConfig = { auth: 'none' as const, noCookies: true };
// Not part of the API document, and open to everyone (as every route that needs no session says).
const hidden = { hide: true, security: PUBLIC };

export async function webAppRoutes(
  app: FastifyInstance,
  options: { distDir: string },
): Promise<void> {
  const { distDir } = options;
  const built = existsSync(join(distDir, 'index.html'));
  if (!built) {
    const notBuilt = (_request: unknown, reply: FastifyReply) =>
      reply
        .status(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(
          `The web app is not built (no ${join(distDir, 'index.html')}).\nRun ` +
            `\`npm run build\` (or \`npm run build:web\`), then restart; \`npm ` +
            `start\` does both.\nThe API is at /api (reference: /api/docs).\n`,
        );
    for (const url of APP_ROUTES) app.get(url, { config: routeConfig, schema: hidden }, notBuilt);
    return;
  }

  // The build writes a .br and a .gz beside each text file; a browser that accepts one gets it.
  await app.register(fastifyStatic, {
    root: distDir,
    serve: false,
    cacheControl: false,
    etag: true,
    lastModified: true,
    preCompressed: true,
  });

  const page = (_request: unknown, reply: FastifyReply) =>
    reply.headers(PAGE_HEADERS).sendFile('index.html');
  for (const url of APP_ROUTES) app.get(url, { config: routeConfig, schema: hidden }, page);

  app.get<{ Params: { '*': string } }>(
    '/assets/*',
    { config: routeConfig, schema: hidden },
    (request, reply) =>
      reply
        .header('cache-control', IMMUTABLE)
        .header('x-content-type-options', 'nosniff')
        .sendFile(`assets/${request.params['*']}`),
  );

  // The public folder's files (favicon, robots.txt…) keep their names, so they are revalidated.
  for (const name of readdirSync(distDir)) {
    if (
      name.startsWith('index.html') ||
      name.startsWith('.') ||
      /\.(br|gz)$/.test(name) ||
      !statSync(join(distDir, name)).isFile()
    )
      continue;
    app.get(`/${name}`, { config: routeConfig, schema: hidden }, (_request, reply) =>
      reply
        .header('cache-control', REVALIDATE)
        .header('x-content-type-options', 'nosniff')
        .sendFile(name),
    );
  }
}
