/**
 * Stored files (avatars): on disk under DATA_DIR/blobs by default. Keys are `<bucket>/<path>`;
 * public URLs are served by the storage route under `/storage/<bucket>/<path>`.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { randomUUID } from 'node:crypto';

export interface BlobStore {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  publicUrl(key: string): string;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/;

export function isValidBlobKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.split('/').some((part) => part === '.' || part === '..');
}

export function createDiskBlobStore(options: { rootDir: string; publicBaseUrl: string }): BlobStore {
  const pathOf = (key: string) => {
    if (!isValidBlobKey(key)) throw new Error(`Invalid blob key: ${key}`);
    const full = normalize(join(options.rootDir, key));
    if (!full.startsWith(normalize(options.rootDir) + sep)) throw new Error(`Invalid blob key: ${key}`);
    return full;
  };
  return {
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temp = `${path}.${randomUUID()}.tmp`;
      await writeFile(temp, data);
      await rename(temp, path);
    },
    async get(key) {
      if (!isValidBlobKey(key)) return null;
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    publicUrl: (key) => `${options.publicBaseUrl}/storage/${key}`,
  };
}
