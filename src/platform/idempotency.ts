/**
 * Safe retries of creating requests: a client whose connection dropped cannot tell whether its POST was
 * done, so it must be able to send it again. A route that says `config: { idempotent: true }` accepts
 * an `Idempotency-Key` header: the first request with a key is handled and its answer kept for 24 hours
 * in the database (so every process sees it, and it survives restarts); the same key with the same
 * request gets that answer again, without doing the work twice; the same key with another request is a
 * 409. Keys are scoped per requester (user, else visitor), so two users' keys never meet.
 *
 * A key is claimed (a row without an answer) before the handler runs; a second request with the key
 * meanwhile gets a 409 with Retry-After. Answers of 5xx and 429 are not kept: the claim is released
 * so that the retry does the work. A claim whose request never answered (its process died) is taken
 * over after CLAIM_STALE_MS.
 *
 * A route whose work fits in one transaction answers through `request.answerOnce`: its writes and the
 * answer kept for the key commit together, so no crash leaves the object without its answer (a retry
 * would create it again), and a request slower than CLAIM_STALE_MS whose claim was taken over has its
 * writes undone. Other routes keep the answer in `onSend`, a step after their writes (docs/api.md).
 */
import { createHmac } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
  preValidationHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { seal, unseal } from './crypto.js';
import type { Db } from './db/client.js';
import { idempotencyKeys } from './db/schema.js';
import { ApiError, conflict } from './errors.js';
import { ErrorResponse } from './openapi.js';

const IDEMPOTENCY_HEADER = 'idempotency-key';
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Larger answers are not kept (the creating routes answer a few KB; a resource's data is ≤ 64 KB). */
const IDEMPOTENCY_MAX_STORED_BYTES = 256 * 1024;
const CLAIM_STALE_MS = 60_000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
const SEAL_PURPOSE = 'idempotent-answer';
/** The first answer's headers a retry gets again besides its body: the version it made, and where it is. */
const KEPT_HEADERS: readonly string[] = ['etag', 'location'];

/** The header as the OpenAPI document shows it on every idempotent route; also its validation. */
const IdempotencyHeaders = z.looseObject({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX_LENGTH)
    .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII characters')
    .optional()
    .describe(
      'Makes a retry safe: the same key with the same request within 24 h ' +
        'answers the first answer again (its body, status, ETag and Location; ' +
        'header Idempotent-Replayed: true) without creating anything; with ' +
        'another request it is a 409. At most 255 visible ASCII characters (a ' +
        'UUID is a good key).',
    ),
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Accepts `Idempotency-Key` (platform/idempotency.ts). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key this request claimed (its row and when), while it is the one answering it. */
    idempotencyClaim: { id: string; claimedAt: Date } | null;
    /**
     * A creating route's writes and its answer in one transaction: `work` writes through the handle
     * it is given (every query of it: on the embedded store another would wait for this transaction)
     * and returns the body to send with `status`; the answer is kept for the request's key in that
     * transaction, so a retry after any crash finds either nothing done or the answer. Without a key,
     * `work` runs on the database as usual.
     */
    answerOnce(
      reply: FastifyReply,
      status: number,
      work: (db: Db) => Promise<unknown>,
    ): Promise<FastifyReply>;
  }
}

export interface IdempotencyOptions {
  db: Db;
  /** Keys rows and fingerprints (HMAC: a signup's fingerprint must not be a plain hash of its password) and seals answers. */
  secret: string;
  /** Who is asking: keys are scoped by it. */
  scopeOf(request: FastifyRequest): string;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
}

const keyInUse = (reason: 'key_reused' | 'in_progress' | 'answer_not_kept', message: string) =>
  reason === 'in_progress'
    ? new ApiError(
        'CONFLICT',
        message,
        { field: IDEMPOTENCY_HEADER, reason },
        { 'retry-after': '1' },
      )
    : conflict(message, { field: IDEMPOTENCY_HEADER, reason });

