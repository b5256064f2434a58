/**
 * The one outbound HTTP client. Every request the service makes to the outside world goes through
 * here, so that every call has a deadline, a size cap, re-checked redirects and a guard against
 * requests to loopback, private, link-local and metadata addresses (unless explicitly allowed).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type * as Undici from 'undici';
import { describeError } from './error-causes.js';

// On Node 20 (built-in fetch is undici 6) Node's fetch must claim the global dispatcher before undici 7
// loads and claims it (arctic's OAuth fetch then fails, "invalid content-length header"): reading the
// lazy `Headers` global loads Node's fetch first. This client always passes its own Agents.
void globalThis.Headers;
const { Agent, request: undiciRequest } = await import('undici');
type Agent = Undici.Agent;

export type OutboundErrorKind =
  | 'timeout'
  | 'too_large'
  | 'blocked_address'
  | 'network'
  | 'bad_url'
  | 'too_many_redirects'
  | 'aborted';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OutboundError';
  }
}

export interface OutboundRequest {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Whole-request deadline (connect, redirects and body). */
  timeoutMs?: number;
  /** Largest body accepted; a larger one fails with kind `too_large` while streaming. */
  maxBytes?: number;
  /** Aborts the request (e.g. when the client that asked for it disconnects). */
  signal?: AbortSignal;
  /** Redirects followed (each target re-checked against the address guard). Default 5. */
  maxRedirects?: number;
}

export interface OutboundResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The final URL after redirects. */
  url: string;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

export interface Outbound {
  /** Resolves for any HTTP status; rejects only with an OutboundError. */
  request(url: string, options?: OutboundRequest): Promise<OutboundResponse>;
}

/**
 * The User-Agent of this service's outbound requests, defined here only: the product and, given the
 * operator's contact (CONTACT_EMAIL), a `mailto:` so that APIs with a polite pool can reach them.
 */
export function serviceUserAgent(contactEmail?: string): string {
  return `ResearchWorkspace/0.1${contactEmail ? ` (mailto:${contactEmail})` : ''}`;
}

export interface OutboundOptions {
  allowPrivate: boolean;
  /** `host:port` pairs on private addresses that may be called even when `allowPrivate` is false (e.g. an internal cache). */
  allowedPrivateHosts?: string[];
  userAgent: string;
  defaultTimeoutMs?: number;
  defaultMaxBytes?: number;
  /** Resolves a host name to its addresses (default: the system resolver); tests replace it. */
  resolveHost?: ResolveHost;
  /** How long a checked DNS answer is reused for new connections (default DNS_CACHE_TTL_MS). */
  dnsCacheTtlMs?: number;
}

export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

/** How long a host's checked addresses are reused before it is resolved (and checked) again. */
const DNS_CACHE_TTL_MS = 30_000;
/** Hosts remembered at once; the oldest answer makes room. The service calls a handful. */
const DNS_CACHE_MAX_HOSTS = 256;

const BLOCKED_RANGES = new Set([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'private',
  'reserved',
  'uniqueLocal',
  'carrierGradeNat',
  'ipv4Mapped',
  'rfc6145',
  'rfc6052',
  '6to4',
  'teredo',
  'benchmarking',
  'amt',
  'as112',
  'deprecated',
  'orchid2',
  'droneRemoteIdProtocolEntityTags',
]);

/** Global unicast IPv6 (2000::/3): everything outside it is loopback, local, translated or reserved. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * True when an address is one the service must never call: loopback, private, link-local (incl. cloud
 * metadata), etc. An IPv6 address must be global unicast (2000::/3) outside the special ranges: a
 * blocklist alone let through IPv4-compatible addresses (`::127.0.0.1`, which URLs spell `::7f00:1`)
 * and the discard prefix 100::/64. IPv4-mapped addresses are judged as the IPv4 address they carry.
 */
