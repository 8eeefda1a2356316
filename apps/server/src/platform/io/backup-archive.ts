import { type EventEmitter, once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Header, Pack, Parser, ReadEntry } from 'tar';
import { BACKUP_MANIFEST, isDataEntry } from './online-backup.js';

/**
 * The .tar.gz of `npm run backup` and `npm run restore`. node-tar (`tar`) reads and writes
 * the tar format (ustar headers, pax headers for long names and large files, checksums);
 * this file says what a backup holds: folders and files only, owned by no one (uid and gid
 * 0, no user names), each file at the size the backup saw; and on restore, nothing that
 * could land outside the folder. Archives of the hand-written tar code this replaced
 * restore as before (test/backup-archive.test.ts).
 */

/** A backup archive that is damaged or holds what no backup does; the message says which. */
export class BackupArchiveError extends Error {
  override name = 'BackupArchiveError';
}

const TRUNCATED = 'The archive ends in the middle (it is truncated).';
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/** Writes a backup archive gzipped into `file`, entry by entry in the order given. */
export class BackupArchiveWriter {
  // Every entry is added as a ReadEntry, whose bytes this class supplies, rather than as
  // a path node-tar reads: node-tar reads a file to its end at that moment, and an upload
  // in progress grows meanwhile. node-tar's limit on jobs (4 by default) would hold back
  // every entry added after the fourth waiting one; here a job is only an entry waiting
  // its turn, and the entries wait for the archive to take them (write, below).
  private readonly pack = new Pack({ jobs: Infinity });
  private readonly written: Promise<void>;
  /** Aborted when writing the archive failed, which ends every wait for it. */
  private readonly failed = new AbortController();

  constructor(file: string) {
    this.written = pipeline(this.pack, createGzip(), createWriteStream(file, { mode: 0o600 }));
    this.written.catch(() => this.failed.abort());
  }

  /** Waits for `event` of `emitter`; throws why writing the archive failed, if it did. */
  private async until(emitter: EventEmitter, event: string): Promise<void> {
    try {
      await once(emitter, event, { signal: this.failed.signal });
    } catch (error) {
      if (this.failed.signal.aborted) await this.written;
      throw error;
    }
  }

  private add(name: string, type: 'File' | 'Directory', mode: number, mtime: Date, size = 0) {
    // A folder's name ends with a slash, as tar writes it.
    const full = type === 'Directory' && !name.endsWith('/') ? `${name}/` : name;
    const header = new Header({ path: full, type, mode, mtime, size, uid: 0, gid: 0 });
    const entry = new ReadEntry(header);
    this.pack.add(entry);
    return entry;
  }

  /** Puts `chunk` in `entry`; resolves when the archive can take more. */
  private async write(entry: ReadEntry, chunk: Buffer): Promise<void> {
    if (!entry.write(chunk)) await this.until(entry, 'drain');
  }

  async directory(name: string, mtime = new Date()): Promise<void> {
    this.add(name, 'Directory', 0o755, mtime).end();
  }

  async buffer(name: string, data: Buffer, mtime = new Date(), mode = 0o644): Promise<void> {
    const entry = this.add(name, 'File', mode, mtime, data.length);
    await this.write(entry, data);
    entry.end();
  }

  /**
   * The first `size` bytes of the file at `source` (its size when the backup looked at it:
   * a resumable upload may grow meanwhile, and its own record says how far it got).
   */
  async file(name: string, source: string, size: number, mtime: Date, mode = 0o644): Promise<void> {
    const entry = this.add(name, 'File', mode, mtime, size);
    let written = 0;
    if (size > 0) {
      for await (const chunk of createReadStream(source, { start: 0, end: size - 1 })) {
        written += (chunk as Buffer).length;
        await this.write(entry, chunk as Buffer);
      }
    }
    if (written !== size)
      throw new Error(`${source} shrank from ${size} to ${written} bytes while being backed up.`);
    entry.end();
  }

  /**
   * The folders and files of the tar archive `tar` (PGlite's dump of its data folder),
   * under `folder`/, the files with `mode`; anything else in it is left out.
   */
  async tar(tar: Buffer, folder: string, mode: number): Promise<void> {
    const parser = new Parser({ strict: true });
    parser.on('entry', (entry: ReadEntry) => {
      const name = `${folder}/${entry.path.replace(/^\/+/, '')}`;
      if (entry.type === 'Directory') {
        this.add(name, 'Directory', 0o755, entry.mtime ?? new Date()).end();
        entry.resume();
      } else if (FILE_TYPES.has(entry.type)) {
        // The parser offers the next entry once the archive has taken this one.
        entry.pipe(this.add(name, 'File', mode, entry.mtime ?? new Date(), entry.size));
      } else entry.resume();
    });
    const parsed = this.until(parser, 'end');
    parser.end(tar);
    await parsed;
  }

