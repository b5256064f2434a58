/**
 * Everything the capabilities run on, assembled from the config: database, cache, rate limits,
 * mail, blob store, outbound HTTP and health. Tests build it the same way (with their own config),
 * and may pass ready-made parts in `overrides`.
 */
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import {
  countLookups,
  createMemoryCache,
  createRedisCache,
  createResilientCache,
  type Cache,
} from './cache.js';
import { openDatabase, pgliteDirFor, type Database } from './db/client.js';
import { createDiskBlobStore, type BlobStore } from './blob-store.js';
import {
  createHealthMonitor,
  EMBEDDED_CHECK_MS,
  QUICK_CHECK_MS,
  type HealthMonitor,
} from './health.js';
import { createKvRestStore, type KvRestStore } from './kv-rest.js';
import { createMailTransport, type MailTransport } from './mail/index.js';
import { createMetrics, type Metrics } from './metrics.js';
import { createOutbound, serviceUserAgent, type Outbound } from './outbound.js';
import { createRateLimiter, type LimitRule, type RateLimiter } from './rate-limit.js';
import { resolveSigningSecret } from './secrets.js';

export interface Platform {
  config: Config;
  database: Database;
  redis?: Redis;
  /** The Upstash-style REST store, when KV_REST_API_URL/TOKEN are set. */
  kv?: KvRestStore;
  cache: Cache;
  rateLimiter: RateLimiter;
  /** How mail leaves; capabilities send through `mailerFor(mailTransport, log)` (platform/mail). */
  mailTransport: MailTransport;
  blobs: BlobStore;
  outbound: Outbound;
  health: HealthMonitor;
  metrics: Metrics;
  signingSecret: string;
  close(): Promise<void>;
}

export interface PlatformOverrides {
  database?: Database;
  /** Prefix for every Redis key (tests isolate themselves with it). */
  redisKeyPrefix?: string;
  extraHealthChecks?: Record<string, (() => Promise<boolean>) | null>;
}

/** ioredis is loaded only when Redis is configured (about 9 MB of resident memory otherwise unused). */
async function connectRedis(url: string, keyPrefix: string): Promise<Redis> {
  const { createRedis, waitForRedis } = await import('./redis.js');
  const redis = createRedis(url, keyPrefix);
  await waitForRedis(redis);
  return redis;
}

/** `rateLimitRules`: the buckets the routes declare (src/rate-limits.ts), by name; the platform knows none of them. */
export async function createPlatform(
  config: Config,
  rateLimitRules: Record<string, LimitRule>,
  overrides: PlatformOverrides = {},
): Promise<Platform> {
  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: pgliteDirFor(config.dataDir),
    }));
  const redisPrefix = overrides.redisKeyPrefix ?? 'rw:';
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, redisPrefix) : undefined;

  const kv = config.kvRest ? await createKvRestStore(config.kvRest) : undefined;
  const metrics = createMetrics({ databasePool: database.poolStats });
  const memoryCache = createMemoryCache();
  const cache = countLookups(
    redis ? createResilientCache(createRedisCache(redis), memoryCache) : memoryCache,
    metrics.countCacheLookup,
  );
  const outbound = createOutbound({
    allowPrivate: config.outboundAllowPrivate,
    userAgent: serviceUserAgent(config.providers.contactEmail),
  });
  const mailTransport = createMailTransport({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
  });
  const health = createHealthMonitor({
    // A query on a connection of its own and a PING: cheap enough to ask a server every second; the
    // embedded database every 5 s (health.ts).
    database: {
      check: () => database.ping(),
      everyMs: database.kind === 'pglite' ? EMBEDDED_CHECK_MS : QUICK_CHECK_MS,
    },
    // Not asked while ioredis has no ready connection (the PING would be refused at once anyway).
    redis: redis
      ? {
          check: async () => redis.status === 'ready' && (await redis.ping()) === 'PONG',
          everyMs: QUICK_CHECK_MS,
        }
      : null,
    kv: kv ? () => kv.ping() : null,
    mail: config.smtpUrl ? () => mailTransport.verify() : 'outbox',
    ...overrides.extraHealthChecks,
  });
  // What the drivers notice between checks shows at once.
  database.onConnectionLost(() => health.report('database', false));
  if (redis) {
    redis.on('close', () => health.report('redis', false));
    redis.on('ready', () => health.report('redis', true));
  }
  await health.refresh();
  // The AWS SDK is loaded only when the bucket is configured (as ioredis is for Redis): megabytes of
  // modules a process on disk storage never uses.
  const blobs =
    config.blobStore.kind === 's3'
      ? (await import('./s3-blob-store.js')).createS3BlobStore({
          ...config.blobStore,
          publicBaseUrl: config.publicUrl,
        })
      : createDiskBlobStore({
          rootDir: join(config.dataDir, 'blobs'),
          publicBaseUrl: config.publicUrl,
        });
  const signingSecret = await resolveSigningSecret(config.jwtSecret, config.dataDir, database);

  return {
    config,
    database,
    redis,
    kv,
    cache,
    rateLimiter: createRateLimiter(rateLimitRules, redis),
    mailTransport,
    blobs,
    outbound,
    health,
    metrics,
    signingSecret,
    async close() {
      health.stop();
      mailTransport.close();
      blobs.close?.();
      await outbound.close();
      if (redis) redis.disconnect();
      if (!overrides.database) await database.close();
    },
  };
}