export function isBlockedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  // ipaddr.js reads the dotted form `::a.b.c.d` as IPv4-mapped (::ffff:a.b.c.d); the URL parser's
  // canonical hex form (`::808:808`) keeps IPv4-compatible and mapped addresses apart.
  let parsed = ipaddr.parse(
    address.includes(':') && address.includes('.') ? canonicalIPv6(address) : address,
  );
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return true;
  return BLOCKED_RANGES.has(parsed.range());
}

function canonicalIPv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;
/** The `lookup` of `net.connect`, as undici passes it on. */
export type GuardedLookup = (
  hostname: string,
  options: { family?: number | string; all?: boolean },
  callback: LookupCallback,
) => void;

export interface GuardedLookupOptions {
  resolve?: ResolveHost;
  ttlMs?: number;
  now?: () => number;
  /** False only for the connections to `allowedPrivateHosts`, whose addresses are private by design. */
  refuseBlockedAddresses?: boolean;
}

const systemResolve: ResolveHost = (hostname) => dnsLookup(hostname, { all: true });

/**
 * The lookup every outbound connection uses: resolves the name and refuses it when any of its addresses
 * is one the service must not call, so the address checked is the address connected to. An allowed
 * answer is remembered for `ttlMs`: a new connection to a provider (its keep-alive connection expired,
 * or several requests at once) does not wait for the resolver again. Lookups of one name in flight
 * share one resolution. Refusals and failures are not remembered, so they are checked afresh each time.
 */
export function createGuardedLookup(options: GuardedLookupOptions = {}): GuardedLookup {
  const resolve = options.resolve ?? systemResolve;
  const ttlMs = options.ttlMs ?? DNS_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const refuseBlocked = options.refuseBlockedAddresses ?? true;
  const answers = new Map<string, { addresses: LookupAddress[]; expiresAt: number }>();
  const inFlight = new Map<string, Promise<LookupAddress[]>>();

  function checkedAddresses(hostname: string): Promise<LookupAddress[]> {
    const key = hostname.toLowerCase();
    const known = answers.get(key);
    if (known && known.expiresAt > now()) return Promise.resolve(known.addresses);
    answers.delete(key);
    const pending = inFlight.get(key);
    if (pending) return pending;
    const resolution = resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0)
          throw new OutboundError('network', `No address for ${hostname}`);
        if (refuseBlocked && addresses.some((entry) => isBlockedAddress(entry.address))) {
          throw new OutboundError(
            'blocked_address',
            `Refusing to connect to ${hostname}: address not allowed`,
          );
        }
        if (answers.size >= DNS_CACHE_MAX_HOSTS)
          answers.delete(answers.keys().next().value as string);
        answers.set(key, { addresses, expiresAt: now() + ttlMs });
        return addresses;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, resolution);
    return resolution;
  }

  return (hostname, lookupOptions, callback) => {
    checkedAddresses(hostname).then(
      (addresses) => {
        const family = familyOf(lookupOptions.family);
        const usable = family ? addresses.filter((entry) => entry.family === family) : addresses;
        const first = usable[0];
        if (!first)
          return callback(
            new OutboundError('network', `No IPv${family} address for ${hostname}`),
            [],
          );
        if (lookupOptions.all) return callback(null, usable);
        callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, []),
    );
  };
}

function familyOf(family: number | string | undefined): 4 | 6 | undefined {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return undefined;
}

function checkUrl(raw: string, allowPrivate: boolean, allowedHosts: ReadonlySet<string>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('bad_url', 'Invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('bad_url', `Unsupported URL scheme: ${url.protocol}`);
  }
  if (url.username || url.password)
    throw new OutboundError('bad_url', 'URLs with credentials are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && !allowedHosts.has(url.host)) {
    if (isIP(host) && isBlockedAddress(host)) {
      throw new OutboundError(
        'blocked_address',
        `Refusing to connect to ${host}: address not allowed`,
      );
    }
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) {
      throw new OutboundError(
        'blocked_address',
        `Refusing to connect to ${host}: address not allowed`,
      );
    }
  }
  return url;
}

