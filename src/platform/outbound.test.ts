import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbound, isBlockedAddress, OutboundError } from './outbound.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ok') res.end('hello');
    else if (req.url === '/big') res.end(Buffer.alloc(5000, 97));
    else if (req.url === '/slow') setTimeout(() => res.end('late'), 2000);
    else if (req.url === '/redirect') res.writeHead(302, { location: '/ok' }).end();
    else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (req.url === '/to-metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    else res.writeHead(404).end('nope');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function failureOf(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OutboundError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('isBlockedAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['8.8.8.8', false],
    ['140.82.112.3', false],
    ['2606:4700:4700::1111', false],
  ])('%s → %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked);
  });
});

describe('outbound client', () => {
  const open = createOutbound({ allowPrivate: true, userAgent: 'rw-test' });
  const guarded = createOutbound({ allowPrivate: false, userAgent: 'rw-test' });
  afterAll(async () => {
    await open.close();
    await guarded.close();
  });

  it('returns status, headers and body, following redirects', async () => {
    const res = await open.request(`${base}/redirect`);
    expect(res.status).toBe(200);
    expect(res.text()).toBe('hello');
    expect(res.url).toBe(`${base}/ok`);
    expect((await open.request(`${base}/missing`)).status).toBe(404);
  });

  it('enforces the size cap while streaming', async () => {
    expect((await failureOf(open.request(`${base}/big`, { maxBytes: 1000 }))).kind).toBe('too_large');
  });

  it('enforces the deadline', async () => {
    expect((await failureOf(open.request(`${base}/slow`, { timeoutMs: 200 }))).kind).toBe('timeout');
  });

  it('stops redirect loops', async () => {
    expect((await failureOf(open.request(`${base}/loop`, { maxRedirects: 3 }))).kind).toBe('too_many_redirects');
  });

  it('refuses loopback, private and metadata addresses, also behind a redirect and a name', async () => {
    expect((await failureOf(guarded.request(`${base}/ok`))).kind).toBe('blocked_address');
    expect((await failureOf(guarded.request('http://169.254.169.254/latest/meta-data'))).kind).toBe('blocked_address');
    expect((await failureOf(guarded.request('http://localhost:1/'))).kind).toBe('blocked_address');
    expect((await failureOf(guarded.request('http://[::1]:1/'))).kind).toBe('blocked_address');
    const allowOne = createOutbound({ allowPrivate: false, allowedPrivateHosts: [new URL(base).host], userAgent: 'rw-test' });
    expect((await allowOne.request(`${base}/ok`)).text()).toBe('hello');
    expect((await failureOf(allowOne.request(`${base}/to-metadata`))).kind).toBe('blocked_address');
    await allowOne.close();
  });

  it('refuses non-HTTP schemes and credentials in URLs', async () => {
    expect((await failureOf(open.request('file:///etc/passwd'))).kind).toBe('bad_url');
    expect((await failureOf(open.request('http://user:pw@example.org/'))).kind).toBe('bad_url');
  });

  it('can be aborted by the caller', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect((await failureOf(open.request(`${base}/slow`, { signal: controller.signal, timeoutMs: 5000 }))).kind).toBe('aborted');
  });
});
