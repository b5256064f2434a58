/**
 * The summary caches (spec §4.4 rule 5, §6, §8): key `<id or title>:<mode>`, seven days. Looked up in
 * the shared store first (the KV REST store when configured, else Redis), then in an in-process LRU
 * bounded in entries and bytes. Failures are never cached; a shared-store outage degrades to memory.
 * Identical requests in flight at once are computed once.
 */
import { createHash } from 'node:crypto';
import { createMemoryCache, type Cache } from '../platform/cache.js';

export const SUMMARY_TTL_SECONDS = 7 * 24 * 3600;

export type CacheSource = 'kv' | 'memory';

export interface SummaryCache {
  /** What is configured, for the stream's `meta.cache`: `kv+memory` or `memory`. */
  readonly description: string;
  get<T>(key: string): Promise<{ value: T; from: CacheSource } | null>;
  set<T>(key: string, value: T): Promise<void>;
  /** Runs `compute` once for concurrent callers of the same key. */
  once<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

/**
 * `<id or title>:<mode>`; ids keep their provider prefix, so two providers' same native id never
 * collide. A request with neither (a bare PDF address, or Variant B content) is keyed by that.
 */
export function summaryCacheKey(input: { id?: string; title?: string; url?: string; content?: string }, mode: string): string {
  const subject =
    input.id?.trim() ||
    input.title?.trim().toLowerCase().replace(/\s+/g, ' ') ||
    (input.url?.trim() ? `url#${input.url.trim()}` : `content#${sha256(input.content ?? '')}`);
  const raw = `${subject}:${mode}`;
  // Long titles are hashed so keys stay short; the hash keeps them distinct.
  return `summary:v1:${raw.length > 200 ? sha256(raw) : raw}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function createSummaryCache(options: { shared?: Cache; memoryEntries?: number; memoryBytes?: number }): SummaryCache {
  const memory = createMemoryCache({ maxEntries: options.memoryEntries ?? 2000, maxBytes: options.memoryBytes ?? 32 * 1024 * 1024 });
  const shared = options.shared;
  const inFlight = new Map<string, Promise<unknown>>();
  return {
    description: shared ? 'kv+memory' : 'memory',
    async get<T>(key: string) {
      if (shared) {
        try {
          const hit = await shared.get(key);
          if (hit !== null) return { value: JSON.parse(hit) as T, from: 'kv' as const };
        } catch {
          // The shared store is down: memory still answers (health reports the outage).
        }
      }
      const local = await memory.get(key);
      return local === null ? null : { value: JSON.parse(local) as T, from: 'memory' as const };
    },
    async set<T>(key: string, value: T) {
      const text = JSON.stringify(value);
      await memory.set(key, text, SUMMARY_TTL_SECONDS);
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
