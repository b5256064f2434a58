/**
 * Safe retries of creating requests: a client whose connection dropped cannot tell whether its POST was
 * done, so it must be able to send it again. A route that says `config: { idempotent: true }` accepts
 * an `Idempotency-Key` header: the first request with a key is handled and its answer kept for 24 hours
 * in the database (so every process sees it, and it survives restarts); the same key with the same
 * request gets that answer again, without doing the work twice; the same key with another request is a
 * 409. Keys are scoped per requester (user, else visitor), so two users' keys never meet.
 *
 * A key is claimed (a row without an answer) before the handler runs, by this process (`owner`) with a
 * lease (`lease_until`) that a heartbeat renews every third of it while the request runs. A second
 * request with the key meanwhile gets a 409 `in_progress` whose Retry-After is the lease's remaining
 * seconds; once the lease has lapsed (its process died, or stalled longer than the lease) a retry takes
 * the claim over at once. On the embedded database one process owns the data, so a claim of another
 * process (one that ran before a restart) is dead and taken over at once. Answers of 5xx and 429 are
 * not kept: the claim is released so that the retry does the work.
 *
 * Every creating route answers through `request.answerOnce`: its writes and the answer kept for the key
 * commit together, so no crash leaves the object without its answer (a retry would create it again);
 * what cannot be in a transaction (a lookup on the network, a file written to the blob store) is done
 * before it, and what must follow (a mail) after it. The transaction keeps the answer only while the
 * claim is still this request's: a request whose claim was taken over has its writes undone. Refusals
 * (4xx thrown by the work, nothing written) are kept in `onSend`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
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
/** How long a claim stays its owner's without a renewal, unless the options say otherwise. */
const DEFAULT_LEASE_MS = 15_000;
/** A claim written before leases (no lease_until) is its owner's this long after it was made. */
const LEGACY_LEASE_MS = 60_000;
/**
 * This process, as a claim's owner: the host and pid say which it was (for an operator), the random
 * part tells a restarted process with the same pid from the one before it.
 */
const THIS_PROCESS = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
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
    /** The key this request claimed (its row, when and by which process), while it is the one answering it. */
    idempotencyClaim: Claim | null;
    /**
     * A creating route's writes and its answer in one transaction: `work` writes through the handle
     * it is given (every query of it: on the embedded store another would wait for this transaction)
     * and returns the body to send with `status`; the answer is kept for the request's key in that
     * transaction, so a retry after any crash finds either nothing done or the answer. Without a key,
     * `work` runs on the database as usual. `after` runs once the writes have committed, before the
     * answer goes (a mail): a retry that replays the answer does not run it again, and its failure is
     * logged, not answered (the answer is already kept).
     */
    answerOnce(
      reply: FastifyReply,
      status: number,
      work: (db: Db) => Promise<unknown>,
      after?: () => Promise<void>,
    ): Promise<FastifyReply>;
  }
}

/** A claim of a key: its row, and when and by which process it was made (together, the claim's identity). */
interface Claim {
  id: string;
  claimedAt: Date;
  owner: string;
  /** Stops renewing the lease. */
  stop(): void;
}

export interface IdempotencyOptions {
  db: Db;
  /** Keys rows and fingerprints (HMAC: a signup's fingerprint must not be a plain hash of its password) and seals answers. */
  secret: string;
  /** Who is asking: keys are scoped by it. */
  scopeOf(request: FastifyRequest): string;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
  /** How long a claim stays this process's without a renewal (default 15 s); renewed every third of it. */
  leaseMs?: number;
  /** True when no other process uses the database (the embedded one): another owner's claim is a dead process's. */
  soleProcess?: boolean;
}

const keyInUse = (reason: 'key_reused' | 'answer_not_kept', message: string) =>
  conflict(message, { field: IDEMPOTENCY_HEADER, reason });

