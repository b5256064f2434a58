/** Request and response schemas of the auth routes: they validate, type the handlers and feed OpenAPI. */
import { z } from 'zod';
import { dialectUnion, documentBody } from '../platform/openapi.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.js';

/** A new password; its policy (length, not a common one) is checked by the command, and published here. */
const NewPassword = z
  .string()
  .max(MAX_PASSWORD_LENGTH)
  .meta({
    minLength: MIN_PASSWORD_LENGTH,
    description: `At least ${MIN_PASSWORD_LENGTH} characters, not among the most common passwords`,
  });

const EmailSchema = z
  .email('must be a valid e-mail address')
  .max(254)
  .transform((value) => value.trim());

export const SignUpBody = z
  .object({
    email: EmailSchema,
    password: NewPassword,
    name: z.string().trim().max(100).optional(),
  })
  .meta({ id: 'SignUp' });
documentBody(SignUpBody, {
  examples: [{ email: 'ada@example.org', password: 'tidal-quasar-42', name: 'Ada Lovelace' }],
});

export const SignInBody = z
  .object({
    email: z.string().trim().max(254),
    password: z.string().max(MAX_PASSWORD_LENGTH),
  })
  .meta({ id: 'SignIn' });
documentBody(SignInBody, { examples: [{ email: 'ada@example.org', password: 'tidal-quasar-42' }] });

export const RefreshBody = z.object({ refresh_token: z.string().min(1).max(200) });

export const ResetPasswordBody = z.object({
  email: EmailSchema,
  redirectTo: z.url().max(2000).optional(),
});
documentBody(ResetPasswordBody, { examples: [{ email: 'ada@example.org' }] });

export const UpdatePasswordBody = z
  .object({
    token: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('The token from the reset link (signed out)'),
    currentPassword: z
      .string()
      .max(MAX_PASSWORD_LENGTH)
      .optional()
      .describe('Required when signed in without a token: the password the new one replaces'),
    password: NewPassword,
  })
  .describe(
    'Either `token` (from the reset mail), or, signed in, `currentPassword`. Either way every reset link mailed earlier stops working.',
  );
documentBody(UpdatePasswordBody, {
  examples: [{ currentPassword: 'tidal-quasar-42', password: 'harbor-nebula-57' }],
});

export const ChangePasswordBody = z
  .object({
    currentPassword: z
      .string()
      .min(1)
      .max(MAX_PASSWORD_LENGTH)
      .describe('The password the new one replaces'),
    newPassword: NewPassword,
  })
  .meta({ id: 'ChangePassword' });
documentBody(ChangePasswordBody, {
  examples: [{ currentPassword: 'harbor-nebula-57', newPassword: 'tidal-quasar-42' }],
});

export const ConfirmQuery = z.object({ token: z.string().min(1).max(200) });

const UserSchema = z
  .object({ id: z.uuid(), email: z.string(), name: z.string() })
  .meta({ id: 'User' });

const SessionSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    expires_at: z.number().int(),
    expires_in: z.number().int(),
    token_type: z.literal('bearer'),
  })
  .meta({ id: 'Session' });

export const SignUpResponse = z
  .object({
    message: z.string(),
    confirmationSent: z
      .boolean()
      .describe('A confirmation link was mailed to the address (EMAIL_CONFIRMATION=required)'),
    user: UserSchema.extend({ createdAt: z.iso.datetime() }),
  })
  .meta({ id: 'SignUpResult' });

export const SignInResponse = z
  .object({ message: z.string(), user: UserSchema, session: SessionSchema })
  .meta({ id: 'SignInResult' });

const SessionUser = UserSchema.extend({ avatarUrl: z.string().nullable() }).meta({
  id: 'SessionUser',
});

export const SessionResponse = dialectUnion(
  'SessionReply',
  'Bearer token: the user and the session (Variant B). Cookie session: the user',
  {
    bearer: z
      .object({
        user: SessionUser,
        session: z.object({ access_token: z.string(), expires_at: z.number().int() }),
      })
      .meta({ id: 'BearerSession' }),
    cookie: z.object({ user: SessionUser }).meta({ id: 'CookieSession' }),
  },
);

export const MessageResponse = z.object({ message: z.string() }).meta({ id: 'Message' });

export const OAuthParams = z.object({ provider: z.enum(['google', 'github']) });
export const OAuthStartQuery = z.object({
  redirectTo: z.string().max(2000).optional(),
  next: z
    .string()
    .max(2000)
    .optional()
    .describe(
      'Where to go after signing in: a path of the web app ' +
        '(`/workspaces/abc?tab=1`), starting with a single `/`. Anything else ' +
        '(another origin, `//host`, `/\\host`) is ignored and the user lands on `/dashboard`.',
    ),
});
export const OAuthCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(500).optional(),
  error_description: z.string().max(2000).optional(),
});
