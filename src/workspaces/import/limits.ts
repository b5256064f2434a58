/** Bounds of one import (docs/api.md, Import). */
export const IMPORT_LIMITS = {
  /** The file, multipart or raw: a 5,000-entry BibTeX file with abstracts is about 6 MB. */
  fileBytes: 10 * 1024 * 1024,
  entries: 5_000,
  /** Entries written per transaction: a failure undoes at most this many, and the workspace's lock is held one batch at a time. */
  batch: 500,
} as const;
