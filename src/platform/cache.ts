/**
 * A small key/value cache with lifetimes: in-process (an LRU bounded in entries and bytes) or Redis.
 * Capabilities keep their own keys under their own prefix; this module knows none of them.
 */
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import { keyspaceOf } from './metrics.js';

export interface Cache {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export function createMemoryCache(options: { maxEntries?: number; maxBytes?: number } = {}): Cache {
  const lru = new LRUCache<string, string>({
    max: options.maxEntries ?? 5000,
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (value, key) => value.length * 2 + key.length * 2 + 64,
  });
  return {
    kind: 'memory',
    get: async (key) => lru.get(key) ?? null,
    set: async (key, value, ttlSeconds) => {
      lru.set(key, value, { ttl: ttlSeconds * 1000 });
    },
    delete: async (key) => {
      lru.delete(key);
    },
  };
}

export function createRedisCache(redis: Redis, prefix = 'cache:'): Cache {
  return {
    kind: 'redis',
    get: (key) => redis.get(prefix + key),
    set: async (key, value, ttlSeconds) => {
      await redis.set(prefix + key, value, 'EX', Math.max(1, Math.round(ttlSeconds)));
    },
    delete: async (key) => {
      await redis.del(prefix + key);
    },
  };
}

/**
 * Redis when it answers, memory when it does not: a cache outage slows the service down (more
 * upstream calls) but never fails a request.
 */
export function createResilientCache(primary: Cache, fallback: Cache): Cache {
  return {
    kind: primary.kind,
    get: async (key) => {
      try {
        return await primary.get(key);
      } catch {
        return fallback.get(key);
      }
    },
    set: async (key, value, ttl) => {
      try {
        await primary.set(key, value, ttl);
      } catch {
        await fallback.set(key, value, ttl);
      }
    },
    delete: async (key) => {
      await Promise.allSettled([primary.delete(key), fallback.delete(key)]);
    },
  };
}

/** The same cache, with every `get` counted as a hit or a miss under its key's prefix (`search:…` → `search`). */
export function countLookups(
  cache: Cache,
  count: (keyPrefix: string, hit: boolean) => void,
): Cache {
  return {
    kind: cache.kind,
    get: async (key) => {
      const value = await cache.get(key);
      count(keyspaceOf(key), value !== null);
      return value;
    },
    set: (key, value, ttl) => cache.set(key, value, ttl),
    delete: (key) => cache.delete(key),
  };
}
