import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from './db/client.js';
import { migratedPgliteTemplate } from '../../test/support/pglite-template.js';

/** The service with its own logger settings, writing to an array of parsed lines. */
async function appLoggingAt(level: string, addRoutes?: (app: FastifyInstance) => void) {
  const dataDir = mkdtempSync(join(tmpdir(), 'rw-log-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: level,
  });
  const database = await openDatabase({
    pgliteDir: 'memory://',
    pgliteFrom: await migratedPgliteTemplate(),
  });
  const lines: Array<Record<string, unknown>> = [];
  const app = await buildApp(config, {
    platformOverrides: { database },
    logStream: { write: (line) => void lines.push(JSON.parse(line)) },
  });
  addRoutes?.(app);
  await app.ready();
  const close = async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { app, lines, close };
}

describe('request logging', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('writes each request line with its request id, and redacts tokens in URLs', async () => {
    const logged = await appLoggingAt('info');
    close = logged.close;
    const res = await logged.app.inject({
      method: 'GET',
      url: '/api/auth/reset-password?token=secret-token-value',
    });
    const requestId = res.headers['x-request-id'];
    const mine = logged.lines.filter((line) => line.reqId === requestId);
    expect(mine.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(JSON.stringify(logged.lines)).not.toContain('secret-token-value');
    expect((mine[0]?.req as { url: string }).url).toContain('token=[redacted]');
  });

  it("redacts share-link and invitation tokens in paths, the API's and the app's (its join page too)", async () => {
    const logged = await appLoggingAt('info');
    close = logged.close;
    const urls = [
      '/share/share-secret-1',
      '/api/invitations/invite-secret-2',
      '/api/invitations/invite-secret-3/accept',
      '/invitations/invite-secret-4',
      '/api/share/share-secret-5/join',
      '/join/share-secret-6',
    ];
    for (const url of urls) {
      await logged.app.inject({
        method: url.endsWith('/accept') || url.endsWith('/join') ? 'POST' : 'GET',
        url,
      });
    }
    const written = JSON.stringify(logged.lines);
    for (const secret of [
      'share-secret-1',
      'invite-secret-2',
      'invite-secret-3',
      'invite-secret-4',
      'share-secret-5',
      'share-secret-6',
    ])
      expect(written).not.toContain(secret);
    expect(written).toContain('/api/invitations/[redacted]/accept');
    expect(written).toContain('/api/share/[redacted]/join');
    expect(written).toContain('/join/[redacted]');
  });

  it('writes nothing for a plain request at warn, and still writes what a request logs at warn with its id', async () => {
    const logged = await appLoggingAt('warn', (app) =>
      app.get('/test/warns', { config: { auth: 'none' } }, async (request) => {
        request.log.warn({ detail: 42 }, 'something to look at');
        return { ok: true };
      }),
    );
    close = logged.close;
    await logged.app.inject({ method: 'GET', url: '/api/health' });
    expect(logged.lines.filter((line) => line.reqId)).toEqual([]);

    const res = await logged.app.inject({ method: 'GET', url: '/test/warns' });
    const line = logged.lines.find((entry) => entry.msg === 'something to look at');
    expect(line).toMatchObject({ level: 40, detail: 42, reqId: res.headers['x-request-id'] });
  });

  it('keeps a route’s own level: no access-log line for health polls at info, a quiet route’s warnings and a verbose route’s debug lines', async () => {
    const logged = await appLoggingAt('info', (app) => {
      app.get('/test/quiet', { config: { auth: 'none' }, logLevel: 'warn' }, async (request) => {
        request.log.info('not written');
        request.log.warn('written');
        return { ok: true };
      });
      app.get('/test/verbose', { config: { auth: 'none' }, logLevel: 'debug' }, async (request) => {
        request.log.trace('not written');
        request.log.debug('written at debug');
        return { ok: true };
      });
    });
    close = logged.close;
    const poll = await logged.app.inject({ method: 'GET', url: '/api/health' });
    expect(poll.statusCode).toBe(200);
    expect(logged.lines.filter((line) => line.reqId === poll.headers['x-request-id'])).toEqual([]);

    const quiet = await logged.app.inject({ method: 'GET', url: '/test/quiet' });
    const mine = logged.lines.filter((line) => line.reqId === quiet.headers['x-request-id']);
    expect(mine.map((line) => [line.level, line.msg])).toEqual([[40, 'written']]);

    const verbose = await logged.app.inject({ method: 'GET', url: '/test/verbose' });
    const verboseLines = logged.lines.filter(
      (line) => line.reqId === verbose.headers['x-request-id'],
    );
    expect(verboseLines.map((line) => line.msg)).toEqual([
      'incoming request',
      'written at debug',
      'request completed',
    ]);

    const other = await logged.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(
      logged.lines
        .filter((line) => line.reqId === other.headers['x-request-id'])
        .map((line) => line.msg),
    ).toEqual(['incoming request', 'request completed']);
  });

  it('writes no access-log line for a route that says accessLog: false, and still writes what it logs at the server’s level and its errors, with its id', async () => {
    const logged = await appLoggingAt('info', (app) => {
      app.get(
        '/test/unlogged',
        { config: { auth: 'none', noCookies: true, accessLog: false } },
        async (request) => {
          request.log.info('written at info');
          return { ok: true };
        },
      );
      app.get(
        '/test/unlogged-failure',
        { config: { auth: 'none', noCookies: true, accessLog: false } },
        async () => {
          throw new Error('the failure to see');
        },
      );
    });
    close = logged.close;
    const res = await logged.app.inject({ method: 'GET', url: '/test/unlogged' });
    expect(res.statusCode).toBe(200);
    expect(
      logged.lines
        .filter((line) => line.reqId === res.headers['x-request-id'])
        .map((line) => [line.level, line.msg]),
    ).toEqual([[30, 'written at info']]);

    const failed = await logged.app.inject({ method: 'GET', url: '/test/unlogged-failure' });
    expect(failed.statusCode).toBe(500);
    const failureLines = logged.lines.filter(
      (line) => line.reqId === failed.headers['x-request-id'],
    );
    expect(failureLines.map((line) => line.msg)).not.toContain('incoming request');
    expect(JSON.stringify(failureLines)).toContain('the failure to see');
    expect(failureLines.every((line) => (line.level as number) >= 50)).toBe(true);
  });
});
