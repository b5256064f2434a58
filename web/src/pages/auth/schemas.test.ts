/** The auth and profile forms' checks, before anything is sent. */
import { describe, expect, it } from 'vitest';
import { AvatarForm, ProfileDetailsForm } from '../profile/schemas';
import { SignInForm, SignUpForm } from './schemas';

const firstMessage = (result: { error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues[0]?.message;

describe('auth and profile form schemas', () => {
  it('refuses a new password under 8 characters (NIST SP 800-63B) with the API’s words, and sends no empty name', () => {
    expect(
      firstMessage(
        SignUpForm.safeParse({ name: '', email: 'ada@example.org', password: '1234567' }),
      ),
    ).toBe('Password must be at least 8 characters');
    expect(
      SignUpForm.parse({ name: '  ', email: 'ada@example.org', password: 'tidal-quasar-42' }),
    ).toEqual({ name: undefined, email: 'ada@example.org', password: 'tidal-quasar-42' });
    expect(
      firstMessage(
        SignUpForm.safeParse({ name: '', email: 'not-an-address', password: 'tidal-quasar-42' }),
      ),
    ).toBe('Enter a valid e-mail address.');
  });

  it('signs in with any non-empty e-mail (the server says whether it is known)', () => {
    expect(SignInForm.parse({ email: ' ada ', password: 'p' })).toEqual({
      email: 'ada',
      password: 'p',
    });
    expect(firstMessage(SignInForm.safeParse({ email: '', password: 'p' }))).toBe(
      'Enter your e-mail address.',
    );
  });

  it('counts the display name trimmed, and sends a blank bio as null (clears it)', () => {
    expect(ProfileDetailsForm.parse({ displayName: ' Ada ', bio: '  ' })).toEqual({
      displayName: 'Ada',
      bio: null,
    });
    expect(
      firstMessage(ProfileDetailsForm.safeParse({ displayName: 'x'.repeat(51), bio: '' })),
    ).toBe('At most 50 characters.');
    expect(
      firstMessage(ProfileDetailsForm.safeParse({ displayName: 'Ada', bio: 'b'.repeat(501) })),
    ).toBe('At most 500 characters.');
  });

  it('takes one image of at most 2 MB as an avatar', () => {
    const list = (file: File) =>
      ({ item: (index: number) => (index === 0 ? file : null), length: 1 }) as unknown as FileList;
    const png = new File([new Uint8Array(10)], 'a.png', { type: 'image/png' });
    expect(AvatarForm.parse({ file: list(png) }).file).toBe(png);
    expect(
      firstMessage(
        AvatarForm.safeParse({ file: list(new File(['x'], 'a.txt', { type: 'text/plain' })) }),
      ),
    ).toMatch(/Only image files/);
    expect(
      firstMessage(
        AvatarForm.safeParse({
          file: list(
            new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }),
          ),
        }),
      ),
    ).toMatch(/larger than 2 MB/);
    expect(firstMessage(AvatarForm.safeParse({ file: undefined }))).toBe('Choose an image.');
  });
});
