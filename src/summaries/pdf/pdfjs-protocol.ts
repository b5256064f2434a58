/** Messages between the extraction host and the pdf.js worker thread. */

export interface PdfjsJob {
  id: number;
  data: Uint8Array;
  /** Stop reading pages once this many characters are collected. */
  maxChars: number;
}

export type PdfjsResult =
  | { id: number; ok: true; text: string; pages: number; truncated: boolean }
  | { id: number; ok: false; code: 'encrypted' | 'invalid'; message: string };
