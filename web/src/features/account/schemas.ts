/**
 * What the account forms send, checked with the limits the API publishes (src/auth/schemas.ts,
 * ChangePassword; src/account/schemas.ts, DeleteAccount). The server checks again: only it knows
 * the current password and which new ones are too common.
 */
import { z } from 'zod/mini';

const PASSWORD_MIN = 8; // NIST SP 800-63B, as the service asks (src/auth/passwords.ts)
const PASSWORD_MAX = 256;

export const ChangePasswordForm = z
  .object({
    currentPassword: z
      .string()
      .check(
        z.minLength(1, 'Enter your current password.'),
        z.maxLength(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters.`),
      ),
    newPassword: z
      .string()
      .check(
        z.minLength(PASSWORD_MIN, `The new password must be at least ${PASSWORD_MIN} characters.`),
        z.maxLength(PASSWORD_MAX, `The new password must be at most ${PASSWORD_MAX} characters.`),
      ),
    confirmPassword: z.string(),
  })
  .check(
    z.refine((form) => form.confirmPassword === form.newPassword, {
      message: 'The two new passwords differ; type the same one twice.',
      path: ['confirmPassword'],
    }),
  );

export const DeleteWithPasswordForm = z.object({
  password: z
    .string()
    .check(
      z.minLength(1, 'Enter your current password to delete your account.'),
      z.maxLength(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters.`),
    ),
});

/** An account without a password confirms by typing its address: the same address, case and spaces aside. */
export function deleteWithEmailForm(email: string) {
  return z.object({
    email: z
      .string()
      .check(
        z.refine(
          (typed) => typed.trim().toLowerCase() === email.toLowerCase(),
          'Type your account’s e-mail address exactly to delete your account.',
        ),
      ),
  });
}

/** A message from the API as a sentence: with its full stop. */
export function sentence(message: string): string {
  return /[.!?]$/u.test(message.trim()) ? message.trim() : `${message.trim()}.`;
}
