import { describe, expect, it } from 'vitest';
import { describeError } from './error-causes.js';

describe('describeError', () => {
  it('names every cause under an error, with its code, in one bounded line', () => {
    const socket = Object.assign(new Error('invalid content-length header'), {
      code: 'UND_ERR_INVALID_ARG',
    });
    const fetchFailed = new TypeError('fetch failed', { cause: socket });
    expect(describeError(new Error('Token exchange failed', { cause: fetchFailed }))).toBe(
      'Token exchange failed ← fetch failed ← invalid content-length header (UND_ERR_INVALID_ARG)',
    );
    expect(describeError('plain')).toBe('plain');
    const loop: Error & { cause?: unknown } = new Error('again');
    loop.cause = loop;
    expect(describeError(loop).split(' ← ')).toHaveLength(5);
    expect(describeError(new Error('x'.repeat(2000))).length).toBe(500);
  });
});
