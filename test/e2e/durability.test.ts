/**
 * The real server process on the embedded database: what it committed survives `kill -9`. The data
 * directory starts with the run's migrated database (test/support/server-process.ts): what is at
 * stake is what the process writes, not the migration at start (test/e2e/server-process.test.ts
 * starts one from an empty directory).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import {
  freePort,
  seedMigratedDatabase,
  startServerProcess,
  type ServerProcess,
} from '../support/server-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'rw-durable-'));
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('durability on the embedded database', () => {
  it('keeps a committed sign-up across kill -9 and a restart', async () => {
    await seedMigratedDatabase(dataDir);
    // The test's own data directory, which a stop leaves in place, and one port for both starts.
    const env = { DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: 'warn' };
    server = await startServerProcess({ env });
    const base = server.url;
    const email = `durable-${Date.now()}@example.org`;
    const signup = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'survives-kill-9', name: 'Durable' }),
    });
    expect(signup.status).toBe(201);
    const signin = await fetch(`${base}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'survives-kill-9' }),
    });
    const { session } = (await signin.json()) as ApiSchema<'SignInResult'>;
    const update = await fetch(`${base}/api/profile`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${session.access_token}`,
      },
      body: JSON.stringify({ bio: 'committed before the crash' }),
    });
    expect(update.status).toBe(200);

    await server.stop('SIGKILL');

    server = await startServerProcess({ env });
    const again = await fetch(`${base}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'survives-kill-9' }),
    });
    expect(again.status).toBe(200);
    const token = ((await again.json()) as ApiSchema<'SignInResult'>).session.access_token;
    const profile = await fetch(`${base}/api/profile`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await profile.json()) as ApiSchema<'ProfileReply'>).profile.bio).toBe(
      'committed before the crash',
    );
    // The access token from before the crash is still valid: the signing secret persisted in DATA_DIR.
    const old = await fetch(`${base}/api/auth/session`, {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(old.status).toBe(200);
  }, 120_000);
});
