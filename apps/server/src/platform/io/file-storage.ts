import type * as S3 from '@aws-sdk/client-s3';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config, S3Config } from '../../config/config.js';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where uploaded files' bytes live (ARCHITECTURE.md "Files"): behind this small interface,
 * so local disk (the default, under DATA_DIR/files) and S3-compatible object storage
 * (shared by several app processes) are interchangeable. Keys are made by the server and
 * never contain a path separator.
 */
export interface FileStorage {
  /** Stores the bytes under a new key. */
  write(key: string, body: Readable | Buffer): Promise<void>;
  /** The bytes under `key`, as a stream; fails when there are none. */
  read(key: string): Promise<Readable>;
  /** Forgets the bytes under `key`; nothing happens when there are none. */
  delete(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]{16,100}$/;

function checkKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
}

/** Files on local disk, one per key, under `root`. */
export function diskStorage(root: string): FileStorage {
  const pathOf = (key: string) => {
    checkKey(key);
    return path.join(root, key);
  };
  return {
    async write(key, body) {
      const target = pathOf(key);
      await mkdir(root, { recursive: true });
      // Written under a temporary name and renamed, so a reader never sees half a file.
      const partial = `${target}.partial`;
      await pipeline(
        Buffer.isBuffer(body) ? Readable.from([body]) : body,
        createWriteStream(partial),
      );
      await rename(partial, target);
    },
    async read(key) {
      const file = pathOf(key);
      await stat(file);
      return createReadStream(file);
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/**
 * The AWS SDK's settings for the bucket `location` names, shared by the file storage and
 * the uploads in progress (modules/files/s3-upload-store.ts).
 */
export function s3ClientConfig(location: S3Config): S3.S3ClientConfig {
  return {
    region: location.region,
    endpoint: location.endpoint,
    forcePathStyle: true,
    credentials:
      location.accessKeyId && location.secretAccessKey
        ? { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey }
        : undefined,
  };
}

/**
 * Files in an S3-compatible bucket (AWS, MinIO, Ceph, Garage...), so that several app
 * processes share them. Addressed by path (`endpoint/bucket/key`), which every
 * S3-compatible server understands, unlike bucket subdomains.
 */
export function s3Storage(location: S3Config): FileStorage {
  // The AWS SDK loads with the first file, not at start-up (bench figure (f)).
  let loaded: Promise<{ client: S3.S3Client; sdk: typeof S3 }> | undefined;
  const s3 = () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client(s3ClientConfig(location)),
    })));
  const Bucket = location.bucket;
  return {
    async write(key, body) {
      checkKey(key);
      // A stream of unknown length cannot be PUT in one request without buffering it;
      // files are at most 25 MB, so they are read whole, then sent with their length.
      const bytes = Buffer.isBuffer(body) ? body : Buffer.concat(await body.toArray());
      const { client, sdk } = await s3();
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: key, Body: bytes }));
    },
    async read(key) {
      checkKey(key);
      const { client, sdk } = await s3();
      const object = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
      return object.Body as Readable;
    },
    async delete(key) {
      checkKey(key);
      const { client, sdk } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

/** The storage the configuration names: S3 when it is set, else DATA_DIR/files on disk. */
export function storageFor(config: Pick<Config, 'dataDir' | 's3'>): FileStorage {
  return config.s3 ? s3Storage(config.s3) : diskStorage(path.join(config.dataDir, 'files'));
}

/**
 * The job that forgets stored bytes once the rows that named them are gone (a file
 * deleted, a proposal deleted): queued in the same transaction, so bytes go only after
 * the deletion has committed, and a storage failure is tried again instead of failing
 * the request.
 */
export const DELETE_STORED_FILES_JOB = 'files.delete';
export interface DeleteStoredFiles {
  keys: string[];
}
