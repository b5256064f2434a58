/**
 * The sentence for the summary stream's `error` event {message, code, retryAfter?}. The rate limit's
 * refusal (code RATE_LIMITED) arrives as this event, not as a 429 an EventSource could not read: it
 * says when to try again in the words the app uses for every 429 (describeError).
 */
import { ApiError, describeError } from '../../api/errors';

const FALLBACK = 'The summary failed.';

export function streamErrorMessage(data: unknown): string {
  if (typeof data !== 'object' || data === null) return FALLBACK;
  const { message, code, retryAfter } = data as {
    message?: unknown;
    code?: unknown;
    retryAfter?: unknown;
  };
  const text = typeof message === 'string' && message.trim() !== '' ? message : FALLBACK;
  if (code !== 'RATE_LIMITED') return text;
  const seconds =
    typeof retryAfter === 'number' && Number.isSafeInteger(retryAfter) && retryAfter > 0
      ? retryAfter
      : null;
  return describeError(new ApiError(429, 'RATE_LIMITED', text, {}, seconds));
}
