/**
 * The account's archive as a ZIP stream: the JSON export and the BibTeX (small, compressed), then each
 * stored PDF (stored as is: a PDF is compressed already), read from the blob store only when the archive
 * reaches it. yazl writes one entry at a time and waits for the reader (backpressure), so memory holds
 * a few buffers of one PDF, never the archive: a slow download slows the reading of the PDFs.
 */
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { ZipFile } from 'yazl';
import type { BlobStore } from '../platform/blob-store.js';
import type { AccountExport } from './schemas.js';
import type { ArchivedPdf } from './commands.js';

const ARCHIVE_FILES = { json: 'research-workspace.json', bibtex: 'research-workspace.bib' };

export function accountArchiveStream(
  archive: { json: AccountExport; bibtex: string; pdfs: ArchivedPdf[] },
  deps: { blobs: BlobStore; log: FastifyBaseLogger },
): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const now = new Date();
  /** The PDF being read now: destroyed when the download stops, so that no file stays open. */
  let reading: Readable | null = null;

  zip.addBuffer(Buffer.from(JSON.stringify(archive.json, null, 2)), ARCHIVE_FILES.json, {
    mtime: now,
  });
  zip.addBuffer(Buffer.from(archive.bibtex), ARCHIVE_FILES.bibtex, { mtime: now });
  for (const pdf of archive.pdfs) {
    zip.addReadStreamLazy(
      pdf.path,
      { compress: false, mtime: pdf.uploadedAt, size: pdf.byteSize },
      (done) => {
        deps.blobs.getStream(pdf.blobKey).then(
          (stream) => {
            if (!stream) return done(new Error(`stored PDF missing: ${pdf.path}`), null as never);
            reading = stream;
            stream.once('end', () => {
              if (reading === stream) reading = null;
            });
            done(null, stream);
          },
          (error: unknown) => done(error, null as never),
        );
      },
    );
  }
  zip.end();

  // A PDF that cannot be read ends the download as a failure (the client sees it cut short) rather
  // than as a complete archive without it.
  zip.on('error', (error: Error) => {
    deps.log.error({ err: { message: error.message } }, 'account archive failed');
    output.destroy(error);
  });
  output.once('close', () => {
    reading?.destroy();
    reading = null;
  });
  return output;
}