  /** Ends the archive; resolves once it is on disk. */
  async finish(): Promise<void> {
    this.pack.end();
    await this.written;
  }
}

/** What `npm run backup` puts first in the archive. */
export interface BackupManifest {
  format?: string;
  createdAt?: string;
}

/** The message for an error of node-tar's parser, in the words of the code it replaced. */
function messageFor(error: Error & { tarCode?: string }): string {
  if (error.tarCode === 'TAR_BAD_ARCHIVE') return TRUNCATED;
  if (error.message.endsWith('checksum failure'))
    return 'The archive is damaged (a header checksum does not match).';
  return `The archive is damaged (${error.message}).`;
}

/**
 * Unpacks the backup archive `archive` into the folder `into`, one entry at a time. Its
 * first entry is the manifest, which is returned rather than unpacked; when the first
 * entry is something else, nothing is unpacked and `manifest` is undefined. Refuses
 * (BackupArchiveError), having unpacked part of it, an archive that is damaged or holds
 * an entry outside the folder, outside what a DATA_DIR holds, or other than a folder or
 * a file (a link, a device). Files are written owner-only; `files` counts those besides
 * the database's. Not gzip data: zlib's error (code Z_DATA_ERROR) as it is.
 */
export function unpackBackup(
  archive: string,
  into: string,
): Promise<{ manifest: BackupManifest | undefined; files: number }> {
  let manifest: BackupManifest | undefined;
  let first = true;
  let files = 0;

  /** Unpacks one entry; false to stop there. */
  async function take(entry: ReadEntry): Promise<boolean> {
    const name = entry.path.replace(/\/+$/, '');
    if (first) {
      first = false;
      if (name !== BACKUP_MANIFEST) return false;
      manifest = JSON.parse((await entry.concat()).toString('utf8')) as BackupManifest;
      return true;
    }
    // Nothing may land outside the folder: no absolute paths, no "..".
    const parts = name.split('/');
    if (name === '' || name.startsWith('/') || parts.some((p) => p === '..' || p === '.'))
      throw new BackupArchiveError(`The archive holds an unsafe path: ${JSON.stringify(name)}.`);
    if (!isDataEntry(parts[0]!) && parts[0] !== 'db')
      throw new BackupArchiveError(
        `The archive holds ${JSON.stringify(name)}, which no backup has.`,
      );
    const target = path.join(into, name);
    if (entry.type === 'Directory') {
      await mkdir(target, { recursive: true });
      entry.resume();
    } else if (FILE_TYPES.has(entry.type)) {
      await mkdir(path.dirname(target), { recursive: true });
      await pipeline(entry, createWriteStream(target, { mode: 0o600 }));
      if (parts[0] !== 'db') files += 1;
    } else {
      // npm run backup writes folders and files only; a link could point anywhere.
      throw new BackupArchiveError(
        `The archive holds ${JSON.stringify(name)}, a ${entry.type} entry, which no backup has.`,
      );
    }
    return true;
  }

  return new Promise((resolve, reject) => {
    const input = createReadStream(archive);
    const gunzip = createGunzip();
    const parser = new Parser({ strict: true });
    let settled = false;
    let ended = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      input.destroy();
      gunzip.destroy();
      if (error === undefined) resolve({ manifest, files });
      else reject(error);
    };
    const fail = (error: Error & { code?: string; tarCode?: string }) => {
      if (error instanceof BackupArchiveError) finish(error);
      else if (error.tarCode) finish(new BackupArchiveError(messageFor(error)));
      // A gzip stream cut short (zlib's "unexpected end of file").
      else if (error.code === 'Z_BUF_ERROR') finish(new BackupArchiveError(TRUNCATED));
      else finish(error);
    };
    // One entry at a time: the parser offers the next once this one is read, and `taken`
    // waits until its file is written and closed before taking the next.
    let taken = Promise.resolve();
    parser.on('entry', (entry: ReadEntry) => {
      taken = taken
        .then(async () => {
          if (settled) entry.resume();
          else if (!(await take(entry))) finish();
        })
        .catch(fail);
    });
    // The two empty blocks that end an archive: without them, it was cut short.
    parser.on('eof', () => (ended = true));
    parser.on('end', () => {
      void taken.then(() => (ended ? finish() : fail(new BackupArchiveError(TRUNCATED))));
    });
    input.on('error', fail);
    gunzip.on('error', fail);
    parser.on('error', fail);
    input.pipe(gunzip).pipe(parser);
  });
}
