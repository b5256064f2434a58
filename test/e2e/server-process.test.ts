/** The built-process helper itself: it starts the compiled service, which answers and stops on SIGTERM. */
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.js';

describe('startServerProcess', () => {
  it('runs the compiled service, which answers health and exits 0 on SIGTERM', async () => {
    const server = await startServerProcess();
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await server.stop('SIGTERM')).toBe(0);
  }, 240_000);
});
