/**
 * The blob store on an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, …) through the maintained AWS
 * SDK v3, for several processes that must see the same files. Large uploads go up as a multipart
 * upload of 8 MB parts (lib-storage's Upload), two parts in flight at most, so memory stays bounded
 * whatever the file's size; reads are streamed, a byte range asked of the server itself.
 */
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { isValidBlobKey, type BlobStore } from './blob-store.js';

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server's address; unset for AWS itself. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
  publicBaseUrl: string;
}

const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

function isMissing(error: unknown): boolean {
  return (
    error instanceof NoSuchKey ||
    (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
  );
}

export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Checksums only where S3 requires them: many S3-compatible servers reject the SDK's default
    // trailing checksums on streamed (aws-chunked) uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const checked = (key: string) => {
    if (!isValidBlobKey(key)) throw new Error(`Invalid blob key: ${key}`);
    return key;
  };
  return {
    close: () => client.destroy(),
    async put(key, data) {
      await client.send(
        new PutObjectCommand({ Bucket: options.bucket, Key: checked(key), Body: data }),
      );
    },
    async putStream(key, body, putOptions) {
      // A failed multipart upload is aborted by Upload itself (leavePartsOnError: false): no parts linger.
      const upload = new Upload({
        client,
        params: {
          Bucket: options.bucket,
          Key: checked(key),
          Body: body,
          ContentType: putOptions?.contentType,
        },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      });
      await upload.done();
    },
    async get(key) {
      if (!isValidBlobKey(key)) return null;
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: options.bucket, Key: key }),
        );
        return object.Body
          ? Buffer.from(await object.Body.transformToByteArray())
          : Buffer.alloc(0);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async getStream(key, range) {
      if (!isValidBlobKey(key)) return null;
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket: options.bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        // In Node the SDK's body is an http.IncomingMessage: a Readable.
        return (object.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: checked(key) }));
    },
    async *list(prefix) {
      for await (const page of paginateListObjectsV2(
        { client, pageSize: 1000 },
        { Bucket: options.bucket, Prefix: prefix },
      )) {
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified && isValidBlobKey(object.Key))
            yield { key: object.Key, modifiedAt: object.LastModified };
        }
      }
    },
    publicUrl: (key) => `${options.publicBaseUrl}/storage/${key}`,
  };
}
