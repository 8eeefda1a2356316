import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
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