function toHeaderRecord(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Drops a response body we will not read; destroying it without a listener would raise an uncaught abort. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

export function createOutbound(options: OutboundOptions): Outbound & { close(): Promise<void> } {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 10_000;
  const defaultMaxBytes = options.defaultMaxBytes ?? 10 * 1024 * 1024;
  const allowedHosts = new Set(options.allowedPrivateHosts ?? []);
  const lookupOptions = { resolve: options.resolveHost, ttlMs: options.dnsCacheTtlMs };
  // One keep-alive pool per origin (undici's Agent), so a search reuses the connections of the last one.
  const agentFor = (lookup: GuardedLookup | undefined): Agent =>
    new Agent({
      connect: lookup ? { lookup } : {},
      keepAliveTimeout: 10_000,
      // undici keeps an idle connection for the server's announced keep-alive minus this margin (default
      // 2 s: a Node server's `timeout=5` gave 3 s, so connections to it closed between searches 3 s apart).
      keepAliveTimeoutThreshold: 1_000,
      connections: 64,
    });
  const guarded = agentFor(options.allowPrivate ? undefined : createGuardedLookup(lookupOptions));
  // The allowed `host:port` pairs get their own agent, whose lookup does not refuse private addresses:
  // a lookup sees only the name, and the allowance is for one port of it.
  const allowed =
    !options.allowPrivate && allowedHosts.size > 0
      ? agentFor(createGuardedLookup({ ...lookupOptions, refuseBlockedAddresses: false }))
      : guarded;
  const dispatcherFor = (url: URL): Agent => (allowedHosts.has(url.host) ? allowed : guarded);

  async function request(rawUrl: string, req: OutboundRequest = {}): Promise<OutboundResponse> {
    const timeoutMs = req.timeoutMs ?? defaultTimeoutMs;
    const maxBytes = req.maxBytes ?? defaultMaxBytes;
    const maxRedirects = req.maxRedirects ?? 5;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([deadline, req.signal]) : deadline;
    const failure = (error: unknown): OutboundError => {
      if (error instanceof OutboundError) return error;
      if (deadline.aborted)
        return new OutboundError('timeout', `Request timed out after ${timeoutMs} ms`);
      if (req.signal?.aborted) return new OutboundError('aborted', 'Request aborted');
      const cause = (error as { cause?: unknown })?.cause;
      if (cause instanceof OutboundError) return cause;
      // The message names the causes too ("fetch failed" alone says nothing): it reaches the warnings.
      return new OutboundError(
        'network',
        error === undefined ? 'Network error' : describeError(error),
        { cause: error },
      );
    };

    let url = checkUrl(rawUrl, options.allowPrivate, allowedHosts);
    let method = req.method ?? 'GET';
    let body = req.body;
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<typeof undiciRequest>>;
      try {
        res = await undiciRequest(url, {
          method,
          dispatcher: dispatcherFor(url),
          signal,
          body,
          headers: { 'user-agent': options.userAgent, ...req.headers },
        });
      } catch (error) {
        throw failure(error);
      }
      const headers = toHeaderRecord(res.headers);
      if (res.statusCode >= 300 && res.statusCode < 400 && headers.location) {
        discard(res.body);
        if (hop >= maxRedirects)
          throw new OutboundError('too_many_redirects', 'Too many redirects');
        url = checkUrl(
          new URL(headers.location, url).toString(),
          options.allowPrivate,
          allowedHosts,
        );
        if (
          res.statusCode === 303 ||
          ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')
        ) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        discard(res.body);
        throw new OutboundError('too_large', `Response larger than ${maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) {
            discard(res.body);
            throw new OutboundError('too_large', `Response larger than ${maxBytes} bytes`);
          }
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        throw failure(error);
      }
      const buffer = Buffer.concat(chunks, size);
      const finalUrl = url.toString();
      return {
        status: res.statusCode,
        headers,
        url: finalUrl,
        body: buffer,
        text: () => buffer.toString('utf8'),
        json: <T>() => JSON.parse(buffer.toString('utf8')) as T,
      };
    }
  }

  return {
    request,
    close: async () => {
      await Promise.all([...new Set([guarded, allowed])].map((agent) => agent.close()));
    },
  };
}
