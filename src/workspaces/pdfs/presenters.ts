/** A resource's PDF as the API shows it: never the blob key or who uploaded it. */
import type { PdfRow } from './store.js';

export function presentPdf(row: PdfRow) {
  return {
    filename: row.filename,
    size: row.byteSize,
    sha256: row.sha256,
    extraction: row.extraction as 'pending' | 'ready' | 'failed',
    ...(row.extractionError ? { error: row.extractionError } : {}),
    ...(row.pageCount !== null ? { pages: row.pageCount } : {}),
    uploadedAt: row.updatedAt.toISOString(),
  };
}

/** The strong validator of a stored file: its content hash, quoted. */
export const etagOf = (row: PdfRow) => `"${row.sha256}"`;
