/** How the app reads a failed reply: the error envelope, the plain `{ error }` of POST /api/summarize, Retry-After. */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  apiErrorFrom,
  describeError,
  isStale,
  retryAfterSeconds,
  retryRead,
  retryReadDelay,
} from './errors';

const reply = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers });

describe('apiErrorFrom', () => {
  it('reads the envelope: code, message, the field at fault', () => {
    const error = apiErrorFrom(reply(400), {
      error: {
        code: 'VALIDATION_ERROR',
        message: 'email must be a valid e-mail address',
        details: { field: 'email', reason: 'invalid' },
      },
    });
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.message, error.field]).toEqual([
      400,
      'VALIDATION_ERROR',
      'email must be a valid e-mail address',
      'email',
    ]);
  });

  it('reads a 429 with Retry-After and says when to try again', () => {
    const error = apiErrorFrom(reply(429, { 'retry-after': '90' }), {
      error: { code: 'RATE_LIMITED', message: 'Too many sign-in attempts.' },
    });
    expect(error.retryAfter).toBe(90);
    expect(describeError(error)).toBe('Too many sign-in attempts. Try again in 2 minutes.');
    expect(
      describeError(
        apiErrorFrom(reply(429, { 'retry-after': '1' }), {
          error: { code: 'RATE_LIMITED', message: 'Slow down.' },
        }),
      ),
    ).toBe('Slow down. Try again in 1 second.');
    // The service's own message has no full stop: the sentence gets one.
    expect(
      describeError(
        apiErrorFrom(reply(429, { 'retry-after': '5' }), {
          error: { code: 'RATE_LIMITED', message: 'Too many requests, please try again later' },
        }),
      ),
    ).toBe('Too many requests, please try again later. Try again in 5 seconds.');
  });

  it('reads the plain `{ error: "<message>" }` of POST /api/summarize', () => {
    expect(apiErrorFrom(reply(422), { error: 'The paper has no PDF' }).message).toBe(
      'The paper has no PDF',
    );
  });

  it("keeps a 412's `current` (the version saved now): the error is stale; no other error is", () => {
    const stale = apiErrorFrom(reply(412, { etag: '"r3"' }), {
      error: {
        code: 'PRECONDITION_FAILED',
        message: 'Someone else changed this.',
        details: { field: 'if-match', reason: 'stale' },
      },
      current: { version: 3, notes: 'theirs' },
    });
    expect(isStale(stale)).toBe(true);
    expect(stale.current).toEqual({ version: 3, notes: 'theirs' });
    expect(
      isStale(
        apiErrorFrom(reply(412), {
          error: { code: 'PRECONDITION_FAILED', message: 'No current.' },
        }),
      ),
    ).toBe(false);
    expect(
      isStale(
        apiErrorFrom(reply(409), {
          error: { code: 'CONFLICT', message: 'Taken.' },
          current: { version: 1 },
        }),
      ),
    ).toBe(false);
  });

  it('says what happened when the body is not an envelope (a proxy page, nothing)', () => {
    const error = apiErrorFrom(
      new Response(null, { status: 502, statusText: 'Bad Gateway' }),
      '<html>',
    );
    expect([error.status, error.code, error.message]).toEqual([
      502,
      'INTERNAL_ERROR',
      'The server answered 502 Bad Gateway',
    ]);
  });
});

describe('retryAfterSeconds', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds(null, now)).toBeNull();
    expect(retryAfterSeconds('soon', now)).toBeNull();
  });
});

describe('retryRead', () => {
  const refused = (status: number, retryAfter: string | null) =>
    apiErrorFrom(reply(status, retryAfter === null ? {} : { 'retry-after': retryAfter }), {
      error: { code: status === 429 ? 'RATE_LIMITED' : 'NOT_FOUND', message: 'No.' },
    });

  it('waits out a brief refusal (Retry-After of a few seconds), twice at most, for as long as it says', () => {
    const busy = refused(429, '1');
    expect([retryRead(0, busy), retryRead(1, busy), retryRead(2, busy)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(retryReadDelay(0, busy)).toBe(1000);
    expect(retryRead(0, refused(503, '2'))).toBe(true);
    expect(retryReadDelay(0, refused(503, '2'))).toBe(2000);
  });

  it('takes a spent allowance and any other client error as the answer; asks again after a failure', () => {
    expect(retryRead(0, refused(429, '90'))).toBe(false);
    expect(retryRead(0, refused(429, null))).toBe(false);
    expect(retryRead(0, refused(404, null))).toBe(false);
    expect(retryRead(0, refused(500, null))).toBe(true);
    expect(retryRead(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(retryReadDelay(1, new TypeError('Failed to fetch'))).toBe(2000);
  });
});
