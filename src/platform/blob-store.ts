/**
 * Stored files (avatars, PDFs): on disk under DATA_DIR/blobs by default, or in an S3-compatible bucket
 * (s3-blob-store.ts) when several processes must see the same files. Keys are `<bucket>/<path>`;
 * avatars' public URLs are served by the storage route under `/storage/<bucket>/<path>`.
 *
 * Small files go through `put`/`get` as buffers; large ones through `putStream`/`getStream`, which
 * never hold a whole file in memory and read a byte range when asked.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, opendir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Inclusive byte offsets, as in an HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  key: string;
  modifiedAt: Date;
}

export interface BlobStore {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /**
   * Writes a stream of unknown length. The object appears whole or not at all: when the stream fails
   * (a client gone, a check in the stream refusing the bytes) nothing is left under `key`.
   */
  putStream(key: string, body: Readable, options?: { contentType?: string }): Promise<void>;
  /** The object, or the bytes of `range` in it, as a stream; null when there is no such object. */
  getStream(key: string, range?: ByteRange): Promise<Readable | null>;
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (a folder: `pdfs/`), with when it was last written, in pages. */
  list(prefix: string): AsyncIterable<StoredObject>;
  publicUrl(key: string): string;
  /** Lets go of connections (the S3 client's sockets). */
  close?(): void;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/;

export function isValidBlobKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.split('/').some((part) => part === '.' || part === '..');
}

export function createDiskBlobStore(options: {
  rootDir: string;
  publicBaseUrl: string;
}): BlobStore {
  const pathOf = (key: string) => {
    if (!isValidBlobKey(key)) throw new Error(`Invalid blob key: ${key}`);
    const full = normalize(join(options.rootDir, key));
    if (!full.startsWith(normalize(options.rootDir) + sep))
      throw new Error(`Invalid blob key: ${key}`);
    return full;
  };
  /** Write then rename, so a reader never sees half a file; a failed write leaves nothing behind. */
  async function writeAtomically(key: string, body: Buffer | Readable): Promise<void> {
    const path = pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomUUID()}.tmp`;
    try {
      await pipeline(
        Buffer.isBuffer(body) ? [body] : body,
        createWriteStream(temp, { flags: 'wx' }),
      );
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
  return {
    put: (key, data) => writeAtomically(key, data),
    putStream: (key, body) => writeAtomically(key, body),
    async get(key) {
      if (!isValidBlobKey(key)) return null;
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async getStream(key, range) {
      if (!isValidBlobKey(key)) return null;
      const stream = createReadStream(
        pathOf(key),
        range ? { start: range.start, end: range.end } : {},
      );
      // The open happens asynchronously: wait for it, so that a missing file is a null, not a stream error later.
      return new Promise<Readable | null>((resolve, reject) => {
        const onError = (error: NodeJS.ErrnoException) =>
          error.code === 'ENOENT' ? resolve(null) : reject(error);
        stream.once('error', onError);
        stream.once('ready', () => {
          stream.off('error', onError);
          resolve(stream);
        });
      });
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *list(prefix) {
      // Depth first through the prefix's folder; a folder or file gone meanwhile is skipped.
      const folders = [prefix.replace(/\/+$/, '')];
      for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
        let entries;
        try {
          entries = await opendir(join(options.rootDir, folder));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw error;
        }
        for await (const entry of entries) {
          const key = `${folder}/${entry.name}`;
          if (entry.isDirectory()) folders.push(key);
          else if (entry.isFile() && isValidBlobKey(key)) {
            const modifiedAt = await stat(join(options.rootDir, key)).then(
              (info) => info.mtime,
              () => null,
            );
            if (modifiedAt) yield { key, modifiedAt };
          }
        }
      }
    },
    publicUrl: (key) => `${options.publicBaseUrl}/storage/${key}`,
  };
}
