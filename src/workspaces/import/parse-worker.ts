/**
 * Reading an imported file, in a worker of platform/worker-pool.ts (or in the calling thread, for tests
 * and the benchmark): the file's entries, or why the whole file cannot be read, as plain data the
 * request thread turns into its answer.
 */
import {
  MacroTooLarge,
  readCitations,
  UnreadableFile,
  type ImportFormat,
  type ParsedEntry,
} from './formats.js';

export interface ParseInput {
  text: string;
  format: ImportFormat;
}

export type ParseOutcome =
  | { ok: true; entries: ParsedEntry[] }
  | { ok: false; reason: 'unreadable' | 'macro_too_large'; message: string; macro?: string };

export default function parseCitationFile({ text, format }: ParseInput): ParseOutcome {
  try {
    return { ok: true, entries: readCitations(text, format) };
  } catch (error) {
    if (error instanceof MacroTooLarge)
      return { ok: false, reason: 'macro_too_large', message: error.message, macro: error.macro };
    if (error instanceof UnreadableFile)
      return { ok: false, reason: 'unreadable', message: error.message };
    throw error;
  }
}
