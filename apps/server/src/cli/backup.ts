import { lstat, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import { openDatabase } from '../db/client.js';
import {
  BACKUP_FORMAT,
  BACKUP_MANIFEST,
  holdDataDir,
  makeSnapshot,
  removeLeftovers,
  requestSnapshot,
} from '../platform/io/online-backup.js';
import { BackupArchiveWriter } from '../platform/io/backup-archive.js';
import { keepNewFilesPrivate } from '../platform/io/private-files.js';

/**
 * `npm run backup`: the embedded database and everything else in DATA_DIR (stored files,
 * the mail outbox, uploads in progress) in one .tar.gz whose layout is a DATA_DIR, taken
 * consistently while the server runs (platform/io/online-backup.ts). `npm run restore` puts it
 * back. On PostgreSQL, pg_dump backs up the database (README.md, "Backups").
 */
keepNewFilesPrivate();
const usage = 'Usage: npm run backup -- [--output FILE.tar.gz]';
const DAY = 24 * 60 * 60 * 1000;

let output: string | undefined;
try {
  ({
    values: { output },
  } = parseArgs({ options: { output: { type: 'string', short: 'o' } }, strict: true }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Error: ${error.message}`);
  process.exit(1);
}
if (config.databaseUrl) {
  console.error(
    'Error: DATABASE_URL is set, so the database is PostgreSQL: back it up with pg_dump, and the stored files with it (README.md, "Backups"). npm run backup is for the embedded database in DATA_DIR.',
  );
  process.exit(2);
}
const { dataDir } = config;
if (!(await stat(path.join(dataDir, 'db', 'PG_VERSION')).catch(() => null))) {
  console.error(`Error: DATA_DIR ${dataDir} holds no Merit database to back up.`);
  process.exit(1);
}

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const target = path.resolve(output ?? `merit-backup-${stamp}.tar.gz`);
const started = performance.now();

await removeLeftovers(dataDir, DAY);
let snapshot = await requestSnapshot(dataDir);
const online = snapshot !== null;
if (!snapshot) {
  // No server runs: this process opens the database, holding the folder meanwhile so
  // that a server starting now waits for no one and refuses instead.
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'db') });
  const release = await holdDataDir(dataDir);
  try {
    snapshot = await makeSnapshot(database, dataDir);
  } finally {
    await database.close();
    await release();
  }
}

/** Adds a folder of the snapshot to the archive under `prefix`, files at their size now. */
async function addTree(tar: BackupArchiveWriter, folder: string, prefix: string): Promise<number> {
  let files = 0;
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const source = path.join(folder, entry.name);
    const name = `${prefix}${entry.name}`;
    const info = await lstat(source);
    if (info.isDirectory()) {
      await tar.directory(name, info.mtime);
      files += await addTree(tar, source, `${name}/`);
    } else if (info.isFile()) {
      await tar.file(name, source, info.size, info.mtime, info.mode);
      files += 1;
    }
  }
  return files;
}

const partial = `${target}.partial`;
let storedFiles = 0;
try {
  const tar = new BackupArchiveWriter(partial);
  const manifest = {
    format: BACKUP_FORMAT,
    createdAt: new Date().toISOString(),
    database: 'pglite',
    takenFrom: online ? 'the running server' : 'DATA_DIR, with no server running',
  };
  await tar.buffer(BACKUP_MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  // The database's own dump, unpacked to db/, so the archive unpacks to a DATA_DIR.
  await tar.directory('db');
  await tar.tar(await readFile(path.join(snapshot, 'db.tar')), 'db', 0o600);
  storedFiles = await addTree(tar, path.join(snapshot, 'data'), '');
  await tar.finish();
  await rename(partial, target);
} catch (error) {
  await rm(partial, { force: true });
  throw error;
} finally {
  await rm(snapshot, { recursive: true, force: true });
}

const size = (await stat(target)).size;
console.log(
  `Backup written to ${target} (${(size / 1024 / 1024).toFixed(1)} MB: the database and ${storedFiles} other files of DATA_DIR, taken from ${online ? 'the running server' : 'DATA_DIR'} in ${((performance.now() - started) / 1000).toFixed(1)} s).`,
);
if (config.s3) {
  console.log(
    'Uploaded files are in the S3 bucket, not in DATA_DIR: back the bucket up with its own tools.',
  );
}
