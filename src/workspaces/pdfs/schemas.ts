/** Schemas of a resource's PDF: its state on the resource, the upload body and the file's replies. */
import { filePart } from '../../platform/openapi.js';
import { z } from 'zod';
import { queryFlag } from '../../platform/query-flag.js';
import { MAX_PDF_BYTES } from './upload.js';

const PdfExtractionState = z.enum(['pending', 'ready', 'failed']);

export const ResourcePdfSchema = z
  .object({
    filename: z.string().describe('The name it was uploaded with'),
    size: z.number().int().describe('Bytes'),
    sha256: z.string().describe("Hex SHA-256 of the file; the download's ETag is this in quotes"),
    extraction: PdfExtractionState.describe(
      '`pending` until its text is extracted (off the request path), then `ready` or `failed`',
    ),
    error: z
      .string()
      .optional()
      .describe(
        'Why extraction failed, in words a user can act on (e.g. a scan without a text layer, an encrypted file)',
      ),
    pages: z.number().int().optional().describe('Page count, once known'),
    uploadedAt: z.iso.datetime(),
  })
  .meta({
    id: 'ResourcePdf',
    description:
      'The PDF kept with a resource (GET /api/workspaces/{id}/resources/{resourceId}/pdf)',
  });

const fileField = (description: string) => ({
  type: 'object',
  required: ['file'],
  properties: { file: filePart('application/pdf', description) },
});

/** PUT …/pdf: the file alone, as multipart. */
export const PDF_UPLOAD_BODY = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: fileField(
        `A PDF (judged by its bytes: it must start with %PDF-) of at most ${MAX_PDF_BYTES / 1024 / 1024} MB`,
      ),
    },
  },
};

/** POST …/resources also takes a multipart PDF, beside its JSON bodies. */
export const RESOURCE_FROM_PDF_BODY = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: fileField(
        `A PDF of at most ${MAX_PDF_BYTES / 1024 / 1024} MB to make the ` +
          `resource from: its record is filled once its text is extracted (a DOI ` +
          `or arXiv id on its first pages looked up, else the PDF's own title and authors)`,
      ),
    },
  },
};

export const PdfQuery = z.object({
  download: queryFlag(
    '`true`: `Content-Disposition: attachment` (save) instead of `inline` (view)',
  ),
});

export const PdfHeaders = z.object({
  range: z
    .string()
    .max(200)
    .optional()
    .describe(
      'One byte range (`bytes=0-1023`, `bytes=1024-`, `bytes=-500`); several ranges get the whole file',
    ),
  'if-none-match': z.string().max(1000).optional(),
  'if-range': z.string().max(1000).optional(),
});

/** The file's bytes, streamed (never serialised). */
export const PdfFile = z.unknown().meta({ type: 'string', contentMediaType: 'application/pdf' });
