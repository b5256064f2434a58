/** Request and response schemas of the auth routes: they validate, type the handlers and feed OpenAPI. */
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from './passwords.js';

export const EmailSchema = z.email('must be a valid e-mail address').max(254).transform((value) => value.trim());

export const SignUpBody = z.object({
  email: EmailSchema,
  password: z.string().max(MAX_PASSWORD_LENGTH),
  name: z.string().trim().max(100).optional(),
});

export const SignInBody = z.object({
  email: z.string().trim().max(254),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

export const RefreshBody = z.object({ refresh_token: z.string().min(1).max(200) });

export const ResetPasswordBody = z.object({
  email: EmailSchema,
  redirectTo: z.url().max(2000).optional(),
});

export const UpdatePasswordBody = z
  .object({
    token: z.string().min(1).max(200).optional().describe('The token from the reset link (signed out)'),
    currentPassword: z
      .string()
      .max(MAX_PASSWORD_LENGTH)
      .optional()
      .describe('Required when signed in without a token: the password the new one replaces'),
    password: z.string().max(MAX_PASSWORD_LENGTH).describe('The new password'),
  })
  .describe('Either `token` (from the reset mail), or, signed in, `currentPassword`. Either way every reset link mailed earlier stops working.');

export const ConfirmQuery = z.object({ token: z.string().min(1).max(200) });

export const UserSchema = z.object({ id: z.uuid(), email: z.string(), name: z.string() });

export const SessionSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_at: z.number().int(),
  expires_in: z.number().int(),
  token_type: z.literal('bearer'),
});

export const SignUpResponse = z.object({
  message: z.string(),
  user: UserSchema.extend({ createdAt: z.iso.datetime() }),
});

export const SignInResponse = z.object({ message: z.string(), user: UserSchema, session: SessionSchema });

export const SessionResponse = z.object({
  user: UserSchema.extend({ avatarUrl: z.string().nullable() }),
  session: z.object({ access_token: z.string(), expires_at: z.number().int() }).optional(),
});

export const MessageResponse = z.object({ message: z.string() });

export const OAuthParams = z.object({ provider: z.enum(['google', 'github']) });
export const OAuthStartQuery = z.object({ redirectTo: z.string().max(2000).optional() });
export const OAuthCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(500).optional(),
  error_description: z.string().max(2000).optional(),
});
