/**
 * Receives an uploaded PDF as it streams in and writes it to the blob store, never holding it whole:
 * its first bytes must carry the `%PDF-` signature, it is counted and hashed on the way, and a file
 * past the limit or not a PDF fails the stream, so the store keeps nothing of it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { BlobStore } from '../../platform/blob-store.js';
import { ApiError, payloadTooLarge } from '../../platform/errors.js';
import { hasPdfSignature } from '../../summaries/index.js';

export const MAX_PDF_BYTES = 50 * 1024 * 1024;
/** PDF readers accept the signature within the first 1 KiB. */
const SIGNATURE_WINDOW = 1024;
const MAX_FILENAME_CHARS = 200;

export const pdfTooLarge = () =>
  payloadTooLarge(`The PDF must be at most ${MAX_PDF_BYTES / 1024 / 1024} MB`);
const notAPdf = () =>
  new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The file is not a PDF (it does not start with %PDF-)', {
    field: 'file',
    reason: 'not_pdf',
  });

/** Checks the signature, counts and hashes the bytes passing through. */
class PdfGate extends Transform {
  private head: Buffer[] = [];
  private headBytes = 0;
  private checked = false;
  readonly hash = createHash('sha256');
  bytes = 0;

  constructor(private readonly truncated: () => boolean) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    if (this.bytes > MAX_PDF_BYTES) return callback(pdfTooLarge());
    if (this.checked) return callback(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SIGNATURE_WINDOW) return callback();
    this.release(callback);
  }

  override _flush(callback: TransformCallback): void {
    // The multipart parser stops a file at the limit and marks it truncated: refuse before the store commits it.
    if (this.truncated()) return callback(pdfTooLarge());
    if (!this.checked) {
      if (this.headBytes === 0)
        return callback(
          new ApiError('VALIDATION_ERROR', 'The file is empty', { field: 'file', reason: 'empty' }),
        );
      return this.release(callback);
    }
    callback();
  }

  private release(callback: TransformCallback): void {
    const head = Buffer.concat(this.head, this.headBytes);
    this.head = [];
    if (!hasPdfSignature(head)) return callback(notAPdf());
    this.checked = true;
    callback(null, head);
  }
}

/** The name to keep for `Content-Disposition`: the last path segment, without control characters, bounded. */
export function cleanFilename(raw: string | undefined): string {
  const base = (raw ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!clean || clean === '.' || clean === '..') return 'document.pdf';
  return [...clean].slice(0, MAX_FILENAME_CHARS).join('');
}

export interface ReceivedPdf {
  blobKey: string;
  byteSize: number;
  sha256: string;
}

/** Streams `file` into the store under a fresh key for this workspace; throws 413/415/400 without storing anything. */
export async function receivePdf(
  blobs: BlobStore,
  workspaceId: string,
  file: Readable & { truncated?: boolean },
): Promise<ReceivedPdf> {
  const gate = new PdfGate(() => file.truncated === true);
  // A fresh key per upload: a replaced file is deleted only once the new one is recorded.
  const blobKey = `pdfs/${workspaceId}/${randomUUID()}.pdf`;
  file.on('error', (error) => gate.destroy(error));
  // The gate may refuse the bytes before the store has started reading it: its error is kept in
  // `gate.errored` and reaches the store's pipeline, never the process as an unhandled event.
  gate.on('error', () => undefined);
  await blobs
    .putStream(blobKey, file.pipe(gate), { contentType: 'application/pdf' })
    .catch((error: unknown) => {
      // The gate's own refusals (413, 415, 400) are the answer; anything else is the store's failure.
      throw gate.errored instanceof ApiError ? gate.errored : error;
    });
  return { blobKey, byteSize: gate.bytes, sha256: gate.hash.digest('hex') };
}
