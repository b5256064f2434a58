/**
 * The one outbound HTTP client. Every request the service makes to the outside world goes through
 * here, so that every call has a deadline, a size cap, re-checked redirects and a guard against
 * requests to loopback, private, link-local and metadata addresses (unless explicitly allowed).
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request as undiciRequest } from 'undici';

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
  ) {
    super(message);
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

export interface OutboundOptions {
  allowPrivate: boolean;
  /** `host:port` pairs on private addresses that may be called even when `allowPrivate` is false (e.g. an internal cache). */
  allowedPrivateHosts?: string[];
  userAgent: string;
  defaultTimeoutMs?: number;
  defaultMaxBytes?: number;
}

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

/** True when an address is one the service must never call: loopback, private, link-local (incl. cloud metadata), etc. */
export function isBlockedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return BLOCKED_RANGES.has(parsed.range());
}

function guardedLookup(
  hostname: string,
  options: object,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const blocked = list.find((a) => isBlockedAddress(a.address));
    if (blocked) {
      const error = new OutboundError('blocked_address', `Refusing to connect to ${hostname}: address not allowed`);
      return callback(error as unknown as NodeJS.ErrnoException, []);
    }
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, list);
    const first = list[0];
    if (!first) return callback(new Error(`No address for ${hostname}`) as NodeJS.ErrnoException, []);
    callback(null, first.address, first.family);
  });
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
  if (url.username || url.password) throw new OutboundError('bad_url', 'URLs with credentials are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && !allowedHosts.has(url.host)) {
    if (isIP(host) && isBlockedAddress(host)) {
      throw new OutboundError('blocked_address', `Refusing to connect to ${host}: address not allowed`);
    }
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) {
      throw new OutboundError('blocked_address', `Refusing to connect to ${host}: address not allowed`);
    }
  }
  return url;
}

function toHeaderRecord(headers: Record<string, string | string[] | undefined>): Record<string, string> {
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
  const dispatcher = new Agent({
    connect: options.allowPrivate ? {} : { lookup: guardedLookup as never },
    keepAliveTimeout: 10_000,
    connections: 64,
  });

  async function request(rawUrl: string, req: OutboundRequest = {}): Promise<OutboundResponse> {
    const timeoutMs = req.timeoutMs ?? defaultTimeoutMs;
    const maxBytes = req.maxBytes ?? defaultMaxBytes;
    const maxRedirects = req.maxRedirects ?? 5;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([deadline, req.signal]) : deadline;
    const failure = (error: unknown): OutboundError => {
      if (error instanceof OutboundError) return error;
      if (deadline.aborted) return new OutboundError('timeout', `Request timed out after ${timeoutMs} ms`);
      if (req.signal?.aborted) return new OutboundError('aborted', 'Request aborted');
      const cause = (error as { cause?: unknown })?.cause;
      if (cause instanceof OutboundError) return cause;
      return new OutboundError('network', error instanceof Error ? error.message : 'Network error');
    };

    let url = checkUrl(rawUrl, options.allowPrivate, allowedHosts);
    let method = req.method ?? 'GET';
    let body = req.body;
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<typeof undiciRequest>>;
      try {
        res = await undiciRequest(url, {
          method,
          dispatcher,
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
        if (hop >= maxRedirects) throw new OutboundError('too_many_redirects', 'Too many redirects');
        url = checkUrl(new URL(headers.location, url).toString(), options.allowPrivate, allowedHosts);
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
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

  return { request, close: () => dispatcher.close() };
}
