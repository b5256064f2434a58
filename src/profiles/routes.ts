/** Profile routes: the profile, its update, and the avatar upload; plus serving stored avatars. */
import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../auth/index.js';
import type { AppContext } from '../context.js';
import { isValidBlobKey } from '../platform/blob-store.js';
import { notFound, payloadTooLarge, validationError } from '../platform/errors.js';
import { ErrorResponse, PUBLIC } from '../platform/openapi.js';
import { MAX_AVATAR_BYTES, processAvatar } from './avatar.js';
import { presentProfile } from './presenters.js';
import {
  AVATAR_UPLOAD_BODY,
  AvatarResponse,
  ProfileResponse,
  ProfileUpdateBody,
} from './schemas.js';
import { getOrCreateProfile, replaceAvatar, updateProfile } from './store.js';
import { ownValue } from '../platform/own-key.js';

const tags = ['profile'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};
/** The stored image's bytes (sent as they are, never serialised). */
const AvatarFile = z
  .custom<Buffer>((value) => Buffer.isBuffer(value))
  .meta({ type: 'string', contentMediaType: 'application/octet-stream' });

export async function profileRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/profile',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'getProfile',
        summary: "The signed-in user's profile (created with defaults if missing)",
        response: { 200: ProfileResponse, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { profile: presentProfile(await getOrCreateProfile(ctx.db, user.id, user.name)) };
    },
  );

  app.put(
    '/api/profile',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'updateProfile',
        summary: 'Update the profile (partial): displayName ≤ 50, bio ≤ 500, preferences',
        body: ProfileUpdateBody,
        response: { 200: ProfileResponse, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { displayName, bio, preferences } = request.body;
      const changes: Parameters<typeof updateProfile>[3] = {};
      if (displayName !== undefined) changes.displayName = displayName;
      if (bio !== undefined) changes.bio = bio || null;
      if (preferences) changes.preferences = preferences;
      return { profile: presentProfile(await updateProfile(ctx.db, user.id, user.name, changes)) };
    },
  );

  // Multipart parsing (and its per-request hooks) only where a file is uploaded: its own scope.
  await app.register(async (uploads) => {
    await uploads.register(multipart, {
      limits: { fileSize: MAX_AVATAR_BYTES, files: 1, fields: 10, parts: 12 },
    });
    avatarUploadRoute(uploads, ctx);
  });

  app.get(
    '/storage/avatars/:userId/:file',
    {
      schema: {
        tags: ['storage'],
        operationId: 'getAvatarFile',
        summary: 'A stored avatar (public)',
        security: PUBLIC,
        params: z.object({
          userId: z.uuid(),
          file: z
            .string()
            .regex(
              /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{1,16})\.(?:png|jpg|webp)$/,
            ),
        }),
        response: {
          200: {
            description: 'The image',
            content: Object.fromEntries(
              Object.values(CONTENT_TYPES).map((type) => [type, { schema: AvatarFile }]),
            ),
          },
          400: ErrorResponse,
          404: ErrorResponse,
        },
      },
      config: { auth: 'none', noCookies: true },
    },
    async (request, reply) => {
      const key = `avatars/${request.params.userId}/${request.params.file}`;
      const data = isValidBlobKey(key) ? await ctx.platform.blobs.get(key) : null;
      if (!data) throw notFound('File');
      const ext = request.params.file.split('.').pop() ?? '';
      return reply
        .header('content-type', ownValue(CONTENT_TYPES, ext) ?? 'application/octet-stream')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .send(data);
    },
  );
}

/** POST /api/profile/avatar, registered in a scope that parses multipart bodies. */
function avatarUploadRoute(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/profile/avatar',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'uploadAvatar',
        summary: 'Upload an avatar: multipart field `file`, an image of at most 2 MB',
        consumes: ['multipart/form-data'],
        requestBody: AVATAR_UPLOAD_BODY,
        response: { 200: AvatarResponse, 413: ErrorResponse, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (!request.isMultipart())
        throw validationError(
          'file',
          'required',
          'Send the image as multipart/form-data in a field named "file"',
        );
      const part = await request.file({
        limits: { fileSize: MAX_AVATAR_BYTES, files: 1, fields: 5 },
      });
      if (!part || part.fieldname !== 'file')
        throw validationError('file', 'required', 'Send the image in a field named "file"');
      // toBuffer() reads the stream and stops past the limit, so a large upload is never held whole.
      const upload = await part.toBuffer().catch((error: { code?: string }) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE')
          throw payloadTooLarge('The image must be at most 2 MB');
        throw error;
      });
      if (part.file.truncated) throw payloadTooLarge('The image must be at most 2 MB');
      if (upload.length === 0) throw validationError('file', 'empty', 'The file is empty');
      const avatar = await processAvatar(upload);
      // A fresh name per upload: two uploads in the same millisecond must not overwrite each other's file
      // (a failed one deletes its own file, which must not be the avatar the other just set).
      const key = `avatars/${user.id}/${randomUUID()}.${avatar.ext}`;
      await ctx.platform.blobs.put(key, avatar.data);
      const url = ctx.platform.blobs.publicUrl(key);
      const { profile, previousKey } = await replaceAvatar(ctx.db, user.id, user.name, {
        key,
        url,
      }).catch(async (error: unknown) => {
        await ctx.platform.blobs.delete(key);
        throw error;
      });
      if (previousKey && previousKey !== key)
        await ctx.platform.blobs.delete(previousKey).catch(() => undefined);
      return { avatarUrl: url, profile: presentProfile(profile) };
    },
  );
}