async function idempotencyPlugin(app: FastifyInstance, options: IdempotencyOptions): Promise<void> {
  const { db, secret, scopeOf } = options;
  const now = options.now ?? Date.now;
  const mac = (text: string) => createHmac('sha256', secret).update(text).digest('hex');
  let lastSweep = 0;

  app.decorateRequest('idempotencyClaim', null);

  /** What `keepAnswer` stores for an answer: its status, type, kept headers and sealed body. */
  const answerValues = (reply: FastifyReply, status: number, text: string) => {
    const contentType = reply.getHeader('content-type');
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (typeof value === 'string') headers[name] = value;
    }
    return {
      responseStatus: status,
      responseContentType: typeof contentType === 'string' ? contentType : null,
      responseHeaders: headers,
      responseBody:
        Buffer.byteLength(text) <= IDEMPOTENCY_MAX_STORED_BYTES
          ? seal(text, secret, SEAL_PURPOSE)
          : null,
    };
  };
  const claimRow = (claim: { id: string; claimedAt: Date }) =>
    and(eq(idempotencyKeys.id, claim.id), eq(idempotencyKeys.claimedAt, claim.claimedAt));

  app.decorateRequest(
    'answerOnce',
    async function answerOnce(
      this: FastifyRequest,
      reply: FastifyReply,
      status: number,
      work: (db: Db) => Promise<unknown>,
    ): Promise<FastifyReply> {
      const claim = this.idempotencyClaim;
      if (!claim) return reply.status(status).send(await work(db));
      const text = await db.transaction(async (tx) => {
        const body = await work(tx);
        void reply.status(status).type('application/json; charset=utf-8');
        const serialized = reply.serialize(body);
        const text =
          typeof serialized === 'string'
            ? serialized
            : Buffer.isBuffer(serialized)
              ? serialized.toString('utf8')
              : Buffer.from(new Uint8Array(serialized)).toString('utf8');
        const kept = await tx
          .update(idempotencyKeys)
          .set(answerValues(reply, status, text))
          .where(claimRow(claim))
          .returning({ id: idempotencyKeys.id });
        // Taken over meanwhile (this request was slower than CLAIM_STALE_MS): the other one's writes
        // stand, and these are undone with the transaction.
        if (kept.length === 0)
          throw keyInUse(
            'in_progress',
            'A request with this Idempotency-Key is being answered by a retry; retry shortly',
          );
        return text;
      });
      // Kept with the writes: nothing left for the onSend hook to do.
      this.idempotencyClaim = null;
      return reply.send(text);
    },
  );

  const sweepExpired = (request: FastifyRequest, at: Date) => {
    if (at.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at.getTime();
    db.delete(idempotencyKeys)
      .where(lt(idempotencyKeys.expiresAt, at))
      .then(undefined, (error: unknown) =>
        request.log.warn({ err: error }, 'idempotency: removing expired keys failed'),
      );
  };

  const replay = (
    reply: FastifyReply,
    status: number,
    contentType: string | null,
    headers: Record<string, string> | null,
    body: string,
  ) => {
    if (contentType) void reply.header('content-type', contentType);
    for (const [name, value] of Object.entries(headers ?? {}))
      if (KEPT_HEADERS.includes(name)) void reply.header(name, value);
    return reply.header('idempotent-replayed', 'true').status(status).send(body);
  };

  // The request as sent, before validation: a validated body may hold values computed at the time
  // (a share link's expiry from `expiresInDays`), which would make every retry look like another request.
  const fingerprints = new WeakMap<FastifyRequest, string>();
  const fingerprint: preValidationHookHandler = (request, _reply, done) => {
    if (typeof request.headers[IDEMPOTENCY_HEADER] === 'string') {
      fingerprints.set(
        request,
        mac(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`),
      );
    }
    done();
  };

  const claimOrReplay: preHandlerAsyncHookHandler = async (request, reply) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (typeof key !== 'string') return;
    const id = mac(`${scopeOf(request)}\n${key}`);
    const fingerprint = fingerprints.get(request);
    if (fingerprint === undefined) return;
    // Twice at most: a second turn only after an expired or abandoned row was removed.
    for (let attempt = 0; attempt < 2; attempt++) {
      const at = new Date(now());
      sweepExpired(request, at);
      const claimed = await db
        .insert(idempotencyKeys)
        .values({
          id,
          fingerprint,
          claimedAt: at,
          expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS),
        })
        .onConflictDoNothing()
        .returning({ id: idempotencyKeys.id });
      if (claimed.length > 0) {
        request.idempotencyClaim = { id, claimedAt: at };
        return;
      }
      const [row] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.id, id));
      if (!row) continue;
      const expired = row.expiresAt.getTime() <= at.getTime();
      const abandoned =
        row.responseStatus === null && at.getTime() - row.claimedAt.getTime() > CLAIM_STALE_MS;
      if (expired || abandoned) {
        await db
          .delete(idempotencyKeys)
          .where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.claimedAt, row.claimedAt)));
        continue;
      }
      if (row.fingerprint !== fingerprint) {
        throw keyInUse('key_reused', 'This Idempotency-Key was already used with another request');
      }
      if (row.responseStatus === null) {
        throw keyInUse(
          'in_progress',
          'A request with this Idempotency-Key is still being answered; retry shortly',
        );
      }
      const body =
        row.responseBody === null ? null : unseal(row.responseBody, secret, SEAL_PURPOSE);
      if (body === null) {
        throw keyInUse(
          'answer_not_kept',
          'The request with this Idempotency-Key was answered, but its answer was too large to keep',
        );
      }
      return replay(reply, row.responseStatus, row.responseContentType, row.responseHeaders, body);
    }
    throw keyInUse(
      'in_progress',
      'A request with this Idempotency-Key is still being answered; retry shortly',
    );
  };

  const keepAnswer: onSendAsyncHookHandler = async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    // Only this request's claim: one taken over meanwhile (this request was slower than CLAIM_STALE_MS) is the other's.
    const ours = and(
      eq(idempotencyKeys.id, claim.id),
      eq(idempotencyKeys.claimedAt, claim.claimedAt),
    );
    const status = reply.statusCode;
    const text =
      typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload)
          ? payload.toString('utf8')
          : null;
    try {
      if (status >= 500 || status === 429 || text === null) {
        // Not an answer to give again: the retry does the work.
        await db.delete(idempotencyKeys).where(ours);
        return payload;
      }
      const kept = Buffer.byteLength(text) <= IDEMPOTENCY_MAX_STORED_BYTES;
      const contentType = reply.getHeader('content-type');
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = reply.getHeader(name);
        if (typeof value === 'string') headers[name] = value;
      }
      await db
        .update(idempotencyKeys)
        .set({
          responseStatus: status,
          responseContentType: typeof contentType === 'string' ? contentType : null,
          responseHeaders: headers,
          responseBody: kept ? seal(text, secret, SEAL_PURPOSE) : null,
        })
        .where(ours);
    } catch (error) {
      // The work is done; its answer goes out. The claim is taken over once stale.
      request.log.warn({ err: error }, 'idempotency: keeping the answer failed');
    }
    return payload;
  };

  // Every route declared after this plugin that asks for it: the request fingerprinted as sent, the
  // header documented and validated, the claim made before its own handlers, the answer kept after
  // it is serialised.
  app.addHook('onRoute', (route) => {
    if (route.config?.idempotent !== true) return;
    // A key reused with another request, or while its first request runs, is a 409 on every such route.
    const responses = route.schema?.response as Record<string, unknown> | undefined;
    route.schema = {
      ...route.schema,
      // A route's own headers (e.g. If-Match) are declared beside the key.
      headers:
        route.schema?.headers instanceof z.ZodObject
          ? IdempotencyHeaders.extend(route.schema.headers.shape)
          : (route.schema?.headers ?? IdempotencyHeaders),
      ...(responses && !('409' in responses)
        ? { response: { ...responses, 409: ErrorResponse } }
        : {}),
    };
    const validating =
      route.preValidation === undefined
        ? []
        : Array.isArray(route.preValidation)
          ? route.preValidation
          : [route.preValidation];
    route.preValidation = [fingerprint, ...validating];
    const before =
      route.preHandler === undefined
        ? []
        : Array.isArray(route.preHandler)
          ? route.preHandler
          : [route.preHandler];
    route.preHandler = [claimOrReplay, ...before];
    const after =
      route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...after, keepAnswer];
  });
}

export const idempotency = fp(idempotencyPlugin, { name: 'idempotency' });
