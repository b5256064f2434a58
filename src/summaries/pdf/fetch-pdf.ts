/**
 * Downloads a PDF through the outbound client: 25 s deadline, 25 MB cap, redirects re-checked and
 * private addresses refused (by the client), and the `%PDF-` signature checked before anything
 * tries to parse the bytes.
 */
import type { Outbound } from '../../platform/outbound.js';
import { pdfFetchErrorFrom } from './address.js';
import { PdfFetchError } from './errors.js';
import { hasPdfSignature } from './signature.js';

const PDF_FETCH_TIMEOUT_MS = 25_000;
export const PDF_MAX_BYTES = 25 * 1024 * 1024;

export interface FetchPdfOptions {
  outbound: Outbound;
  signal?: AbortSignal;
  /** Default 25 s: long enough for a slow repository, short enough for a waiting reader. */
  timeoutMs?: number;
  /** Default 25 MB. */
  maxBytes?: number;
}

/** The bytes of the PDF at `url`. Throws `PdfFetchError` (timeout, too_large, blocked_address, http_error, not_pdf, …). */
export async function fetchPdf(url: string, options: FetchPdfOptions): Promise<Buffer> {
  let response;
  try {
    response = await options.outbound.request(url, {
      method: 'GET',
      headers: { accept: 'application/pdf, */*;q=0.5' },
      timeoutMs: options.timeoutMs ?? PDF_FETCH_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? PDF_MAX_BYTES,
      signal: options.signal,
    });
  } catch (error) {
    throw pdfFetchErrorFrom(error);
  }
  if (response.status >= 400) {
    throw new PdfFetchError(
      'http_error',
      `The PDF address answered HTTP ${response.status}`,
      response.status,
    );
  }
  if (!hasPdfSignature(response.body))
    throw new PdfFetchError('not_pdf', 'The address did not return a PDF');
  return response.body;
}
