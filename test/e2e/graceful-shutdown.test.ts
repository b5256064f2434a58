/**
 * SIGTERM in the built process while kept-alive clients keep sending (as a proxy does until its
 * health check notices): readiness turns 503 at once, every request sent during the drain gets an
 * answer (200, or 503 for readiness) with `Connection: close`, none a reset or a refused connection,
 * and the process exits 0 when the drain is over.
 */
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.js';

const DRAIN_MS = 3000;
/** The clients stop sending this long after SIGTERM: well inside the drain, as a balancer that noticed would. */
const SEND_FOR_MS = 1500;
const CLIENTS = 4;

interface Outcome {
  path: string;
  status?: number;
  connection?: string;
  error?: string;
  at: number;
}

describe('graceful shutdown', () => {
  it('keeps answering kept-alive clients through the drain (readiness 503 at once, Connection: close), then exits 0', async () => {
    const server = await startServerProcess({ env: { SHUTDOWN_DRAIN_MS: String(DRAIN_MS) } });
    const agent = new Agent({
      keepAliveTimeout: 60_000,
      keepAliveMaxTimeout: 60_000,
      connections: CLIENTS,
      pipelining: 1,
    });
    const outcomes: Outcome[] = [];
    let signalledAt = Number.POSITIVE_INFINITY;
    let stopSending = false;
    const send = async (path: string) => {
      try {
        const res = await request(`${server.url}${path}`, { dispatcher: agent });
        await res.body.arrayBuffer();
        const connection = res.headers.connection;
        outcomes.push({
          path,
          status: res.statusCode,
          connection: typeof connection === 'string' ? connection : undefined,
          at: Date.now(),
        });
      } catch (error) {
        outcomes.push({
          path,
          error: (error as { code?: string }).code ?? String(error),
          at: Date.now(),
        });
      }
    };
    const client = async (n: number) => {
      while (!stopSending) await send(n % 2 === 0 ? '/api/health/live' : '/api/health/ready');
    };
    try {
      const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
      // Every client's connection is open and kept alive before the signal.
      await expect.poll(() => outcomes.length, { timeout: 10_000 }).toBeGreaterThan(CLIENTS * 5);
      const exited = server.stop('SIGTERM');
      signalledAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, SEND_FOR_MS));
      stopSending = true;
      await Promise.all(clients);
      const exitCode = await exited;
      const exitedAfter = Date.now() - signalledAt;

      const failures = outcomes.filter((o) => o.error !== undefined);
      expect(failures).toEqual([]);
      const after = outcomes.filter((o) => o.at > signalledAt + 300);
      expect(after.length).toBeGreaterThan(10);
      // Readiness 503 soon after the signal; everything else still served, each answer closing its connection.
      for (const o of after) {
        expect(o, JSON.stringify(o)).toMatchObject({
          status: o.path === '/api/health/ready' ? 503 : 200,
          connection: 'close',
        });
      }
      expect(outcomes.filter((o) => o.at < signalledAt).every((o) => o.status === 200)).toBe(true);
      expect(exitCode).toBe(0);
      expect(exitedAfter).toBeGreaterThanOrEqual(DRAIN_MS - SEND_FOR_MS - 100);
      expect(server.output()).toContain('shutting down: readiness answers 503');
    } finally {
      stopSending = true;
      await server.stop('SIGKILL');
      await agent.close();
    }
  }, 240_000);
});
