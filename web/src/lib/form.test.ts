/** Where a failed request's message is shown: at the field the API named, or on the form. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { errorsByField } from './form';

describe('errorsByField', () => {
  const fields = ['email', 'password'] as const;

  it('puts a message at the field the API named', () => {
    const error = new ApiError(409, 'CONFLICT', 'A user with this e-mail address already exists', {
      field: 'email',
    });
    expect(errorsByField(error, fields)).toEqual({
      field: { email: 'A user with this e-mail address already exists' },
      form: null,
    });
  });

  it('puts it at every field of a list the API named', () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'Check the fields', {
      fields: [
        { field: 'email', reason: 'x' },
        { field: 'password', reason: 'y' },
      ],
    });
    expect(errorsByField(error, fields).field).toEqual({
      email: 'Check the fields',
      password: 'Check the fields',
    });
  });

  it('makes a message for a field the form has not, or for none, the form’s', () => {
    expect(
      errorsByField(
        new ApiError(400, 'VALIDATION_ERROR', 'Invalid token', { field: 'token' }),
        fields,
      ),
    ).toEqual({ field: {}, form: 'Invalid token' });
    expect(errorsByField(new Error('Failed to fetch'), fields)).toEqual({
      field: {},
      form: 'Failed to fetch',
    });
  });

  it('keeps a rate limit on the form, with when to try again, whatever field it names', () => {
    const error = new ApiError(429, 'RATE_LIMITED', 'Too many attempts.', { field: 'email' }, 30);
    expect(errorsByField(error, fields)).toEqual({
      field: {},
      form: 'Too many attempts. Try again in 30 seconds.',
    });
  });

  it('has nothing to show without an error', () => {
    expect(errorsByField(null, fields)).toEqual({ field: {}, form: null });
  });
});