/** 409 in_progress; `retryAfterMs`: until the lease of the claim answering it runs out (at least a second). */
const inProgress = (message: string, retryAfterMs: number) =>
  new ApiError(
    'CONFLICT',
    message,
    { field: IDEMPOTENCY_HEADER, reason: 'in_progress' },
    { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  );

async function idempotencyPlugin(app: FastifyInstance, options: IdempotencyOptions): Promise<void> {
  const { db, secret, scopeOf } = options;
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
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
  /** The claim's row while it is still that claim's (not taken over) and unanswered. */
  const claimRow = (claim: { id: string; claimedAt: Date; owner: string | null }) =>
    and(
      eq(idempotencyKeys.id, claim.id),
      eq(idempotencyKeys.claimedAt, claim.claimedAt),
      sql`${idempotencyKeys.owner} is not distinct from ${claim.owner}`,
      isNull(idempotencyKeys.responseStatus),
    );

  /**
   * The claim `request` now holds, its lease renewed every third of it until `stop` (its answer kept or
   * given up). A renewal that finds the claim gone (taken over, or answered) stops; one that fails
   * (the database away) is tried again at the next turn.
   */
  const hold = (request: FastifyRequest, id: string, claimedAt: Date): Claim => {
    const claim: Claim = { id, claimedAt, owner: THIS_PROCESS, stop: () => clearInterval(timer) };
    const timer = setInterval(() => {
      db.update(idempotencyKeys)
        .set({ leaseUntil: new Date(now() + leaseMs) })
        .where(claimRow(claim))
        .returning({ id: idempotencyKeys.id })
        .then(
          (renewed) => {
            if (renewed.length === 0) claim.stop();
          },
          (error: unknown) =>
            request.log.warn({ err: error }, 'idempotency: renewing a claim failed'),
        );
    }, leaseMs / 3);
    timer.unref();
    request.idempotencyClaim = claim;
    return claim;
  };
  /** The claim ends: no more renewals, nothing left for onSend. */
  const release = (request: FastifyRequest) => {
    request.idempotencyClaim?.stop();
    request.idempotencyClaim = null;
  };
  const takenOver = () =>
    inProgress(
      'A request with this Idempotency-Key is being answered by a retry; retry shortly',
      leaseMs,
    );
  /** When the lease of a row's claim runs out. */
  const leaseEnd = (row: { leaseUntil: Date | null; claimedAt: Date }) =>
    row.leaseUntil?.getTime() ?? row.claimedAt.getTime() + LEGACY_LEASE_MS;

  app.decorateRequest(
    'answerOnce',
    async function answerOnce(
      this: FastifyRequest,
      reply: FastifyReply,
      status: number,
      work: (db: Db) => Promise<unknown>,
      after?: () => Promise<void>,
    ): Promise<FastifyReply> {
      const claim = this.idempotencyClaim;
      const follow = async () => {
        await after?.().catch((error: unknown) =>
          this.log.warn({ err: error }, 'idempotency: the work after a create failed'),
        );
      };
      if (!claim) {
        const body = await work(db);
        await follow();
        return reply.status(status).send(body);
      }
      const text = await db.transaction(async (tx) => {
        // The claim locked first: a retry taking it over meanwhile waits for this transaction (and
        // then finds it answered); one that took it over already leaves this request nothing to do.
        const held = await tx
          .update(idempotencyKeys)
          .set({ leaseUntil: new Date(now() + leaseMs) })
          .where(claimRow(claim))
          .returning({ id: idempotencyKeys.id });
        if (held.length === 0) throw takenOver();
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
        if (kept.length === 0) throw takenOver();
        return text;
      });
      // Kept with the writes: nothing left for the onSend hook to do.
      release(this);
      await follow();
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
    // Twice at most: a second turn only after an expired row was removed or another retry took over first.
    for (let attempt = 0; attempt < 2; attempt++) {
      const at = new Date(now());
      sweepExpired(request, at);
      const claimed = await db
        .insert(idempotencyKeys)
        .values({
          id,
          fingerprint,
          claimedAt: at,
          owner: THIS_PROCESS,
          leaseUntil: new Date(at.getTime() + leaseMs),
          expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS),
        })
        .onConflictDoNothing()
        .returning({ id: idempotencyKeys.id });
      if (claimed.length > 0) {
        hold(request, id, at);
        return;
      }
      const [row] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.id, id));
      if (!row) continue;
      if (row.expiresAt.getTime() <= at.getTime()) {
        await db
          .delete(idempotencyKeys)
          .where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.expiresAt, row.expiresAt)));
        continue;
      }
      if (row.fingerprint !== fingerprint) {
        throw keyInUse('key_reused', 'This Idempotency-Key was already used with another request');
      }
      if (row.responseStatus === null) {
        const deadOwner = options.soleProcess === true && row.owner !== THIS_PROCESS;
        if (!deadOwner && leaseEnd(row) > at.getTime())
          throw inProgress(
            'A request with this Idempotency-Key is still being answered; retry shortly',
            leaseEnd(row) - at.getTime(),
          );
        // Its process died (or stalled past its lease): this request takes the claim over, if no other
        // retry did first and the owner did not renew it meanwhile (the row as read is the condition).
        // The old owner's transaction then finds the claim no longer its own and undoes its writes.
        const taken = await db
          .update(idempotencyKeys)
          .set({
            claimedAt: at,
            owner: THIS_PROCESS,
            leaseUntil: new Date(at.getTime() + leaseMs),
          })
          .where(
            and(
              claimRow({ id, claimedAt: row.claimedAt, owner: row.owner }),
              row.leaseUntil === null
                ? isNull(idempotencyKeys.leaseUntil)
                : eq(idempotencyKeys.leaseUntil, row.leaseUntil),
            ),
          )
          .returning({ id: idempotencyKeys.id });
        if (taken.length > 0) {
          request.log.info({ previousOwner: row.owner }, 'idempotency: took over a lapsed claim');
          hold(request, id, at);
          return;
        }
        continue;
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
    throw inProgress(
      'A request with this Idempotency-Key is still being answered; retry shortly',
      leaseMs,
    );
  };

  const keepAnswer: onSendAsyncHookHandler = async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    release(request);
    // Only this request's claim: one taken over meanwhile (this request outlived its lease) is the other's.
    const ours = claimRow(claim);
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
      // Its answer goes out; the claim is taken over once its lease has lapsed.
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
