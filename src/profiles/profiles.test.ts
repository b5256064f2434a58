import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import { buildUser } from '../../test/support/factories.js';

function multipart(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = `----rwtest${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A real JPEG with EXIF and an ICC profile, so that stripping can be checked. */
async function photoWithMetadata(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .withExif({ IFD0: { Copyright: 'SECRET-EXIF-MARKER', Artist: 'Someone' } })
    .jpeg()
    .toBuffer();
}

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`profiles (${leg.name})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
    });
    afterAll(async () => t?.close());

    describe('GET /api/profile', () => {
      it('returns the profile with default preferences', async () => {
        const user = await buildUser(t.app, { name: 'Rosalind' });
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/profile',
          headers: user.bearer,
        });
        expect(res.statusCode).toBe(200);
        const { profile } = res.json();
        expect(profile).toMatchObject({
          displayName: 'Rosalind',
          bio: null,
          avatarUrl: null,
          preferences: {
            theme: 'system',
            language: 'en-IN',
            emailNotifications: true,
            marketingEmails: false,
          },
        });
        expect(profile).not.toHaveProperty('userId');
      });

      it('creates a default profile when none exists', async () => {
        const user = await buildUser(t.app, { name: 'No Profile' });
        const { profiles } = await import('../platform/db/schema.js');
        const { eq } = await import('drizzle-orm');
        await t.app.ctx.db.delete(profiles).where(eq(profiles.userId, user.id));
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/profile',
          headers: user.bearer,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().profile.displayName).toBe('No Profile');
      });

      it('answers 401 without a session', async () => {
        const res = await t.app.inject({ method: 'GET', url: '/api/profile' });
        expect(res.statusCode).toBe(401);
      });
    });

    describe('PUT /api/profile', () => {
      it('updates partially, strips HTML and keeps other fields', async () => {
        const user = await buildUser(t.app);
        const first = await t.app.inject({
          method: 'PUT',
          url: '/api/profile',
          headers: user.bearer,
          payload: {
            displayName: '<i>Marie</i> Curie',
            bio: 'Physics <script>alert(1)</script>and chemistry',
            preferences: { theme: 'dark' },
          },
        });
        expect(first.statusCode).toBe(200);
        expect(first.json().profile).toMatchObject({
          displayName: 'Marie Curie',
          bio: 'Physics and chemistry',
        });
        expect(first.json().profile.preferences).toMatchObject({
          theme: 'dark',
          language: 'en-IN',
          emailNotifications: true,
        });
        const second = await t.app.inject({
          method: 'PUT',
          url: '/api/profile',
          headers: user.bearer,
          payload: { preferences: { marketingEmails: true } },
        });
        expect(second.json().profile).toMatchObject({
          displayName: 'Marie Curie',
          preferences: { theme: 'dark', marketingEmails: true },
        });
      });

      it('works by cookie from the app origin', async () => {
        const user = await buildUser(t.app);
        const res = await t.app.inject({
          method: 'PUT',
          url: '/api/profile',
          headers: user.cookieHeaders,
          payload: { bio: 'cookie bio' },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().profile.bio).toBe('cookie bio');
      });

      it.each([
        [{ displayName: '' }, 'displayName'],
        [{ displayName: '<b></b>' }, 'displayName'],
        [{ displayName: 'x'.repeat(51) }, 'displayName'],
        [{ bio: 'y'.repeat(501) }, 'bio'],
        [{ preferences: { theme: 'purple' } }, 'preferences.theme'],
        [{ preferences: { language: 'fr-FR' } }, 'preferences.language'],
        [{ preferences: { emailNotifications: 'yes' } }, 'preferences.emailNotifications'],
      ])('rejects %j naming %s', async (payload, field) => {
        const user = await buildUser(t.app);
        const res = await t.app.inject({
          method: 'PUT',
          url: '/api/profile',
          headers: user.bearer,
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.field).toBe(field);
      });

      it('takes a display name of 50 and a bio of 500 characters, and the OpenAPI document says so', async () => {
        const user = await buildUser(t.app);
        const res = await t.app.inject({
          method: 'PUT',
          url: '/api/profile',
          headers: user.bearer,
          payload: { displayName: 'x'.repeat(50), bio: 'y'.repeat(500) },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().profile).toMatchObject({
          displayName: 'x'.repeat(50),
          bio: 'y'.repeat(500),
        });
        const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
        let body = doc.paths['/api/profile'].put.requestBody.content['application/json'].schema;
        if (body.$ref)
          body = doc.components.schemas[body.$ref.replace('#/components/schemas/', '')];
        expect(body.properties.displayName.maxLength).toBe(50);
        const bio = body.properties.bio;
        expect(
          bio.maxLength ??
            bio.anyOf?.find((option: { type?: string }) => option.type === 'string')?.maxLength,
        ).toBe(500);
      });

      it('answers 401 without a session', async () => {
        const res = await t.app.inject({
          method: 'PUT',
          url: '/api/profile',
          payload: { bio: 'x' },
        });
        expect(res.statusCode).toBe(401);
      });
    });

    describe('POST /api/profile/avatar', () => {
      it('stores a re-encoded image without metadata, serves it at the returned URL, and removes the previous one', async () => {
        const user = await buildUser(t.app);
        const original = await photoWithMetadata();
        expect(original.includes(Buffer.from('SECRET-EXIF-MARKER'))).toBe(true);
        const upload = multipart('file', 'me.png', 'image/png', original);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/profile/avatar',
          headers: { ...user.bearer, ...upload.headers },
          payload: upload.payload,
        });
        expect(res.statusCode).toBe(200);
        const { avatarUrl, profile } = res.json();
        expect(avatarUrl).toMatch(
          new RegExp(
            `^http://api\\.test/storage/avatars/${user.id}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.jpg$`,
          ),
        );
        expect(profile.avatarUrl).toBe(avatarUrl);

        const fetched = await t.app.inject({ method: 'GET', url: new URL(avatarUrl).pathname });
        expect(fetched.statusCode).toBe(200);
        expect(fetched.headers['content-type']).toBe('image/jpeg');
        expect(fetched.headers['set-cookie']).toBeUndefined();
        expect(fetched.rawPayload.includes(Buffer.from('SECRET-EXIF-MARKER'))).toBe(false);
        const meta = await sharp(fetched.rawPayload).metadata();
        expect(meta.exif).toBeUndefined();
        expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(512);

        const session = await t.app.inject({
          method: 'GET',
          url: '/api/auth/session',
          headers: user.bearer,
        });
        expect(session.json().user.avatarUrl).toBe(avatarUrl);

        // A PNG this time (the first was stored as JPEG); then the same image again at once: each upload
        // gets a file of its own, so the one that wins is served and the others are gone.
        const png = await sharp({
          create: { width: 64, height: 64, channels: 4, background: '#00ff0080' },
        })
          .png()
          .toBuffer();
        const second = multipart('file', 'x.jpg', 'image/jpeg', png);
        const replaced = await t.app.inject({
          method: 'POST',
          url: '/api/profile/avatar',
          headers: { ...user.bearer, ...second.headers },
          payload: second.payload,
        });
        expect(replaced.statusCode).toBe(200);
        expect(replaced.json().avatarUrl).toMatch(/\.png$/);
        expect(
          (await t.app.inject({ method: 'GET', url: new URL(avatarUrl).pathname })).statusCode,
        ).toBe(404);
        const again = await t.app.inject({
          method: 'POST',
          url: '/api/profile/avatar',
          headers: { ...user.bearer, ...second.headers },
          payload: second.payload,
        });
        expect(again.json().avatarUrl).not.toBe(replaced.json().avatarUrl);
        expect(
          (await t.app.inject({ method: 'GET', url: new URL(again.json().avatarUrl).pathname }))
            .statusCode,
        ).toBe(200);
        expect(
          (await t.app.inject({ method: 'GET', url: new URL(replaced.json().avatarUrl).pathname }))
            .statusCode,
        ).toBe(404);
      });

      it('still serves an avatar stored under the earlier, time-based file name', async () => {
        const user = await buildUser(t.app);
        const jpeg = await sharp({
          create: { width: 8, height: 8, channels: 3, background: '#336699' },
        })
          .jpeg()
          .toBuffer();
        await t.app.ctx.platform.blobs.put(`avatars/${user.id}/1795573037170.jpg`, jpeg);
        const res = await t.app.inject({
          method: 'GET',
          url: `/storage/avatars/${user.id}/1795573037170.jpg`,
        });
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.equals(jpeg)).toBe(true);
        expect(
          (await t.app.inject({ method: 'GET', url: `/storage/avatars/${user.id}/not-a-name.jpg` }))
            .statusCode,
        ).toBe(400);
      });

      it('judges by bytes: a text file named .png is refused', async () => {
        const user = await buildUser(t.app);
        const upload = multipart(
          'file',
          'evil.png',
          'image/png',
          Buffer.from('<html><script>alert(1)</script></html>'),
        );
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/profile/avatar',
          headers: { ...user.bearer, ...upload.headers },
          payload: upload.payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.field).toBe('file');
      });

      it('answers 413 past 2 MB', async () => {
        const user = await buildUser(t.app);
        const big = Buffer.concat([
          await photoWithMetadata(16, 16),
          Buffer.alloc(2 * 1024 * 1024 + 10, 1),
        ]);
        const upload = multipart('file', 'big.jpg', 'image/jpeg', big);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/profile/avatar',
          headers: { ...user.bearer, ...upload.headers },
          payload: upload.payload,
        });
        expect(res.statusCode).toBe(413);
        expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
      });

      it('requires the field to be named "file" and the body to be multipart', async () => {
        const user = await buildUser(t.app);
        const wrongField = multipart(
          'avatar',
          'a.jpg',
          'image/jpeg',
          await photoWithMetadata(16, 16),
        );
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/profile/avatar',
          headers: { ...user.bearer, ...wrongField.headers },
          payload: wrongField.payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.field).toBe('file');
        const json = await t.app.inject({
          method: 'POST',
          url: '/api/profile/avatar',
          headers: user.bearer,
          payload: { file: 'x' },
        });
        expect(json.statusCode).toBe(400);
      });

      it('answers 401 without a session', async () => {
        const upload = multipart('file', 'a.jpg', 'image/jpeg', await photoWithMetadata(16, 16));
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/profile/avatar',
          headers: upload.headers,
          payload: upload.payload,
        });
        expect(res.statusCode).toBe(401);
      });
    });
  });
}
