/**
 * What the auth forms send, checked before it is sent with the limits the API publishes for the same
 * bodies (src/auth/schemas.ts: SignUp, SignIn, reset-password, update-password). The server checks
 * again, and only it knows which passwords are too common: that answer comes back at the field.
 */
import { z } from 'zod/mini';

/** What the service asks of a new password (at least 8 characters, NIST SP 800-63B, above the spec's 6; common passwords are refused). */
export const PASSWORD_RULES = 'At least 8 characters; common passwords are refused.';
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 256;
const EMAIL_MAX = 254;

const Email = z
  .email('Enter a valid e-mail address.')
  .check(z.maxLength(EMAIL_MAX, `At most ${EMAIL_MAX} characters.`));
const NewPassword = z
  .string()
  .check(
    z.minLength(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`),
    z.maxLength(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
  );

export const SignUpForm = z.object({
  name: z.pipe(
    z.string().check(z.trim(), z.maxLength(100, 'At most 100 characters.')),
    z.transform((name) => name || undefined),
  ),
  email: Email,
  password: NewPassword,
});

export const SignInForm = z.object({
  email: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter your e-mail address.'),
      z.maxLength(EMAIL_MAX, `At most ${EMAIL_MAX} characters.`),
    ),
  password: z
    .string()
    .check(
      z.minLength(1, 'Enter your password.'),
      z.maxLength(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters.`),
    ),
});

export const ForgotPasswordForm = z.object({ email: Email });

export const UpdatePasswordForm = z.object({ password: NewPassword });
