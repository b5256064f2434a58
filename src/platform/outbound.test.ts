import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuardedLookup,
  createOutbound,
  isBlockedAddress,
  OutboundError,
  type GuardedLookup,
} from './outbound.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ok') res.end('hello');
    else if (req.url === '/port') res.end(String(req.socket.remotePort));
    else if (req.url === '/big') res.end(Buffer.alloc(5000, 97));
    else if (req.url === '/slow') setTimeout(() => res.end('late'), 2000);
    else if (req.url === '/redirect') res.writeHead(302, { location: '/ok' }).end();
    else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (req.url === '/to-metadata')
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
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
    // IPv4-compatible (deprecated) addresses, as written and as URLs normalise them
    ['::127.0.0.1', true],
    ['::7f00:1', true],
    ['::a9fe:a9fe', true],
    ['::8.8.8.8', true],
    // discard prefix, site-local, NAT64, 6to4, Teredo
    ['100::1', true],
    ['100::ffff:1', true],
    ['fec0::1', true],
    ['64:ff9b::7f00:1', true],
    ['2002:7f00:1::1', true],
    ['2001::1', true],
    ['::ffff:8.8.8.8', false],
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
    expect((await failureOf(open.request(`${base}/big`, { maxBytes: 1000 }))).kind).toBe(
      'too_large',
    );
  });

  it('enforces the deadline', async () => {
    expect((await failureOf(open.request(`${base}/slow`, { timeoutMs: 200 }))).kind).toBe(
      'timeout',
    );
  });

  it('stops redirect loops', async () => {
    expect((await failureOf(open.request(`${base}/loop`, { maxRedirects: 3 }))).kind).toBe(
      'too_many_redirects',
    );
  });

  it('refuses loopback, private and metadata addresses, also behind a redirect and a name', async () => {
    expect((await failureOf(guarded.request(`${base}/ok`))).kind).toBe('blocked_address');
    expect((await failureOf(guarded.request('http://169.254.169.254/latest/meta-data'))).kind).toBe(
      'blocked_address',
    );
    expect((await failureOf(guarded.request('http://localhost:1/'))).kind).toBe('blocked_address');
    expect((await failureOf(guarded.request('http://[::1]:1/'))).kind).toBe('blocked_address');
    expect((await failureOf(guarded.request('http://[::127.0.0.1]:1/'))).kind).toBe(
      'blocked_address',
    );
    expect((await failureOf(guarded.request('http://[100::1]:1/'))).kind).toBe('blocked_address');
    const allowOne = createOutbound({
      allowPrivate: false,
      allowedPrivateHosts: [new URL(base).host],
      userAgent: 'rw-test',
    });
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
    expect(
      (
        await failureOf(
          open.request(`${base}/slow`, { signal: controller.signal, timeoutMs: 5000 }),
        )
      ).kind,
    ).toBe('aborted');
  });
});

/** Runs a lookup the way `net.connect` does (all addresses), as a promise. */
function lookupAll(
  lookup: GuardedLookup,
  hostname: string,
  family?: number,
): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true, ...(family ? { family } : {}) }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses as LookupAddress[]);
    });
  });
}

/** A resolver answering from a table that a test can change, counting what it was asked. */
function fakeResolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    asked.push(hostname);
    await new Promise((done) => setTimeout(done, 5));
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked, table };
}

