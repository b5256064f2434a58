import { z } from 'zod';

export const PreferencesSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']),
  language: z.literal('en-IN'),
  emailNotifications: z.boolean(),
  marketingEmails: z.boolean(),
});

export const ProfileSchema = z.object({
  id: z.uuid(),
  displayName: z.string().nullable(),
  bio: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  preferences: PreferencesSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const ProfileResponse = z.object({ profile: ProfileSchema });

/** Partial update (DESIGN.md §3); a display name, when sent, must not be empty. */
export const ProfileUpdateBody = z
  .object({
    displayName: z.string().max(500),
    bio: z.string().max(5000).nullable(),
    preferences: PreferencesSchema.partial().strict(),
  })
  .partial()
  .strict();

export const AvatarResponse = z.object({ avatarUrl: z.string(), profile: ProfileSchema });
