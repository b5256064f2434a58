/**
 * The account as a whole: what it holds (GET /api/account), its deletion (DELETE /api/account) and
 * the download of all its data (GET /api/account/export), against the real stores of each leg.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../../test/support/api-types.js';
import {
  buildTestApp,
  SERVICE_PASSWORD_HASH_COST,
  storeLegs,
  type TestApp,
} from '../../test/support/app.js';
import { buildUser, cookiesFrom, type TestUser } from '../../test/support/factories.js';
import { mailWrittenBy } from '../../test/support/outbox.js';
import { EXPORT_MAX_RESOURCES } from './commands.js';
import {
  resourcePdfs,
  searchEvents,
  shareLinks,
  workspaceResources,
  workspaces,
} from '../platform/db/schema.js';
import { makePagedPdf } from '../summaries/test-support/pdfs.js';
import {
  addResource,
  annotate,
  createWorkspace,
  pdfMultipart,
  shareWorkspace,
} from '../workspaces/test-support/helpers.js';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`account (${leg.name})`, () => {
    let t: TestApp;
    /** A one-page PDF: its text is extracted quickly (what is deleted is the file, whatever it holds). */
    let PDF: Buffer;
    beforeAll(async () => {
      t = await buildTestApp({
        leg,
        env: {
          RATE_LIMIT_SIGNIN_PER_15MIN_PER_EMAIL: '3',
          RATE_LIMIT_SIGNUP_PER_HOUR_PER_IP: '100',
        },
        // The service's own hashing cost on PostgreSQL: at the least cost the refreshes racing the
        // deletion deadlocked with it ("lets no sign-in … racing the deletion"; the deletion now locks
        // the refresh tokens before the user, as a refresh does, and passed so twice), but another test
        // of this file failed once in three runs there, not yet understood.
        ...(leg.postgres ? { build: { passwordHashCost: SERVICE_PASSWORD_HASH_COST } } : {}),
      });
      PDF = await makePagedPdf(['A short paper kept with a resource.']);
    });
    afterAll(async () => t?.close());

    /** A user with one workspace holding two resources (one with a PDF), an annotation, a share link, an avatar file and a search. */
    async function userWithData(): Promise<{
      user: TestUser;
      workspaceId: string;
      share: { token: string; url: string };
      pdfKey: string;
      avatarKey: string;
    }> {
      const user = await buildUser(t.app);
      const workspace = await createWorkspace(t.app, user, { name: 'Thesis reading' });
      const first = await addResource(t.app, user, workspace.id, {
        title: 'Neural Turing Machines',
        url: 'https://arxiv.org/abs/1410.5401',
        type: 'preprint',
        authors: ['Alex Graves', 'Greg Wayne'],
        tags: ['memory'],
        notes: 'Read section 3 twice.',
        data: { arxivId: '1410.5401', publishedDate: '2014-10-20' },
      });
      await addResource(t.app, user, workspace.id, {
        title: 'Deep learning',
        type: 'article',
        authors: ['Yann LeCun'],
        data: { doi: '10.1038/nature14539', publishedDate: '2015-05-28', journal: 'Nature' },
      });
      await annotate(t.app, user, first.id, { body: 'The controller is an LSTM.' });
      const share = await shareWorkspace(t.app, user, workspace.id);
      const upload = pdfMultipart('vespa.pdf', PDF);
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/workspaces/${workspace.id}/resources/${first.id}/pdf`,
        headers: { ...user.bearer, ...upload.headers },
        payload: upload.payload,
      });
      expect(put.statusCode).toBe(200);
      const [pdf] = await t.app.ctx.db
        .select({ key: resourcePdfs.blobKey })
        .from(resourcePdfs)
        .where(eq(resourcePdfs.resourceId, first.id));
      const avatarKey = `avatars/${user.id}/00000000-0000-4000-8000-000000000001.jpg`;
      await t.app.ctx.platform.blobs.put(avatarKey, Buffer.from('a stored avatar'));
      await t.app.ctx.db.insert(searchEvents).values({
        userId: user.id,
        query: 'neural memory',
        normalizedQuery: 'neural memory',
        providers: ['arxiv'],
        resultCount: 7,
        tookMs: 12,
      });
      return { user, workspaceId: workspace.id, share, pdfKey: pdf!.key, avatarKey };
    }

    describe('GET /api/account', () => {
      it('counts what deleting the account would delete, and says how it signs in', async () => {
        const { user } = await userWithData();
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/account',
          headers: user.bearer,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          email: user.email,
          hasPassword: true,
          signInMethods: ['password'],
          holdings: {
            workspaces: 1,
            resources: 2,
            pdfs: 1,
            annotations: 1,
            activeShareLinks: 1,
            sharedWorkspaces: 0,
            memberships: 0,
          },
        });
      });

      it('counts owned workspaces shared with members, and other people’s it would leave; deletion leaves theirs to them', async () => {
        const user = await buildUser(t.app);
        const colleague = await buildUser(t.app);
        const own = await createWorkspace(t.app, user);
        const theirs = await createWorkspace(t.app, colleague);
        const addMember = (owner: TestUser, workspaceId: string, email: string) =>
          t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${workspaceId}/members`,
            headers: owner.bearer,
            payload: { email, role: 'editor' },
          });
        expect((await addMember(user, own.id, colleague.email)).statusCode).toBe(201);
        expect((await addMember(colleague, theirs.id, user.email)).statusCode).toBe(201);
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/account',
          headers: user.bearer,
        });
        expect(res.json<ApiSchema<'AccountSummary'>>().holdings).toMatchObject({
          workspaces: 1,
          sharedWorkspaces: 1,
          memberships: 1,
        });
        const deleted = await t.app.inject({
          method: 'DELETE',
          url: '/api/account',
          headers: user.bearer,
          payload: { password: user.password },
        });
        expect(deleted.statusCode).toBe(200);
        // The colleague loses the deleted account's workspace and keeps their own.
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/workspaces/${own.id}`,
              headers: colleague.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/workspaces/${theirs.id}`,
              headers: colleague.bearer,
            })
          ).statusCode,
        ).toBe(200);
      });

      it('answers 401 without a session', async () => {
        expect((await t.app.inject({ method: 'GET', url: '/api/account' })).statusCode).toBe(401);
      });
    });

    describe('GET /api/account/export', () => {
      it(
        'downloads everything as JSON: workspaces with resources, notes, tags, ' +
          'annotations, PDFs and share links without tokens, and the search history',
        async () => {
          const { user, share } = await userWithData();
          const other = await buildUser(t.app);
          await createWorkspace(t.app, other, { name: 'Not yours' });
          const res = await t.app.inject({
            method: 'GET',
            url: '/api/account/export?format=json',
            headers: user.bearer,
          });
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-disposition']).toMatch(
            /^attachment; filename="research-workspace-\d{4}-\d{2}-\d{2}\.json"$/,
          );
          expect(res.headers['cache-control']).toBe('private, no-store');
          expect(res.body).not.toContain(share.token);
          expect(res.body).not.toContain('argon2');
          const data = res.json();
          expect(data.user).toMatchObject({
            id: user.id,
            email: user.email,
            name: 'Ada Researcher',
            signInMethods: ['password'],
          });
          expect(data.profile).toMatchObject({ displayName: 'Ada Researcher' });
          expect(data.workspaces.map((w: { name: string }) => w.name)).toEqual(['Thesis reading']);
          const [workspace] = data.workspaces;
          const ntm = workspace.resources.find(
            (r: { title: string }) => r.title === 'Neural Turing Machines',
          );
          expect(ntm).toMatchObject({
            tags: ['memory'],
            notes: 'Read section 3 twice.',
            authors: ['Alex Graves', 'Greg Wayne'],
            pdf: { filename: 'vespa.pdf', byteSize: PDF.length },
          });
          expect(ntm.annotations.map((a: { body: string }) => a.body)).toEqual([
            'The controller is an LSTM.',
          ]);
          expect(workspace.shareLinks).toHaveLength(1);
          expect(Object.keys(workspace.shareLinks[0]).sort()).toEqual([
            'createdAt',
            'expiresAt',
            'id',
            'pausedAt',
            'readOnly',
            'revokedAt',
          ]);
          expect(data.searchHistory).toEqual([
            expect.objectContaining({
              query: 'neural memory',
              providers: ['arxiv'],
              resultCount: 7,
            }),
          ]);
          expect(data.searchHistoryTruncated).toBe(false);
        },
      );

      it('downloads every resource as BibTeX that a parser reads back', async () => {
        const { user } = await userWithData();
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/account/export?format=bibtex',
          headers: user.cookieHeaders,
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
        expect(res.headers['content-disposition']).toMatch(
          /filename="research-workspace-\d{4}-\d{2}-\d{2}\.bib"$/,
        );
        const { entries, errors } = parseBibtex(res.body, { english: false });
        expect(errors).toEqual([]);
        const byTitle = new Map(entries.map((entry) => [entry.fields.title, entry]));
        expect(byTitle.get('Neural Turing Machines')).toMatchObject({
          type: 'misc',
          fields: { eprint: '1410.5401', annote: 'Read section 3 twice.' },
        });
        expect(byTitle.get('Deep learning')).toMatchObject({
          type: 'article',
          fields: { doi: '10.1038/nature14539', journal: 'Nature' },
        });
      });

      it(`refuses with a sentence (413) an account past ${EXPORT_MAX_RESOURCES.toLocaleString('en-US')} resources, in either format`, async () => {
        const user = await buildUser(t.app);
        const workspace = await createWorkspace(t.app, user);
        await t.app.ctx.db.execute(
          sql`insert into workspace_resources (workspace_id, title)
              select ${workspace.id}::uuid, 'Paper ' || n
              from generate_series(1, ${EXPORT_MAX_RESOURCES + 1}) as n`,
        );
        for (const format of ['json', 'bibtex']) {
          const res = await t.app.inject({
            method: 'GET',
            url: `/api/account/export?format=${format}`,
            headers: user.bearer,
          });
          expect(res.statusCode).toBe(413);
          expect(res.json().error.message).toBe(
            'Your workspaces hold 20,001 resources, more than the 20,000 one download can hold. Export your workspaces one by one from their pages.',
          );
        }
      });

      it('refuses an unknown format (400 naming it) and a visitor (401)', async () => {
        const user = await buildUser(t.app);
        const bad = await t.app.inject({
          method: 'GET',
          url: '/api/account/export?format=xml',
          headers: user.bearer,
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().error.details.field).toBe('format');
        expect((await t.app.inject({ method: 'GET', url: '/api/account/export' })).statusCode).toBe(
          401,
        );
      });
    });

    describe('DELETE /api/account', () => {
      it('deletes the account with its workspaces, files, share links and sessions, clears the cookies, says goodbye, and frees the address', async () => {
        const { user, workspaceId, share, pdfKey, avatarKey } = await userWithData();
        const elsewhere = (
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/signin',
            payload: { email: user.email, password: user.password },
          })
        ).json().session;
        const blobs = t.app.ctx.platform.blobs;
        expect(await blobs.get(pdfKey)).not.toBeNull();
        expect(
          (await t.app.inject({ method: 'GET', url: new URL(share.url).pathname })).statusCode,
        ).toBe(200);

        let res!: Awaited<ReturnType<typeof t.app.inject>>;
        const mail = await mailWrittenBy(t.dataDir, async () => {
          res = await t.app.inject({
            method: 'DELETE',
            url: '/api/account',
            headers: user.cookieHeaders,
            payload: { password: user.password },
          });
        });
        expect(res.statusCode).toBe(200);
        expect(mail).toContain('Subject: Your Research Workspace account was deleted');
        const cleared = res.headers['set-cookie'] as string[];
        expect(cleared.find((c) => c.startsWith('access_token='))).toMatch(
          /Expires=Thu, 01 Jan 1970/,
        );
        expect(cleared.find((c) => c.startsWith('refresh_token='))).toMatch(
          /Expires=Thu, 01 Jan 1970/,
        );

        const db = t.app.ctx.db;
        expect(await db.select().from(workspaces).where(eq(workspaces.id, workspaceId))).toEqual(
          [],
        );
        expect(
          await db
            .select({ id: workspaceResources.id })
            .from(workspaceResources)
            .where(eq(workspaceResources.workspaceId, workspaceId)),
        ).toEqual([]);
        expect(
          await db
            .select({ id: shareLinks.id })
            .from(shareLinks)
            .where(eq(shareLinks.workspaceId, workspaceId)),
        ).toEqual([]);
        expect(
          await db
            .select({ id: searchEvents.id })
            .from(searchEvents)
            .where(eq(searchEvents.userId, user.id)),
        ).toEqual([]);
        expect(await blobs.get(pdfKey)).toBeNull();
        expect(await blobs.get(avatarKey)).toBeNull();
        expect(
          (await t.app.inject({ method: 'GET', url: new URL(share.url).pathname })).statusCode,
        ).toBe(404);
        // Every session ends: this one's tokens, and another device's access and refresh tokens.
        expect(
          (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: user.bearer }))
            .statusCode,
        ).toBe(401);
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: '/api/auth/session',
              headers: { authorization: `Bearer ${elsewhere.access_token}` },
            })
          ).statusCode,
        ).toBe(401);
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: '/api/auth/refresh',
              payload: { refresh_token: elsewhere.refresh_token },
            })
          ).statusCode,
        ).toBe(401);
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: '/api/auth/signin',
              payload: { email: user.email, password: user.password },
            })
          ).statusCode,
        ).toBe(401);

        const again = await t.app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          payload: { email: user.email, password: 'a-fresh-start-8812' },
        });
        expect(again.statusCode).toBe(201);
        expect(again.json().user.id).not.toBe(user.id);
      });

      it('refuses a wrong or missing password with a sentence naming the field, deletes nothing, and throttles guessing like sign-in', async () => {
        const { user, workspaceId } = await userWithData();
        const missing = await t.app.inject({
          method: 'DELETE',
          url: '/api/account',
          headers: user.bearer,
          payload: {},
        });
        expect(missing.statusCode).toBe(400);
        expect(missing.json().error.details).toEqual({ field: 'password', reason: 'required' });
        const codes: number[] = [];
        for (let i = 0; i < 4; i++) {
          codes.push(
            (
              await t.app.inject({
                method: 'DELETE',
                url: '/api/account',
                headers: user.bearer,
                payload: { password: 'not-my-password-1' },
              })
            ).statusCode,
          );
        }
        expect(codes).toEqual([400, 400, 400, 429]);
        expect(
          (await t.app.ctx.db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))
            .length,
        ).toBe(1);
        expect(
          (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: user.bearer }))
            .statusCode,
        ).toBe(200);
      });

      it('asks an account without a password to type its e-mail address', async () => {
        const user = await buildUser(t.app);
        const { users } = await import('../platform/db/schema.js');
        await t.app.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
        const summary = (
          await t.app.inject({ method: 'GET', url: '/api/account', headers: user.bearer })
        ).json();
        expect(summary).toMatchObject({ hasPassword: false, signInMethods: [] });
        const wrong = await t.app.inject({
          method: 'DELETE',
          url: '/api/account',
          headers: user.bearer,
          payload: { email: 'someone@example.org' },
        });
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json().error.details).toEqual({ field: 'email', reason: 'mismatch' });
        const res = await t.app.inject({
          method: 'DELETE',
          url: '/api/account',
          headers: user.bearer,
          payload: { email: ` ${user.email.toUpperCase()} ` },
        });
        expect(res.statusCode).toBe(200);
      });

      it('refuses a cookie request from another origin (403) and a visitor (401)', async () => {
        const user = await buildUser(t.app);
        const res = await t.app.inject({
          method: 'DELETE',
          url: '/api/account',
          headers: { cookie: user.cookie, origin: 'https://evil.test' },
          payload: { password: user.password },
        });
        expect(res.statusCode).toBe(403);
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: '/api/account',
              payload: { password: 'x' },
            })
          ).statusCode,
        ).toBe(401);
        expect(cookiesFrom(res)).toEqual({});
      });

      it('stays deleted when a file cannot be deleted: the other files go, and the reply is still 200', async () => {
        const { user, pdfKey, avatarKey } = await userWithData();
        // A real failure of the disk store: a folder where the PDF's file was cannot be removed as a file.
        const pdfPath = join(t.dataDir, 'blobs', pdfKey);
        await rm(pdfPath);
        await mkdir(pdfPath);
        await writeFile(join(pdfPath, 'inside'), 'x');
        try {
          const res = await t.app.inject({
            method: 'DELETE',
            url: '/api/account',
            headers: user.bearer,
            payload: { password: user.password },
          });
          expect(res.statusCode).toBe(200);
          expect(
            await t.app.ctx.db
              .select({ id: workspaces.id })
              .from(workspaces)
              .where(eq(workspaces.ownerId, user.id)),
          ).toEqual([]);
          expect(await t.app.ctx.platform.blobs.get(avatarKey)).toBeNull();
          expect(
            (
              await t.app.inject({
                method: 'POST',
                url: '/api/auth/signin',
                payload: { email: user.email, password: user.password },
              })
            ).statusCode,
          ).toBe(401);
        } finally {
          await rm(pdfPath, { recursive: true, force: true });
        }
      });

      it('lets no sign-in or refresh racing the deletion leave a live session', async () => {
        let minted = 0;
        for (let trial = 0; trial < 3; trial++) {
          const user = await buildUser(t.app);
          const signIns = Array.from({ length: 4 }, () =>
            t.app.inject({
              method: 'POST',
              url: '/api/auth/signin',
              payload: { email: user.email, password: user.password },
            }),
          );
          const refreshes = Array.from({ length: 2 }, () =>
            t.app.inject({
              method: 'POST',
              url: '/api/auth/refresh',
              payload: { refresh_token: user.refreshToken },
            }),
          );
          const deletion = t.app.inject({
            method: 'DELETE',
            url: '/api/account',
            headers: user.bearer,
            payload: { password: user.password },
          });
          const [deleted, ...raced] = await Promise.all([deletion, ...signIns, ...refreshes]);
          expect(deleted.statusCode).toBe(200);
          for (const res of raced.filter((r) => r.statusCode === 200)) {
            minted++;
            const { access_token, refresh_token } = res.json<ApiSchema<'SignInResult'>>().session;
            expect(
              (
                await t.app.inject({
                  method: 'GET',
                  url: '/api/auth/session',
                  headers: { authorization: `Bearer ${access_token}` },
                })
              ).statusCode,
            ).toBe(401);
            expect(
              (
                await t.app.inject({
                  method: 'POST',
                  url: '/api/auth/refresh',
                  payload: { refresh_token },
                })
              ).statusCode,
            ).toBe(401);
          }
          expect(
            await t.app.ctx.db
              .select({ id: workspaces.id })
              .from(workspaces)
              .where(eq(workspaces.ownerId, user.id)),
          ).toEqual([]);
        }
        // The race was run: some sign-ins or refreshes were answered before the deletion ended them.
        expect(minted).toBeGreaterThan(0);
      });

      it('leaves no row behind when resources are added while the account is deleted', async () => {
        for (let trial = 0; trial < 4; trial++) {
          const user = await buildUser(t.app);
          const workspace = await createWorkspace(t.app, user);
          const adds = Array.from({ length: 6 }, (_, i) =>
            t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${workspace.id}/resources`,
              headers: user.bearer,
              payload: { title: `Paper ${trial}-${i}`, url: `https://example.org/${trial}/${i}` },
            }),
          );
          const deletion = t.app.inject({
            method: 'DELETE',
            url: '/api/account',
            headers: user.bearer,
            payload: { password: user.password },
          });
          const [deleted, ...added] = await Promise.all([deletion, ...adds]);
          expect(deleted.statusCode).toBe(200);
          for (const res of added) expect([201, 401, 404]).toContain(res.statusCode);
          expect(
            await t.app.ctx.db
              .select({ id: workspaceResources.id })
              .from(workspaceResources)
              .where(eq(workspaceResources.workspaceId, workspace.id)),
          ).toEqual([]);
          expect(
            await t.app.ctx.db
              .select({ id: workspaces.id })
              .from(workspaces)
              .where(eq(workspaces.ownerId, user.id)),
          ).toEqual([]);
        }
      });
    });
  });
}
