/** The service's own bookkeeping: idempotency keys and shared secrets (src/platform). */
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

/**
 * Answers to creating requests sent with an `Idempotency-Key` (platform/idempotency.ts), so that a
 * client whose answer was lost can send the request again and get the first answer back, from any
 * process. A row is claimed before the request is handled (no answer yet) and completed after it.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** SHA-256 of the requester (user or visitor) and the key they sent: keys are scoped per requester. */
    id: text('id').primaryKey(),
    /** SHA-256 of the method, path and validated body: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** Null while the first request is being answered. */
    responseStatus: integer('response_status'),
    responseContentType: text('response_content_type'),
    /** The first answer's headers a retry needs too (ETag, Location; platform/idempotency.ts). */
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    /** The first answer's body, sealed (it may carry a share link's token); null when too large to keep. */
    responseBody: text('response_body'),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The process answering the claim (host, pid and a random part); with claimed_at, the claim's identity. */
    owner: text('owner'),
    /** Until when the claim is its owner's: renewed while the request runs; past it, a retry takes the claim over. */
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/**
 * Secrets the service makes for itself and every process must share: the token-signing key when
 * JWT_SECRET is not set and the database is PostgreSQL (platform/secrets.ts). Made once, by whichever
 * process comes first.
 */
export const serviceSecrets = pgTable('service_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});
