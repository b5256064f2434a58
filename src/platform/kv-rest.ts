/**
 * The shared summary store that hosted deployments provide: an Upstash-style Redis REST endpoint, used
 * only when KV_REST_API_URL and KV_REST_API_TOKEN are both set, through the maintained @upstash/redis
 * client, which is loaded only then.
 */
import type { Cache } from './cache.js';

export interface KvRestStore extends Cache {
  ping(): Promise<boolean>;
}

const CALL_TIMEOUT_MS = 1500;

function withDeadline<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(
        () => reject(new Error('KV REST store did not answer in time')),
        CALL_TIMEOUT_MS,
      ).unref(),
    ),
  ]);
}

export async function createKvRestStore(options: {
  url: string;
  token: string;
}): Promise<KvRestStore> {
  const { Redis } = await import('@upstash/redis');
  const client = new Redis({
    url: options.url,
    token: options.token,
    automaticDeserialization: false,
    retry: false,
    enableTelemetry: false,
  });
  return {
    kind: 'redis',
    get: async (key) => {
      const value = await withDeadline(client.get<string>(key));
      return value ?? null;
    },
    set: async (key, value, ttlSeconds) => {
      await withDeadline(client.set(key, value, { ex: Math.max(1, Math.round(ttlSeconds)) }));
    },
    delete: async (key) => {
      await withDeadline(client.del(key));
    },
    ping: async () => {
      try {
        return (await withDeadline(client.ping())) === 'PONG';
      } catch {
        return false;
      }
    },
  };
}
