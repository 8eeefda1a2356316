import type { Readable } from 'node:stream';
import { S3Store, type MetadataValue } from '@tus/s3-store';
import { ERRORS, type KvStore } from '@tus/server';
import type { S3Config } from '../../config/config.js';
import { s3ClientConfig } from '../../platform/io/file-storage.js';
import type { UploadStore } from './upload-store.js';

/**
 * Uploads in progress in the S3 bucket of the stored files (S3_URL), so that any app
 * process can take an upload's next chunk: @tus/s3-store, the tus project's own store,
 * keeps each upload as an S3 multipart upload, its record in `<id>.info` and the bytes
 * of a part not yet 5 MiB long (the web client sends 512 KiB chunks) in `<id>.part`.
 *
 * Loaded only when S3 is configured, as it brings in the AWS SDK (bench figure (f)).
 */

/** S3's smallest part but the last: a part is sent as soon as that much has arrived. */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * No cache of upload records: the store's own keeps them in the process's memory, where
 * another process's removal of an upload (refused at its last byte, swept) goes unseen,
 * and an abandoned upload's record is never dropped. Each request reads `<id>.info`.
 */
const noCache: KvStore<MetadataValue> = {
  get: () => Promise.resolve(undefined),
  set: () => Promise.resolve(),
  delete: () => Promise.resolve(),
};

class SharedS3Store extends S3Store {
  /**
   * The ids of every upload in the bucket, finished or not, by their records. The bucket
   * holds the stored files too (an hourly listing of all its keys, 1,000 a request), whose
   * keys have no dot: a key ending in `.info` is always an upload's record.
   */
  async ids(): Promise<string[]> {
    const ids: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.listObjectsV2({ Bucket: this.bucket, ContinuationToken });
      for (const { Key } of page.Contents ?? []) {
        if (Key?.endsWith('.info')) ids.push(Key.slice(0, -'.info'.length));
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return ids;
  }

  /**
   * Throws away an upload: its multipart upload when unfinished (S3Store's `remove`, which
   * fails for a finished one), then its object, record and pending part, which `remove`
   * leaves behind.
   */
  async forget(id: string): Promise<void> {
    await this.remove(id).catch((error: unknown) => {
      if (error !== ERRORS.FILE_NOT_FOUND) throw error;
    });
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: {
        Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }],
      },
    });
  }
}

/** The uploads in progress of the bucket `location` names; uploads abandoned after `expiresMs`. */
export function s3UploadStore(location: S3Config, expiresMs: number): UploadStore {
  const datastore = new SharedS3Store({
    s3ClientConfig: {
      ...s3ClientConfig(location),
      bucket: location.bucket,
      // The SDK's default checksums of streamed bodies travel as aws-chunked trailers,
      // which S3-compatible servers do not all understand; S3 asks for none on these calls.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    },
    partSize: PART_BYTES,
    cache: noCache,
    // Announced to clients (Upload-Expires); the hourly sweep does the removing, so no
    // object tags are needed (and not every S3-compatible server keeps them).
    expirationPeriodInMilliseconds: expiresMs,
    useTags: false,
  });
  return {
    datastore,
    ids: () => datastore.ids(),
    async begun(id) {
      const upload = await datastore.getUpload(id).catch(() => null);
      return upload?.creation_date ? new Date(upload.creation_date) : null;
    },
    forget: (id) => datastore.forget(id),
    // Files are at most 25 MB: read whole, as the file storage writes them whole anyway.
    bytes: async (id) => Buffer.concat(await ((await datastore.read(id)) as Readable).toArray()),
  };
}
