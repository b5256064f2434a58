/**
 * What Node's HTTP parser decides before Fastify sees a request, on the real listening server: the
 * header size limit fits the documented summary parameters, and what it refuses (headers over the
 * limit, an unknown method) is answered in the error envelope.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** Sends raw bytes and resolves with everything the server wrote before closing (bounded in time). */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within 10 s; got: ${received.slice(0, 200)}`));
    }, 10_000);
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    // The server may close while the request is still being written: what it answered is what counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.write(request);
  });
}

function parseResponse(raw: string): { status: number; headers: string; body: string } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body };
}

describe('HTTP limits of the real server', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ env: { LOG_LEVEL: 'warn' } });
  }, 200_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('GET /api/summarize with a 20,000-character abstract of 3-byte characters is answered', async () => {
    const words = ['€uro', 'naïve', 'café', 'résumé', 'cœur', '∑igma', '→next', '漢字'];
    let abstract = '';
    for (let i = 0; abstract.length < 20_000; i++)
      abstract += `${words[i % words.length]}${i % 12 === 11 ? '. ' : ' '}`;
    abstract = abstract.slice(0, 20_000);
    const query = new URLSearchParams({ title: '€'.repeat(1000), abstract, mode: 'quick' });
    // Three times Node's default 16 KB limit.
    expect(query.toString().length).toBeGreaterThan(3 * 16 * 1024);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 20_000);
    const res = await fetch(`${server.url}/api/summarize?${query}`, { signal: controller.signal });
    const text = await res.text();
    clearTimeout(timer);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(text).toMatch(/^event: done$/m);
  });

  it('headers over the limit → 431 in the error envelope', async () => {
    const raw = await rawExchange(
      server.port,
      `GET /api/workspaces HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${'a'.repeat(300 * 1024)}\r\n\r\n`,
    );
    const { status, headers, body } = parseResponse(raw);
    expect(status).toBe(431);
    expect(headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body)).toEqual({
      error: { code: 'HEADERS_TOO_LARGE', message: 'Request headers are too large' },
    });
  });

  it.each(['FOO', 'PROPFIND', 'BREW'])(
    'an unknown method (%s) → 404 in the error envelope',
    async (method) => {
      const raw = await rawExchange(
        server.port,
        `${method} /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
      const { status, body } = parseResponse(raw);
      expect(status).toBe(404);
      expect(JSON.parse(body).error.code).toBe('NOT_FOUND');
    },
  );
});
