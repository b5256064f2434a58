/**
 * Text extraction with poppler's `pdftotext` as a child process (bytes on stdin, text on stdout),
 * used when the machine has it: it is several times faster than pdf.js and reads two-column papers
 * column by column. The PDF never touches the disk.
 */
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { PdfTextError } from './errors.js';
import type { EngineOptions, EngineResult } from './pdfjs-engine.js';
import type { PdfInfo } from './pdfjs-protocol.js';

const PDFTOTEXT = 'pdftotext';
/**
 * What one `pdftotext` may take of the machine, set by the shell it is started through (`ulimit`):
 * its address space (poppler reads a paper in tens of MB; a file built to expand in memory fails
 * instead of growing) and CPU seconds (its deadline's, as a backstop to the timer, rounded up).
 */
const PDFTOTEXT_MEMORY_KB = 1024 * 1024;
let availability: Promise<boolean> | undefined;

async function findOnPath(command: string): Promise<boolean> {
  const directories = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const directory of directories) {
    try {
      await access(join(directory, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

let pdfinfoAvailability: Promise<boolean> | undefined;

/** Whether poppler's `pdfinfo` is on PATH (looked up once per process). */
export function isPdfinfoAvailable(): Promise<boolean> {
  pdfinfoAvailability ??= findOnPath('pdfinfo');
  return pdfinfoAvailability;
}

/**
 * The information dictionary's Title and Author through `pdfinfo -enc UTF-8 -` (bytes on stdin): it
 * starts in milliseconds where a pdf.js worker takes seconds to load. Rejects on any failure (the
 * caller falls back to pdf.js).
 */
export function readInfoWithPdfinfo(
  data: Uint8Array,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<PdfInfo> {
  return new Promise<PdfInfo>((resolve, reject) => {
    const child = spawn('pdfinfo', ['-enc', 'UTF-8', '-'], {
      stdio: ['pipe', 'pipe', 'ignore'],
      signal: options.signal,
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      // The fields come first; a few KB are plenty.
      if (output.length < 65_536) output += chunk;
    });
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`pdfinfo exited with ${code}`));
      const field = (name: string) =>
        new RegExp(`^${name}:[ \\t]*(.*)$`, 'm').exec(output)?.[1]?.trim().slice(0, 1000) ||
        undefined;
      resolve({ title: field('Title'), author: field('Author') });
    });
    child.stdin.end(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  });
}

/** Whether `pdftotext` is on PATH (looked up once per process). */
export function isPdftotextAvailable(): Promise<boolean> {
  availability ??= findOnPath(PDFTOTEXT);
  return availability;
}

function countPages(text: string): number {
  let pages = 0;
  for (let i = text.indexOf('\f'); i !== -1; i = text.indexOf('\f', i + 1)) pages++;
  return pages;
}

/** Extracts text with `pdftotext -enc UTF-8` (default reading-order mode). Pages end with "\f". */
export function extractWithPdftotext(
  data: Uint8Array,
  options: EngineOptions,
): Promise<EngineResult> {
  if (options.signal?.aborted)
    return Promise.reject(new PdfTextError('aborted', 'PDF text extraction was aborted'));
  // UTF-8 takes up to 4 bytes a character; read a little more than the cap needs, then stop the process.
  const maxBytes = options.maxChars * 4 + 65_536;
  return new Promise<EngineResult>((resolve, reject) => {
    const cpuSeconds = Math.max(1, Math.ceil(options.timeoutMs / 1000));
    // `sh -c '…' pdftotext args…`: the limits apply to the shell, which then becomes pdftotext.
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        `ulimit -v ${PDFTOTEXT_MEMORY_KB} && ulimit -t ${cpuSeconds} && exec "$0" "$@"`,
        PDFTOTEXT,
        ...['-enc', 'UTF-8', '-eol', 'unix', '-', '-'],
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = '';
    let settled = false;

    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const stop = (): void => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const onAbort = (): void => {
      stop();
      settle(() => reject(new PdfTextError('aborted', 'PDF text extraction was aborted')));
    };
    const timer = setTimeout(() => {
      stop();
      settle(() =>
        reject(
          new PdfTextError(
            'timeout',
            `PDF text extraction took longer than ${options.timeoutMs} ms`,
          ),
        ),
      );
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) {
        truncated = true;
        stop();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    // The process may exit before reading all of stdin (a broken file): that is not an error here.
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      settle(() =>
        reject(new PdfTextError('invalid', `pdftotext could not run: ${error.message}`)),
      );
    });
    child.on('close', (code, signal) => {
      settle(() => {
        if (truncated || code === 0) {
          const text = Buffer.concat(chunks, size).toString('utf8');
          resolve({ text, pages: countPages(text), truncated });
          return;
        }
        // Killed by its limits (SIGXCPU, SIGKILL) or aborted when out of memory: not a parser's
        // verdict on the file, so no other engine is tried on it.
        if (signal || /out of memory|bad_alloc/i.test(stderr)) {
          reject(
            new PdfTextError(
              'timeout',
              `pdftotext used up its CPU or memory allowance (${signal ?? 'out of memory'})`,
            ),
          );
          return;
        }
        if (/password/i.test(stderr) || code === 3) {
          reject(new PdfTextError('encrypted', 'The PDF is encrypted'));
          return;
        }
        const detail = stderr.split('\n').find((line) => line.trim()) ?? `exit code ${code}`;
        reject(new PdfTextError('invalid', `The PDF could not be read: ${detail.trim()}`));
      });
    });
    child.stdin.end(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  });
}
