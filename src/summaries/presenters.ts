/**
 * What a summary request is answered with: Variant A (id/source/title/abstract/url/mode) or Variant B
 * (content), by the variant of the request body (docs/design.md, Dialects). A cached summary is
 * presented like a fresh one.
 */
import type { Dialect } from '../platform/dialect.js';
import type { ApiError } from '../platform/errors.js';
import type { SummaryOutcome } from './produce.js';
import { toSummaryVariantA, toSummaryVariantB } from './variants.js';

export function presentVariantA(outcome: SummaryOutcome, cacheDescription: string) {
  return {
    ...toSummaryVariantA(outcome.summary),
    modeRequested: outcome.modeRequested,
    modeUsed: outcome.modeUsed,
    fromCache: outcome.fromCache,
    cache: cacheDescription,
  };
}

export function presentVariantB(outcome: SummaryOutcome) {
  return {
    ...toSummaryVariantB(outcome.summary),
    modeUsed: outcome.modeUsed,
    fromCache: outcome.fromCache,
  };
}

export type PresentedSummary =
  ReturnType<typeof presentVariantA> | ReturnType<typeof presentVariantB>;

export function presentSummary(
  outcome: SummaryOutcome,
  dialect: Dialect,
  cacheDescription: string,
): PresentedSummary {
  return dialect === 'B' ? presentVariantB(outcome) : presentVariantA(outcome, cacheDescription);
}

/** POST /api/summarize's errors, as its existing clients read them: `{ error: "<message>" }`, with the error's status. */
export function presentPlainError(error: ApiError): { error: string } {
  return { error: error.message };
}

/**
 * The stream's `error` event: the message, and as code the failure's own reason when it has one
 * (`no_pdf`, `timeout`, `aborted`…), else the API error code.
 */
export function presentStreamError(error: ApiError): StreamErrorEvent {
  return {
    message: error.message,
    code: error.details?.reason ?? error.code,
    ...retryAfterOf(error),
  };
}

/**
 * A refusal before any work (bad parameters, the rate limit) as the stream's `error` event: the API
 * error code, and for the rate limit `retryAfter`, the seconds of its Retry-After header (an
 * EventSource cannot read headers).
 */
export function presentStreamRefusal(error: ApiError): StreamErrorEvent {
  return { message: error.message, code: error.code, ...retryAfterOf(error) };
}

interface StreamErrorEvent {
  message: string;
  code: string;
  retryAfter?: number;
}

function retryAfterOf(error: ApiError): { retryAfter?: number } {
  const seconds = Number(error.headers?.['retry-after']);
  return Number.isSafeInteger(seconds) && seconds > 0 ? { retryAfter: seconds } : {};
}
