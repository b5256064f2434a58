/**
 * What the PDF routes do once the caller is authorised: receive the upload into the blob store, record
 * it (replacing an earlier file, whose blob goes once the new one is recorded), and remove it.
 */
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import type { BlobStore } from '../../platform/blob-store.js';
import type { Db } from '../../platform/db/client.js';
import { conflict, notFound, validationError } from '../../platform/errors.js';
import { LIMITS } from '../schemas.js';
import { insertResourceIfRoom, type ResourceRow } from '../resources/store.js';
import { deletePdfRow, replacePdf, type EnqueueExtraction, type PdfRow } from './store.js';
import { cleanFilename, MAX_PDF_BYTES, pdfTooLarge, receivePdf } from './upload.js';

export interface PdfDeps {
  db: Db;
  blobs: BlobStore;
  /** Enqueues a recorded file's text extraction in the transaction that records it. */
  extraction: { ready(): Promise<void>; enqueue: EnqueueExtraction };
}

/** Limits of the multipart parser in the upload scope: one file, nothing else worth keeping. */
export const PDF_MULTIPART_LIMITS = {
  fileSize: MAX_PDF_BYTES,
  files: 1,
  fields: 5,
  parts: 6,
  fieldSize: 1024,
} as const;

/** The request's multipart part named `file`; 400 naming the field otherwise. */
export async function filePartOf(request: FastifyRequest): Promise<MultipartFile> {
  if (!request.isMultipart())
    throw validationError(
      'file',
      'required',
      'Send the PDF as multipart/form-data in a field named "file"',
    );
  const part = await request
    .file({ limits: PDF_MULTIPART_LIMITS })
    .catch((error: { code?: string }) => {
      if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw pdfTooLarge();
      throw error;
    });
  if (!part || part.fieldname !== 'file')
    throw validationError('file', 'required', 'Send the PDF in a field named "file"');
  return part;
}

async function forget(blobs: BlobStore, key: string | null): Promise<void> {
  if (key) await blobs.delete(key).catch(() => undefined);
}

/** Files forgotten this many at a time: a workspace of thousands of PDFs must not open thousands of requests. */
const FORGET_AT_ONCE = 8;

/**
 * Deletes the files of PDFs whose rows a committed deletion removed (the rows cascade with their
 * resources; the files are the blob store's). A file that cannot be deleted now stays behind unread.
 */
export async function forgetPdfFiles(blobs: BlobStore, keys: string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += FORGET_AT_ONCE) {
    await Promise.all(keys.slice(start, start + FORGET_AT_ONCE).map((key) => forget(blobs, key)));
  }
}

/** Records a stored file as the resource's PDF with its extraction job (the queue started first). */
async function recordPdf(deps: PdfDeps, stored: Parameters<typeof replacePdf>[1]) {
  await deps.extraction.ready();
  return replacePdf(deps.db, stored, deps.extraction.enqueue);
}

/** Stores the upload as the resource's PDF (pending extraction), replacing any earlier one. */
export async function attachPdf(
  deps: PdfDeps,
  resource: ResourceRow,
  userId: string,
  part: MultipartFile,
): Promise<PdfRow> {
  const received = await receivePdf(deps.blobs, resource.workspaceId, part.file);
  const recorded = await recordPdf(deps, {
    resourceId: resource.id,
    uploadedBy: userId,
    filename: cleanFilename(part.filename),
    ...received,
  }).catch(async (error: unknown) => {
    await forget(deps.blobs, received.blobKey);
    throw error;
  });
  if (!recorded) {
    await forget(deps.blobs, received.blobKey);
    throw notFound('Resource');
  }
  await forget(deps.blobs, recorded.previousKey);
  return recorded.row;
}

/** An uploaded PDF in the blob store, not yet recorded: `record` makes it a resource, `forget` drops the file. */
export interface ReceivedNewPdf {
  /**
   * The new resource and its PDF (pending extraction, its job enqueued) in one transaction, a
   * savepoint of `db` when it is one: a failure leaves neither. The same file twice in one workspace
   * is the same work (409), as adding decides.
   */
  record(db: Db): Promise<{ resource: ResourceRow; pdf: PdfRow }>;
  /** Deletes the file: for the caller whose transaction did not commit. */
  forget(): Promise<void>;
}

/**
 * A new resource made from an uploaded PDF, titled by the file's name until extraction fills its
 * record. The file is stored first, outside any transaction (it may take a while), then recorded by
 * `record`; a process killed between the two leaves a file no row names, which the sweeper deletes.
 */
export async function receiveNewResourcePdf(
  deps: PdfDeps,
  workspaceId: string,
  userId: string,
  part: MultipartFile,
): Promise<ReceivedNewPdf> {
  const filename = cleanFilename(part.filename);
  const received = await receivePdf(deps.blobs, workspaceId, part.file);
  try {
    // The queue must be started before a job can be enqueued in the transaction.
    await deps.extraction.ready();
  } catch (error) {
    await forget(deps.blobs, received.blobKey);
    throw error;
  }
  const title =
    filename
      .replace(/\.pdf$/i, '')
      .replace(/[_]+/g, ' ')
      .trim()
      .slice(0, LIMITS.title) || 'Untitled PDF';
  return {
    forget: () => forget(deps.blobs, received.blobKey),
    record: (db) =>
      db.transaction(async (tx) => {
        const added = await insertResourceIfRoom(
          tx,
          {
            workspaceId,
            addedBy: userId,
            resourceId: null,
            workKey: `pdf:${received.sha256}`,
            title,
            url: null,
            type: 'document',
            authors: [],
            record: {},
            tags: [],
            notes: '',
            data: { metadataFrom: 'filename' },
          },
          LIMITS.resourcesPerWorkspace,
        );
        if (!('row' in added)) {
          if (added.refused === 'no_workspace') throw notFound('Workspace');
          if (added.refused === 'full')
            throw conflict(`A workspace holds at most ${LIMITS.resourcesPerWorkspace} resources`, {
              field: 'workspace',
              reason: 'too_many_resources',
            });
          throw conflict('This PDF is already in the workspace', {
            field: 'file',
            reason: 'duplicate',
          });
        }
        const recorded = await replacePdf(
          tx,
          {
            resourceId: added.row.id,
            uploadedBy: userId,
            filename,
            fillMetadata: true,
            ...received,
          },
          deps.extraction.enqueue,
        );
        if (!recorded) throw notFound('Resource');
        return { resource: added.row, pdf: recorded.row };
      }),
  };
}

/** Removes the resource's PDF, its pages and its file; false when it had none. */
export async function removePdf(
  deps: Pick<PdfDeps, 'db' | 'blobs'>,
  resourceId: string,
  actorId: string,
): Promise<boolean> {
  const key = await deletePdfRow(deps.db, resourceId, actorId);
  await forget(deps.blobs, key);
  return key !== null;
}
