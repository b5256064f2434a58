/**
 * POST /api/workspaces/{id}/import, in a scope of its own that reads the body its own way: a multipart
 * upload (field `file`), or the file itself as a BibTeX, RIS, CSL-JSON or generic text body, at most
 * IMPORT_LIMITS.fileBytes either way; any other Content-Type is a 415 before the body is read.
 * The body is text by the time the handler runs (multipart's file included; encoding.ts says which
 * encoding it is read in), so the idempotency fingerprint, taken before validation, covers the file itself.
 */
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../auth/index.js';
import type { AppContext } from '../../context.js';
import { validationError } from '../../platform/errors.js';
import { ErrorResponse } from '../../platform/openapi.js';
import { authorize } from '../policy.js';
import { IdParams, workspaceErrors } from '../schemas.js';
import { loadWorkspace } from '../store.js';
import {
  importCitations,
  parseInWorkers,
  readImportFile,
  unsupportedMediaType,
} from './commands.js';
import { charsetOf, decodeCitationFile, type DecodedFile } from './encoding.js';
import type { ImportFormat } from './formats.js';
import { IMPORT_LIMITS } from './limits.js';
import { GENERIC_TYPES, IMPORT_BODY, ImportQuery, ImportResponse, RAW_FORMATS } from './schemas.js';
import { ownValue } from '../../platform/own-key.js';

/** What a multipart `file` part leaves in the body: its text and the type its sender gave it. */
interface UploadedPart extends DecodedFile {
  type: string;
}

const mediaTypeOf = (header: string | undefined) =>
  (header ?? '').split(';')[0]!.trim().toLowerCase();

/** The format a content type names; null when it is generic (the text decides). */
function formatOfType(type: string): ImportFormat | null {
  return ownValue<ImportFormat>(RAW_FORMATS, type) ?? null;
}

/** The file's text, its encoding and the format its type names, from either kind of body. */
function uploadOf(request: FastifyRequest): DecodedFile & { format: ImportFormat | null } {
  if (request.isMultipart()) {
    const part = (request.body as { file?: UploadedPart | UploadedPart[] | string } | undefined)
      ?.file;
    if (!part || typeof part !== 'object' || Array.isArray(part))
      throw validationError(
        'file',
        'required',
        'Send the citation file in a multipart field named "file"',
      );
    return {
      text: part.text,
      encoding: part.encoding,
      format: formatOfType(mediaTypeOf(part.type)),
    };
  }
  const body = request.body as DecodedFile | undefined;
  if (body?.text)
    return { ...body, format: formatOfType(mediaTypeOf(request.headers['content-type'])) };
  throw validationError('file', 'required', 'The body is empty: send the citation file');
}

function fileTooLarge(): never {
  throw Object.assign(
    new Error(`The file must be at most ${IMPORT_LIMITS.fileBytes / (1024 * 1024)} MB`),
    { code: 'FST_REQ_FILE_TOO_LARGE' },
  );
}

export async function importRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  await root.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fileSize: IMPORT_LIMITS.fileBytes, files: 1, fields: 5, parts: 6 },
      // The part becomes text here, before validation: a file over the limit stops at the limit (413).
      // A part's own charset does not reach here (busboy keeps the bare type): its bytes decide.
      async onFile(part: MultipartFile) {
        const data = await part.toBuffer();
        if (part.file.truncated) fileTooLarge();
        (part as unknown as { value: UploadedPart }).value = {
          ...decodeCitationFile(data, null),
          type: part.mimetype,
        };
      },
    });
    scope.addContentTypeParser(
      [...Object.keys(RAW_FORMATS), ...GENERIC_TYPES],
      { parseAs: 'buffer', bodyLimit: IMPORT_LIMITS.fileBytes },
      (request, body: Buffer, done) => {
        try {
          done(null, decodeCitationFile(body, charsetOf(request.headers['content-type'])));
        } catch (error) {
          done(error as Error, undefined);
        }
      },
    );
    scope.addContentTypeParser('*', (request, _payload, done) =>
      done(unsupportedMediaType(mediaTypeOf(request.headers['content-type'])), undefined),
    );
    importRoute(scope, ctx);
  });
}

function importRoute(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/workspaces/:id/import',
    {
      config: { auth: 'required', rateLimit: ['user'], idempotent: true },
      schema: {
        tags: ['workspaces'],
        operationId: 'importCitations',
        summary:
          `Import a BibTeX, RIS or CSL-JSON file into a workspace ` +
          `(≤ ${IMPORT_LIMITS.fileBytes / (1024 * 1024)} MB, ` +
          `≤ ${IMPORT_LIMITS.entries.toLocaleString('en-US')} entries); ` +
          `dryRun=true only says what would be imported`,
        description:
          'Each entry becomes a resource (title, authors, date, venue, type, DOI, ' +
          'arXiv id, PMID, URL, abstract, keywords as tags, notes from ' +
          'annote/note/N1). An entry already in the workspace or earlier in the ' +
          'file (same DOI, arXiv id, PMID or URL, or the same normalised title and ' +
          'year) is a duplicate and is not added; one that cannot be read is ' +
          "reported with its position and reason; new entries past the workspace's " +
          'room are reported as no_room. Entries are written in transactions of ' +
          '500: a failure leaves no part of a batch (earlier batches stay; ' +
          'importing the file again skips them as duplicates). Answers 200 with ' +
          'one outcome per entry.',
        consumes: ['multipart/form-data', ...Object.keys(RAW_FORMATS), ...GENERIC_TYPES],
        params: IdParams,
        querystring: ImportQuery,
        requestBody: IMPORT_BODY,
        response: {
          200: ImportResponse,
          413: ErrorResponse,
          415: ErrorResponse,
          422: ErrorResponse,
          503: ErrorResponse,
          ...workspaceErrors,
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { workspace } = authorize(
        user,
        'edit',
        await loadWorkspace(ctx.db, request.params.id, user),
      );
      const upload = uploadOf(request);
      const file = await readImportFile(
        upload.text,
        upload.format,
        parseInWorkers(ctx.workers, ctx.config.imports.parseTimeoutMs),
      );
      // The file is read above, outside any transaction. With an Idempotency-Key every batch and the
      // answer kept for the key are one transaction (its batches savepoints of it), so a crash leaves
      // nothing imported or the answer; without one, each batch commits on its own (platform/idempotency.ts).
      return request.answerOnce(reply, 200, async (db) => ({
        ...(await importCitations(db, workspace.id, user.id, file, {
          dryRun: request.query.dryRun,
        })),
        encoding: upload.encoding,
      }));
    },
  );
}
