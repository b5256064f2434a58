import { z } from 'zod';
import { documentBody, filePart } from '../platform/openapi.js';
import { plainText } from '../platform/sanitize.js';

const PROFILE_LIMITS = { displayName: 50, bio: 500 } as const;

const PreferencesSchema = z
  .object({
    theme: z.enum(['system', 'light', 'dark']),
    language: z.literal('en-IN'),
    emailNotifications: z.boolean(),
    marketingEmails: z.boolean(),
  })
  .meta({ id: 'Preferences' });

const ProfileSchema = z
  .object({
    id: z.uuid(),
    displayName: z.string().nullable(),
    bio: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    preferences: PreferencesSchema,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Profile' });

export const ProfileResponse = z.object({ profile: ProfileSchema }).meta({ id: 'ProfileReply' });

/** Partial update: absent fields are left unchanged (docs/design.md, Request shapes); a display name, when sent, must not be empty. Text is kept HTML-free. */
export const ProfileUpdateBody = z
  .object({
    displayName: plainText(PROFILE_LIMITS.displayName, { required: true }),
    bio: plainText(PROFILE_LIMITS.bio).nullable().describe('null or empty clears it'),
    preferences: PreferencesSchema.partial().strict(),
  })
  .partial()
  .strict()
  .meta({ id: 'ProfileUpdate' });
documentBody(ProfileUpdateBody, {
  examples: [
    {
      displayName: 'Ada Lovelace',
      bio: 'Reads about analytical engines',
      preferences: { theme: 'dark', emailNotifications: false },
    },
  ],
});

export const AvatarResponse = z
  .object({ avatarUrl: z.string(), profile: ProfileSchema })
  .meta({ id: 'AvatarReply' });

/** The multipart body of the avatar upload, as the document shows it (the route reads the stream itself). */
export const AVATAR_UPLOAD_BODY = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: filePart(
            'application/octet-stream',
            'An image (PNG, JPEG, WebP, GIF, SVG…; judged by its bytes) of at most 2 MB',
          ),
        },
      },
    },
  },
};
