/** Messages between the extraction host and the pdf.js worker thread. */

export interface PdfjsJob {
  id: number;
  data: Uint8Array;
  /** Stop reading pages once this many characters are collected. */
  maxChars: number;
  /** Read only the document information dictionary (Title, Author), no page text. */
  infoOnly?: boolean;
}

/** The document information dictionary's fields a record can use. */
export interface PdfInfo {
  title?: string;
  author?: string;
}

export type PdfjsResult =
  | { id: number; ok: true; text: string; pages: number; truncated: boolean; info?: PdfInfo }
  | { id: number; ok: false; code: 'encrypted' | 'invalid'; message: string };