describe('guarded lookup (DNS cache)', () => {
  it('refuses a name that resolves to a private address, every time, without remembering the refusal', async () => {
    const dns = fakeResolver({
      'rebind.example': ['93.184.216.34', '10.0.0.7'],
      'metadata.example': ['169.254.169.254'],
    });
    const lookup = createGuardedLookup({ resolve: dns.resolve });
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(lookupAll(lookup, 'rebind.example')).rejects.toMatchObject({
        kind: 'blocked_address',
      });
      await expect(lookupAll(lookup, 'metadata.example')).rejects.toMatchObject({
        kind: 'blocked_address',
      });
    }
    expect(dns.asked).toEqual([
      'rebind.example',
      'metadata.example',
      'rebind.example',
      'metadata.example',
    ]);
  });

  it('reuses a checked answer until it expires, then resolves and checks again', async () => {
    let now = 1_000_000;
    const dns = fakeResolver({ 'api.example': ['93.184.216.34'] });
    const lookup = createGuardedLookup({ resolve: dns.resolve, ttlMs: 30_000, now: () => now });
    expect(await lookupAll(lookup, 'api.example')).toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    now += 29_999;
    expect(await lookupAll(lookup, 'API.example')).toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    expect(dns.asked).toEqual(['api.example']);

    // After the TTL the name is resolved again, and a now-private answer is refused (no stale allowance).
    now += 2;
    dns.table['api.example'] = ['127.0.0.1'];
    await expect(lookupAll(lookup, 'api.example')).rejects.toMatchObject({
      kind: 'blocked_address',
    });
    expect(dns.asked).toEqual(['api.example', 'api.example']);
  });

  it('shares one resolution among lookups in flight, and does not remember failures', async () => {
    const dns = fakeResolver({ 'api.example': ['93.184.216.34', '2606:4700:4700::1111'] });
    const lookup = createGuardedLookup({ resolve: dns.resolve });
    const [a, b] = await Promise.all([
      lookupAll(lookup, 'api.example'),
      lookupAll(lookup, 'api.example', 6),
    ]);
    expect(a).toHaveLength(2);
    expect(b).toEqual([{ address: '2606:4700:4700::1111', family: 6 }]);
    expect(dns.asked).toEqual(['api.example']);

    await expect(lookupAll(lookup, 'missing.example')).rejects.toThrow(/ENOTFOUND/);
    dns.table['missing.example'] = ['93.184.216.35'];
    expect(await lookupAll(lookup, 'missing.example')).toEqual([
      { address: '93.184.216.35', family: 4 },
    ]);
  });

  it('answers the single-address form too', async () => {
    const lookup = createGuardedLookup({
      resolve: fakeResolver({ 'api.example': ['93.184.216.34'] }).resolve,
    });
    const single = await new Promise<[string, number | undefined]>((resolve, reject) =>
      lookup('api.example', {}, (error, address, family) =>
        error ? reject(error) : resolve([address as string, family]),
      ),
    );
    expect(single).toEqual(['93.184.216.34', 4]);
  });
});

describe('outbound client: names, allowances and connections', () => {
  it('refuses a name that resolves to loopback unless its host:port is allowed, resolving it once', async () => {
    const port = new URL(base).port;
    const dns = fakeResolver({ 'fixtures.test': ['127.0.0.1'] });
    const guarded = createOutbound({
      allowPrivate: false,
      userAgent: 'rw-test',
      resolveHost: dns.resolve,
    });
    expect((await failureOf(guarded.request(`http://fixtures.test:${port}/ok`))).kind).toBe(
      'blocked_address',
    );
    await guarded.close();

    const allowed = createOutbound({
      allowPrivate: false,
      allowedPrivateHosts: [`fixtures.test:${port}`],
      userAgent: 'rw-test',
      resolveHost: dns.resolve,
    });
    dns.asked.length = 0;
    const [first, second] = await Promise.all([
      allowed.request(`http://fixtures.test:${port}/ok`),
      allowed.request(`http://fixtures.test:${port}/ok`),
    ]);
    expect([first.text(), second.text()]).toEqual(['hello', 'hello']);
    // Two connections at once, one resolution.
    expect(dns.asked).toEqual(['fixtures.test']);
    // The allowance is for that port only.
    expect((await failureOf(allowed.request('http://fixtures.test:1/ok'))).kind).toBe(
      'blocked_address',
    );
    await allowed.close();
  });

  it('keeps an idle connection while the server announces it will (minus 1 s, not 2 s)', async () => {
    const shortLived = createServer((req, res) => res.end(String(req.socket.remotePort)));
    // Node announces `Keep-Alive: timeout=2`: undici keeps the connection 1 s (its default margin, 2 s, left none).
    shortLived.keepAliveTimeout = 2_000;
    await new Promise<void>((resolve) => shortLived.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(shortLived.address() as AddressInfo).port}`;
    const client = createOutbound({ allowPrivate: true, userAgent: 'rw-test' });
    try {
      const first = (await client.request(`${origin}/`)).text();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = (await client.request(`${origin}/`)).text();
      expect(second).toBe(first);
    } finally {
      await client.close();
      shortLived.closeAllConnections();
      await new Promise((resolve) => shortLived.close(resolve));
    }
  });
});
