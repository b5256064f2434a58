import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from './db/client.js';
import { migratedPgliteTemplate } from '../../test/support/pglite-template.js';
import { users } from './db/schema.js';

const EMAIL = 'leak-check@example.org';
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$secret-hash-value';

describe('logged database errors', () => {
  let app: FastifyInstance;
  let database: Database;
  let dataDir: string;
  const lines: string[] = [];
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rw-errlog-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
    });
    database = await openDatabase({
      pgliteDir: 'memory://',
      pgliteFrom: await migratedPgliteTemplate(),
    });
    app = await buildApp(config, {
      platformOverrides: { database },
      logStream: { write: (line) => void lines.push(line) },
    });
    const db = app.ctx.db;
    // Two queries that fail inside the database, as a route's would: a value the column refuses, and a duplicate key.
    // Public routes (sign-in is required unless a route says otherwise).
    app.post('/test/bad-uuid', { config: { auth: 'none' } }, async () =>
      db.insert(users).values({
        id: 'not-a-uuid-but-a-secret',
        email: EMAIL,
        name: 'Leak',
        passwordHash: PASSWORD_HASH,
      }),
    );
    app.post('/test/duplicate', { config: { auth: 'none' } }, async () => {
      await db
        .insert(users)
        .values({ email: EMAIL, name: 'Leak', passwordHash: PASSWORD_HASH })
        .onConflictDoNothing();
      return db.insert(users).values({ email: EMAIL, name: 'Leak', passwordHash: PASSWORD_HASH });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['/test/bad-uuid', '/test/duplicate'])(
    '%s: a 500 whose log line names the query, not its parameters',
    async (url) => {
      lines.length = 0;
      const res = await app.inject({ method: 'POST', url });
      expect(res.statusCode).toBe(500);
      const failed = lines
        .map((line) => JSON.parse(line) as { msg?: string; err?: { message?: string } })
        .find((line) => line.msg === 'request failed');
      expect(failed?.err?.message).toMatch(/^Failed query: insert into "users"/);
      const text = lines.join('\n');
      for (const secret of [EMAIL, PASSWORD_HASH, 'secret-hash-value', 'not-a-uuid-but-a-secret'])
        expect(text).not.toContain(secret);
    },
  );
});
