/** Account routes: what the account holds, its deletion, and the download of all its data. */
import { mailerFor } from '../platform/mail/index.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookies, requireUser } from '../auth/index.js';
import type { AppContext } from '../context.js';
import { authenticationError } from '../platform/errors.js';
import { ErrorResponse } from '../platform/openapi.js';
import { accountArchive, accountBibtex, accountExport, deleteAccount } from './commands.js';
import { accountArchiveStream } from './archive.js';
import {
  AccountExport,
  AccountSummaryResponse,
  DeleteAccountBody,
  DeleteAccountResponse,
  ExportQuery,
} from './schemas.js';
import { countHoldings, findAccount, signInMethods } from './store.js';

const tags = ['account'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };

/** `attachment; filename="research-workspace-2026-11-27.json"`: the date the data was read. */
const attachment = (extension: string) =>
  `attachment; filename="research-workspace-${new Date().toISOString().slice(0, 10)}.${extension}"`;

export async function accountRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, config } = ctx;

  app.get(
    '/api/account',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'getAccount',
        summary: 'The signed-in account: how it signs in, and what deleting it would delete',
        response: { 200: AccountSummaryResponse, ...errors },
      },
    },
    async (request) => {
      const user = await findAccount(db, requireUser(request).id);
      if (!user) throw authenticationError();
      const [methods, holdings] = await Promise.all([
        signInMethods(db, user),
        countHoldings(db, user.id),
      ]);
      return {
        email: user.email,
        hasPassword: user.passwordHash !== null,
        signInMethods: methods,
        holdings,
      };
    },
  );

  app.delete(
    '/api/account',
    {
      // A wrong password here is a wrong password: throttled with sign-in's failures.
      config: { auth: 'required', rateLimit: ['user', 'accountDelete'] },
      schema: {
        tags,
        operationId: 'deleteAccount',
        summary: 'Delete the signed-in account and everything it holds',
        description:
          'Confirmed by `password` (the current password) or, for an account ' +
          'without one (made through Google or GitHub), by `email` (its address ' +
          'typed out); otherwise 400 naming the field (reason `required`, ' +
          '`incorrect` or `mismatch`). A wrong password counts as a failed sign-in ' +
          '(past the limit, 429). In one transaction: the user, their profile, ' +
          'sessions, e-mail links, linked sign-ins, every workspace they own with ' +
          'its resources, PDFs, annotations and share links (the links stop ' +
          'opening anything), and their search history (analytics rows are ' +
          'deleted, not anonymised). Then every session ends on every server ' +
          'process, the avatar and PDF files are deleted from the blob store (a ' +
          'file that cannot be is swept later; the account stays deleted), the ' +
          'cookies are cleared and a goodbye mail is sent. The address can sign up ' +
          'again at once, as a new account.',
        body: DeleteAccountBody,
        response: { 200: DeleteAccountResponse, ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await deleteAccount(
        {
          db,
          sessions: ctx.sessions,
          blobs: ctx.platform.blobs,
          mailer: mailerFor(ctx.platform.mailTransport, request.log),
          log: request.log,
        },
        user.id,
        request.body,
      );
      clearSessionCookies(reply, config);
      return {
        success: true as const,
        id: user.id,
        message: 'Your account and everything in it were deleted.',
      };
    },
  );

  app.get(
    '/api/account/export',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'exportAccount',
        summary:
          'Download all of the account’s data: format=json (default), bibtex, or zip (both and the PDFs)',
        description:
          'json: the user, profile, every owned workspace with its resources ' +
          '(notes, tags, PDF details), annotations and share links (without their ' +
          'tokens), and the newest 10,000 searches. bibtex: every resource of ' +
          'every owned workspace, as the workspace export writes them. zip: one ' +
          'archive with research-workspace.json, research-workspace.bib and every ' +
          'stored PDF as pdfs/<workspace>-<id>/<title>-<id>.pdf, streamed (the PDFs ' +
          'are read one at a time as the download goes). Sent as an ' +
          'attachment (Content-Disposition). An account holding more than 20,000 ' +
          'resources gets 413 (export the workspaces one by one).',
        querystring: ExportQuery,
        response: {
          200: {
            description: 'The account’s data as an attachment',
            content: {
              'application/json': { schema: AccountExport },
              'application/x-bibtex': { schema: z.string().describe('BibTeX') },
              'application/zip': {
                schema: z
                  .unknown()
                  .meta({ type: 'string', contentMediaType: 'application/zip' })
                  .describe('ZIP archive'),
              },
            },
          },
          413: ErrorResponse,
          ...errors,
        },
        responseHeaders: { 200: ['Content-Disposition'] },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      void reply.header('cache-control', 'private, no-store');
      if (request.query.format === 'zip') {
        const archive = await accountArchive(db, user.id);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', attachment('zip'))
          .send(accountArchiveStream(archive, { blobs: ctx.platform.blobs, log: request.log }));
      }
      if (request.query.format === 'bibtex') {
        const body = await accountBibtex(db, user.id);
        return reply
          .header('content-type', 'application/x-bibtex; charset=utf-8')
          .header('content-disposition', attachment('bib'))
          .serializer((text: string) => text)
          .send(body);
      }
      const data = await accountExport(db, user.id);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', attachment('json'))
        .send(data);
    },
  );
}
