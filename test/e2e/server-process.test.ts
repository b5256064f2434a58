/**
 * The built-process helper itself: it starts the compiled service, which answers and stops on SIGTERM;
 * here on an empty data directory, where the process creates and migrates its embedded database (other
 * tests start from a copy of a migrated one).
 */
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.js';

describe('startServerProcess', () => {
  it('runs the compiled service on a new embedded database, which answers health and exits 0 on SIGTERM', async () => {
    const server = await startServerProcess({ database: 'empty' });
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    // The migrations ran: a sign-up is stored.
    const signup = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `fresh-${Date.now()}@example.org`,
        password: 'migrated-at-start',
        name: 'Fresh',
      }),
    });
    expect(signup.status).toBe(201);
    expect(await server.stop('SIGTERM')).toBe(0);
  }, 240_000);
});

describe('npm start on another port', () => {
  it('hands out URLs on the port it listens on and says where it is in the start log', async () => {
    const server = await startServerProcess({ env: { LOG_LEVEL: 'info' } });
    try {
      const expected = `http://localhost:${server.port}`;
      const openapi = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
        servers: Array<{ url: string }>;
      };
      expect(openapi.servers[0]!.url).toBe(expected);
      const ready = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; publicUrl?: string; listening?: string })
        .find((line) => line.msg.includes('ready'));
      expect(ready?.publicUrl).toBe(expected);
      expect(ready?.listening).toBe(server.url);
      expect(ready?.msg).toContain(`${expected}/api/docs`);
    } finally {
      await server.stop();
    }
  }, 240_000);
});
