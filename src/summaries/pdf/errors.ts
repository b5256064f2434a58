/** Typed failures of the deep-mode PDF path, each with a code a route can map to a clear message. */

export type PdfTextErrorCode =
  'not_pdf' | 'no_text' | 'timeout' | 'encrypted' | 'invalid' | 'aborted';

/** Text could not be extracted from PDF bytes. */
export class PdfTextError extends Error {
  constructor(
    readonly code: PdfTextErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PdfTextError';
  }
}

export type PdfFetchErrorCode =
  | 'no_pdf'
  | 'not_pdf'
  | 'too_large'
  | 'timeout'
  | 'blocked_address'
  | 'http_error'
  | 'network'
  | 'bad_url'
  | 'aborted';

/** No PDF address could be found for a record, or the PDF could not be downloaded. */
export class PdfFetchError extends Error {
  constructor(
    readonly code: PdfFetchErrorCode,
    message: string,
    /** The HTTP status for `http_error`. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PdfFetchError';
  }
}
