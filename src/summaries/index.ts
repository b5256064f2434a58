/** What the rest of the service uses from the summaries capability: the PDF text engines. */
export { extractPdfText, readPdfInfo } from './pdf/extract.js';
export { PdfTextError } from './pdf/errors.js';
export { hasPdfSignature } from './pdf/signature.js';
