/** The job queues of stored PDFs (platform/jobs.ts): one file's text extraction, and the sweep of files no row names. */
import type { QueueDefinition } from '../../platform/jobs.js';

export const PDF_QUEUES = {
  extract: 'pdfs.extract',
  sweep: 'pdfs.sweep',
} as const;

export const PDF_QUEUE_DEFINITIONS: readonly QueueDefinition[] = [
  // Two extractions per process, at most one of them a given uploader's: one user's many PDFs, or one
  // that takes its whole time limit, always leave a worker to everyone else. Three
  // attempts: a process that dies (or stops) mid-file is retried; a file that kills its reader every
  // time is failed (the dead-letter queue's handler says so on the row).
  {
    name: PDF_QUEUES.extract,
    maxAttempts: 3,
    deadLetter: true,
    workers: 2,
    perGroup: 1,
    // Above the longest time limit an extraction can get (extraction.ts), its record lookup included.
    expireInSeconds: 5 * 60,
  },
  // A missed sweep is made up by the next one.
  { name: PDF_QUEUES.sweep, maxAttempts: 1 },
];
