/**
 * What the profile forms send, checked with the limits the API publishes for PUT /api/profile and
 * POST /api/profile/avatar (src/profiles/schemas.ts). The server checks again: it strips HTML first
 * and applies the limits to the text it keeps, and only it can tell a real image from a renamed file.
 */
import { z } from 'zod/mini';

const DISPLAY_NAME_MAX = 50;
const BIO_MAX = 500;
const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** The limits a counter under each field shows while the user types. */
export const PROFILE_LIMITS = { displayName: DISPLAY_NAME_MAX, bio: BIO_MAX } as const;

export const ProfileDetailsForm = z.object({
  displayName: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'A display name is required.'),
      z.maxLength(DISPLAY_NAME_MAX, `At most ${DISPLAY_NAME_MAX} characters.`),
    ),
  // Blank clears the bio.
  bio: z.pipe(
    z.string().check(z.maxLength(BIO_MAX, `At most ${BIO_MAX} characters.`)),
    z.transform((bio) => (bio.trim() === '' ? null : bio)),
  ),
});

/** Why a chosen file cannot be an avatar, before it is sent (the server checks again). */
export function avatarProblem(file: { size: number; type: string }): string | null {
  if (file.type && !file.type.startsWith('image/'))
    return 'Only image files can be an avatar (JPG, PNG, WebP…).';
  if (file.size > AVATAR_MAX_BYTES) return 'The image is larger than 2 MB. Choose a smaller one.';
  if (file.size === 0) return 'The file is empty.';
  return null;
}

/** The file input's list → the one image to upload. */
export const AvatarForm = z.object({
  file: z.pipe(
    z.custom<FileList | undefined>(),
    z.transform((files, context) => {
      const file = files?.item(0);
      const problem = file ? avatarProblem(file) : 'Choose an image.';
      if (!file || problem) {
        context.issues.push({
          code: 'custom',
          input: files,
          message: problem ?? 'Choose an image.',
        });
        return z.NEVER;
      }
      return file;
    }),
  ),
});

export const PreferencesForm = z.object({
  theme: z.enum(['system', 'light', 'dark']),
  language: z.literal('en-IN'),
  emailNotifications: z.boolean(),
  marketingEmails: z.boolean(),
});
