/**
 * The summary caches: keyed by what was summarised, seven days (docs/design.md, Limits). Looked up in
 * the shared store first (the KV REST store when configured, else Redis), then in an in-process LRU
 * bounded in entries and bytes. Failures are never cached; a shared-store outage degrades to memory.
 * Identical requests in flight at once are computed once.
 *
 * A value is decoded once, not on every hit: the in-process LRU keeps each entry's JSON text beside
 * its decoded value, so a memory hit does no parsing, and a shared-store hit whose text is the one
 * this process stored reuses that value. Hits share that value, so it is frozen: no caller can change
 * it for the others.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Cache } from '../platform/cache.js';

export const SUMMARY_TTL_SECONDS = 7 * 24 * 3600;

export type CacheSource = 'kv' | 'memory';

export interface CacheHit<T> {
  value: T;
  from: CacheSource;
}

export interface SummaryCache {
  /** What is configured, for the stream's `meta.cache`: `kv+memory` or `memory`. */
  readonly description: string;
  /** The value is frozen (hits may share it). */
  get<T>(key: string): Promise<CacheHit<T> | null>;
  set<T>(key: string, value: T): Promise<void>;
  /** Runs `compute` once for concurrent callers of the same key. */
  once<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

/**
 * What a summary is made from, and so what its cache key must name: a quick summary is made from the
 * title and the text (abstract or content); a deep one from the title and the PDF that the record's
 * id, source and client-supplied url, pdfUrl, arXiv id and DOI lead to. A key names all of it, so a caller who sends a record's
 * id with an abstract or a url of their own gets an entry of their own, never the one everybody else
 * is served for that id: a caller cannot plant a summary for everyone else.
 */
export type SummaryInput =
  | { mode: 'quick' | 'deep'; title?: string; text: string }
  /**
   * A stored PDF of a resource the caller may read (the route checked it), named by the file's
   * SHA-256 the server read: its own key space, `…:stored:…`, that no request naming a record reaches,
   * so knowing a file's hash never reads the summary of someone else's private PDF.
   */
  | { mode: 'deep'; title?: string; storedPdfSha256: string }
  | {
      mode: 'deep';
      title?: string;
      pdf: {
        id?: string;
        source?: string;
        url?: string;
        pdfUrl?: string;
        arxivId?: string;
        doi?: string;
      };
    };

/**
 * `summary:v2:<mode>:<text|pdf|stored>:<sha-256 of the input>`. v1 keys (`<id or title>:<mode>`) named only
 * the record, so entries stored under them may hold another caller's text: they are never read again.
 */
export function summaryCacheKey(input: SummaryInput): string {
  const title = input.title ?? '';
  const [kind, parts] =
    'storedPdfSha256' in input
      ? ['stored', [title, input.storedPdfSha256]]
      : 'pdf' in input
        ? ['pdf', pdfParts(title, input.pdf)]
        : ['text', [title, input.text]];
  // JSON keeps the parts apart: ["a b", ""] and ["a", "b"] are different inputs.
  return `summary:v2:${input.mode}:${kind}:${sha256(JSON.stringify(parts))}`;
}

/** A PDF's parts: the record, and what else it names of its PDF only when it names any (so keys of records naming none stay as they were). */
function pdfParts(title: string, pdf: Extract<SummaryInput, { pdf: unknown }>['pdf']): string[] {
  const record = [
    title,
    pdf.id?.trim() ?? '',
    pdf.source?.trim().toLowerCase() ?? '',
    pdf.url?.trim() ?? '',
  ];
  const named = [
    pdf.pdfUrl?.trim() ?? '',
    pdf.arxivId?.trim() ?? '',
    pdf.doi?.trim().toLowerCase() ?? '',
  ];
  return named.some(Boolean) ? [...record, ...named] : record;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

interface MemoryEntry {
  /** The JSON text, as stored in the shared store too. */
  text: string;
  memoryHit: CacheHit<unknown>;
  sharedHit: CacheHit<unknown>;
}

/** A decoded value shared by every hit: frozen all the way down, so no caller can change it for the others. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Bytes an entry holds, as UTF-16 (an upper bound): the key, the text and the decoded value (about as large as its text). */
function entryBytes(key: string, text: string): number {
  return 64 + key.length * 2 + text.length * 2 * 2;
}

export interface SummaryCacheOptions {
  shared?: Cache;
  memoryEntries?: number;
  memoryBytes?: number;
  /** What in-process lifetimes are measured by, in milliseconds (tests move it on). */
  clock?: { now(): number };
}

export function createSummaryCache(options: SummaryCacheOptions): SummaryCache {
  const memory = new LRUCache<string, MemoryEntry>({
    max: options.memoryEntries ?? 2000,
    maxSize: options.memoryBytes ?? 32 * 1024 * 1024,
    sizeCalculation: (entry, key) => entryBytes(key, entry.text),
    ...(options.clock ? { perf: options.clock } : {}),
  });
  const shared = options.shared;
  const inFlight = new Map<string, Promise<unknown>>();

  function fromShared(key: string, text: string): CacheHit<unknown> {
    // peek: a shared-store hit leaves the in-process entry's place in the LRU as it was.
    const local = memory.peek(key);
    if (local?.text === text) return local.sharedHit;
    return { value: deepFreeze(JSON.parse(text) as unknown), from: 'kv' };
  }

  return {
    description: shared ? 'kv+memory' : 'memory',
    async get<T>(key: string) {
      if (shared) {
        try {
          const hit = await shared.get(key);
          if (hit !== null) return fromShared(key, hit) as CacheHit<T>;
        } catch {
          // The shared store is down: memory still answers (health reports the outage).
        }
      }
      return (memory.get(key)?.memoryHit ?? null) as CacheHit<T> | null;
    },
    async set<T>(key: string, value: T) {
      const text = JSON.stringify(value);
      // Decoded from the text, so a hit answers exactly what a round trip through the shared store would.
      const decoded = deepFreeze(JSON.parse(text) as unknown);
      memory.set(
        key,
        {
          text,
          memoryHit: Object.freeze({ value: decoded, from: 'memory' }),
          sharedHit: Object.freeze({ value: decoded, from: 'kv' }),
        },
        { ttl: SUMMARY_TTL_SECONDS * 1000 },
      );
      if (shared) await shared.set(key, text, SUMMARY_TTL_SECONDS).catch(() => undefined);
    },
    once<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const running = inFlight.get(key) as Promise<T> | undefined;
      if (running) return running;
      const started = compute().finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
  };
}
