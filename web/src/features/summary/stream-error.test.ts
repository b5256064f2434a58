/** What the summary dialog's page says for the stream's `error` event, the rate limit's refusal above all. */
import { describe, expect, it } from 'vitest';
import { streamErrorMessage } from './stream-error';

describe('streamErrorMessage', () => {
  it('says when to try again after the rate limit refused the stream', () => {
    expect(
      streamErrorMessage({
        message: 'Too many requests, please try again later',
        code: 'RATE_LIMITED',
        retryAfter: 42,
      }),
    ).toBe('Too many requests, please try again later. Try again in 42 seconds.');
    expect(
      streamErrorMessage({
        message: 'Too many requests, please try again later',
        code: 'RATE_LIMITED',
        retryAfter: 3599,
      }),
    ).toBe('Too many requests, please try again later. Try again in 60 minutes.');
  });

  it('gives the message alone when the refusal has no usable retryAfter', () => {
    for (const retryAfter of [undefined, 0, -5, 1.5, '42', null]) {
      expect(
        streamErrorMessage({ message: 'Too many requests', code: 'RATE_LIMITED', retryAfter }),
      ).toBe('Too many requests');
    }
  });

  it("passes any other failure's message through, and has a sentence for a malformed event", () => {
    expect(
      streamErrorMessage({
        message: 'No PDF could be found for this record.',
        code: 'no_pdf',
        retryAfter: 42,
      }),
    ).toBe('No PDF could be found for this record.');
    expect(streamErrorMessage(null)).toBe('The summary failed.');
    expect(streamErrorMessage({ code: 'RATE_LIMITED' })).toBe('The summary failed.');
  });
});
