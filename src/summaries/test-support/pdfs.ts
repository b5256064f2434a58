/** PDFs made inside tests, for other capabilities' tests (workspaces keep PDFs): see pdf/test-support/make-pdf.ts. */
export {
  makeCompressionBombPdf,
  makeEncryptedPdf,
  makeImageOnlyPdf,
  makePagedPdf,
} from '../pdf/test-support/make-pdf.js';
