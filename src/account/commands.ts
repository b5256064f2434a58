/** What the account routes do: delete the account (after its owner confirms) and gather its data for export. */
import type { FastifyBaseLogger } from 'fastify';
import { verifyPassword, type SessionDeps } from '../auth/index.js';
import type { BlobStore } from '../platform/blob-store.js';
import type { Db } from '../platform/db/client.js';
import { authenticationError, payloadTooLarge, validationError } from '../platform/errors.js';
import { composeMail, type Mailer } from '../platform/mail/index.js';
import { exportCitations } from '../workspaces/index.js';
import type { AccountExport } from './schemas.js';
import {
  countHoldings,
  deleteAccountRows,
  findAccount,
  readAccountData,
  signInMethods,
} from './store.js';

export interface AccountDeps {
  db: Db;
  sessions: SessionDeps;
  blobs: BlobStore;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

/** The newest searches an export holds. */
const SEARCH_HISTORY_LIMIT = 10_000;
/**
 * Resources one export holds: it is built in memory (a resource's record is at most 64 KB of data,
 * 10 KB of notes and 100 annotations), so an account past this is asked to export its workspaces one
 * by one (GET /api/workspaces/{id}/export) rather than taking the process's memory.
 */
export const EXPORT_MAX_RESOURCES = 20_000;

async function assertExportable(db: Db, userId: string): Promise<void> {
  const { resources } = await countHoldings(db, userId);
  if (resources > EXPORT_MAX_RESOURCES) {
    throw payloadTooLarge(
      `Your workspaces hold ${resources.toLocaleString('en-US')} resources, ` +
        `more than the ${EXPORT_MAX_RESOURCES.toLocaleString('en-US')} one ` +
        `download can hold. Export your workspaces one by one from their pages.`,
    );
  }
}

/**
 * The owner's confirmation: the current password for an account that has one, else its e-mail
 * address typed out (an account made through Google or GitHub). A wrong one is a 400 naming the field.
 */
async function assertConfirmed(
  user: { email: string; passwordHash: string | null },
  confirmation: { password?: string; email?: string },
): Promise<void> {
  if (user.passwordHash) {
    if (!confirmation.password)
      throw validationError(
        'password',
        'required',
        'Enter your current password to delete your account',
      );
    if (!(await verifyPassword(user.passwordHash, confirmation.password))) {
      throw validationError(
        'password',
        'incorrect',
        'The password is incorrect; your account was not deleted',
      );
    }
    return;
  }
  if ((confirmation.email ?? '').trim().toLowerCase() !== user.email) {
    throw validationError(
      'email',
      'mismatch',
      'Type your account’s e-mail address exactly to delete your account',
    );
  }
}

/**
 * Deletes the account: its rows in one transaction, then its sessions on every process, then its
 * files (avatars and PDFs). A file that fails to delete is logged and left: the account stays
 * deleted, and the PDF sweeper (workspaces/pdfs/sweeper.ts) removes PDF files no row refers to.
 * Then a goodbye mail. 401 when the credentials changed while the confirmation was checked.
 */
export async function deleteAccount(
  deps: AccountDeps,
  userId: string,
  confirmation: { password?: string; email?: string },
): Promise<void> {
  const user = await findAccount(deps.db, userId);
  if (!user) throw authenticationError();
  await assertConfirmed(user, confirmation);
  const deleted = await deleteAccountRows(deps.db, user.id, user.credentialsVersion);
  if (!deleted) throw authenticationError('Your sign-in details changed meanwhile; sign in again');
  await deps.sessions.revocations.revoke(deleted.sessionIds);
  const keys = [...deleted.pdfKeys];
  for await (const object of deps.blobs.list(`avatars/${user.id}/`)) keys.push(object.key);
  for (const key of keys) {
    try {
      await deps.blobs.delete(key);
    } catch (error) {
      deps.log.warn(
        { key, err: { message: (error as Error).message } },
        'a deleted account’s file could not be deleted',
      );
    }
  }
  try {
    await deps.mailer.send(
      composeMail({
        purpose: 'account-deleted',
        to: user.email,
        subject: 'Your Research Workspace account was deleted',
        blocks: [
          'Your Research Workspace account and everything in it were deleted, as you asked. Its share links no longer open anything.',
          'You can sign up again with this address at any time.',
        ],
      }),
    );
  } catch (error) {
    deps.log.warn({ err: { message: (error as Error).message } }, 'goodbye mail failed');
  }
}

/** Everything of the account as the JSON export presents it (no token, no password hash). */
export async function accountExport(db: Db, userId: string): Promise<AccountExport> {
  const user = await findAccount(db, userId);
  if (!user) throw authenticationError();
  await assertExportable(db, userId);
  return presentExport(db, user, await readAccountData(db, userId, SEARCH_HISTORY_LIMIT));
}

type AccountUser = NonNullable<Awaited<ReturnType<typeof findAccount>>>;
type AccountData = Awaited<ReturnType<typeof readAccountData>>;

/** A stored PDF as the archive holds it: its path in the archive and where its bytes are. */
export interface ArchivedPdf {
  path: string;
  blobKey: string;
  byteSize: number;
  uploadedAt: Date;
}

/**
 * What the account's archive (GET /api/account/export?format=zip) holds, from one read: the JSON
 * export, the BibTeX, and each stored PDF's place in `pdfs/<workspace>/<resource>.pdf`. The PDFs' bytes
 * are not read here: the archive streams them from the blob store one at a time.
 */
export async function accountArchive(
  db: Db,
  userId: string,
): Promise<{ json: AccountExport; bibtex: string; pdfs: ArchivedPdf[] }> {
  const user = await findAccount(db, userId);
  if (!user) throw authenticationError();
  await assertExportable(db, userId);
  const data = await readAccountData(db, userId, SEARCH_HISTORY_LIMIT);
  const json = await presentExport(db, user, data);
  const bibtex = (await exportCitations(data.resources, 'bibtex')).body;
  const resourceOf = new Map(data.resources.map((resource) => [resource.id, resource]));
  const folderOf = new Map(
    data.workspaces.map((workspace) => [
      workspace.id,
      `${pathSegment(workspace.name)}-${workspace.id.slice(0, 8)}`,
    ]),
  );
  const pdfs = data.pdfs.flatMap((pdf): ArchivedPdf[] => {
    const resource = resourceOf.get(pdf.resourceId);
    const folder = resource && folderOf.get(resource.workspaceId);
    if (!resource || !folder) return [];
    return [
      {
        path: `pdfs/${folder}/${pathSegment(resource.title)}-${resource.id.slice(0, 8)}.pdf`,
        blobKey: pdf.blobKey,
        byteSize: pdf.byteSize,
        uploadedAt: pdf.createdAt,
      },
    ];
  });
  pdfs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { json, bibtex, pdfs };
}

/**
 * A name as one segment of a path in the archive: letters and digits of any script, the rest `-`, at
 * most 60 characters; never empty, never `.` or `..`, never a separator.
 */
function pathSegment(name: string): string {
  const segment = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return segment || 'untitled';
}

async function presentExport(db: Db, user: AccountUser, data: AccountData): Promise<AccountExport> {
  const pdfOf = new Map(data.pdfs.map((pdf) => [pdf.resourceId, pdf]));
  const iso = (date: Date) => date.toISOString();
  const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    exportedAt: new Date().toISOString(),
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      emailConfirmed: user.emailConfirmedAt !== null,
      signInMethods: await signInMethods(db, user),
      createdAt: iso(user.createdAt),
    },
    profile: data.profile && {
      displayName: data.profile.displayName,
      bio: data.profile.bio,
      avatarUrl: data.profile.avatarUrl,
      preferences: { ...data.profile.preferences },
      createdAt: iso(data.profile.createdAt),
      updatedAt: iso(data.profile.updatedAt),
    },
    workspaces: data.workspaces.map((workspace) => ({
      id: workspace.id,
      name: workspace.name,
      description: workspace.description,
      isPublic: workspace.isPublic,
      createdAt: iso(workspace.createdAt),
      updatedAt: iso(workspace.updatedAt),
      resources: data.resources
        .filter((resource) => resource.workspaceId === workspace.id)
        .map((resource) => {
          const pdf = pdfOf.get(resource.id);
          return {
            id: resource.id,
            resourceId: resource.resourceId,
            title: resource.title,
            url: resource.url,
            type: resource.type,
            authors: resource.authors,
            tags: resource.tags,
            notes: resource.notes,
            data: resource.data,
            createdAt: iso(resource.createdAt),
            pdf: pdf
              ? {
                  filename: pdf.filename,
                  byteSize: pdf.byteSize,
                  sha256: pdf.sha256,
                  uploadedAt: iso(pdf.createdAt),
                }
              : null,
            annotations: data.annotations
              .filter((annotation) => annotation.resourceId === resource.id)
              .map((annotation) => ({
                id: annotation.id,
                body: annotation.body,
                color: annotation.color,
                highlights: annotation.highlights,
                createdAt: iso(annotation.createdAt),
                updatedAt: iso(annotation.updatedAt),
              })),
          };
        }),
      shareLinks: data.shareLinks
        .filter((link) => link.workspaceId === workspace.id)
        .map((link) => ({
          id: link.id,
          readOnly: link.readOnly,
          expiresAt: iso(link.expiresAt),
          revokedAt: isoOrNull(link.revokedAt),
          pausedAt: isoOrNull(link.pausedAt),
          createdAt: iso(link.createdAt),
        })),
    })),
    searchHistory: data.searches.slice(0, SEARCH_HISTORY_LIMIT).map((search) => ({
      query: search.query,
      providers: search.providers,
      resultCount: search.resultCount,
      searchedAt: iso(search.createdAt),
    })),
    searchHistoryTruncated: data.searches.length > SEARCH_HISTORY_LIMIT,
  };
}

/** Every resource of every workspace the user owns, as one BibTeX file. */
export async function accountBibtex(db: Db, userId: string): Promise<string> {
  await assertExportable(db, userId);
  const data = await readAccountData(db, userId, 0);
  return (await exportCitations(data.resources, 'bibtex')).body;
}
