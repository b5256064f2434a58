/**
 * The real server process on the embedded database: what it committed survives `kill -9`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'rw-durable-'));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
let child: ChildProcess | undefined;

async function startServer(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return proc;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  proc.kill('SIGKILL');
  throw new Error(`server did not start: ${stderr}`);
}

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('durability on the embedded database', () => {
  it('keeps a committed sign-up across kill -9 and a restart', async () => {
    child = await startServer();
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

    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));

    child = await startServer();
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
