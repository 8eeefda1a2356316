import { mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { count } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../config/config.js';
import { openDatabase } from '../db/client.js';
import { proposalFiles, proposals, reviews } from '../db/schema.js';
import { BackupArchiveError, unpackBackup } from '../platform/io/backup-archive.js';
import {
  BACKUP_FORMAT,
  BACKUP_MANIFEST,
  dataDirInUse,
  holdDataDir,
  isDataEntry,
  RESTORE_PREFIX,
} from '../platform/io/online-backup.js';
import { keepNewFilesPrivate, privateDataDir } from '../platform/io/private-files.js';

/**
 * `npm run restore -- FILE`: a backup made by `npm run backup` into DATA_DIR, which must be
 * empty or missing unless --force says to replace what it holds. The archive is unpacked
 * beside the data first and its database opened and counted; only then does it replace
 * anything, so a damaged archive leaves DATA_DIR as it was.
 */
// The backup's files come back owner-only, whatever modes the archive recorded.
keepNewFilesPrivate();
const usage = 'Usage: npm run restore -- BACKUP.tar.gz [--force]';

function stop(message: string, code = 1): never {
  console.error(`Error: ${message}`);
  process.exit(code);
}

/** A refusal once the work has begun: the folders are cleaned up before the process ends. */
class Refusal extends Error {}

let positionals: string[];
let force: boolean | undefined;
try {
  ({
    positionals,
    values: { force },
  } = parseArgs({
    options: { force: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  }));
} catch (error) {
  stop(`${(error as Error).message}\n${usage}`, 2);
}
if (positionals.length !== 1) stop(`name one backup file.\n${usage}`, 2);
const archive = path.resolve(positionals[0]!);

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  stop(error.message);
}
if (config.databaseUrl) {
  stop(
    'DATABASE_URL is set, so the database is PostgreSQL: restore it with pg_restore (README.md, "Backups"). npm run restore puts a backup of the embedded database into DATA_DIR.',
    2,
  );
}
const { dataDir } = config;
if (!(await stat(archive).catch(() => null))?.isFile()) stop(`${archive} is not a file.`);
if (await dataDirInUse(dataDir)) {
  stop(`a Merit server (or backup) is using DATA_DIR ${dataDir}. Stop it, then restore.`);
}
const existing = (await readdir(dataDir).catch(() => [] as string[])).filter(isDataEntry);
const hasDatabase = await stat(path.join(dataDir, 'db')).catch(() => null);
if ((existing.length > 0 || hasDatabase) && !force) {
  stop(
    `DATA_DIR ${dataDir} is not empty. Restore into a new, empty DATA_DIR, or add --force to replace everything it holds with the backup.`,
  );
}

await privateDataDir(dataDir);
const release = await holdDataDir(dataDir);
const unpacked = await mkdtemp(path.join(dataDir, RESTORE_PREFIX));
const started = performance.now();
try {
  const { manifest, files } = await unpackBackup(archive, unpacked).catch((error: unknown) => {
    if (error instanceof BackupArchiveError)
      throw new Refusal(`${archive} cannot be restored: ${error.message}`);
    if ((error as NodeJS.ErrnoException).code === 'Z_DATA_ERROR')
      throw new Refusal(`${archive} is not a backup made by npm run backup (it is not gzip data).`);
    throw error;
  });
  if (manifest?.format !== BACKUP_FORMAT)
    throw new Refusal(
      `${archive} is not a backup made by npm run backup (it has no ${BACKUP_MANIFEST}).`,
    );

  // Opened once here: PGlite replays the WAL the snapshot holds, and the counts show the
  // archive held a database before anything is replaced.
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(unpacked, 'db') });
  let counts: { proposals: number; reviews: number; files: number };
  try {
    const { db } = database;
    const total = async (table: typeof proposals | typeof reviews | typeof proposalFiles) =>
      (await db.select({ n: count() }).from(table))[0]?.n ?? 0;
    counts = {
      proposals: await total(proposals),
      reviews: await total(reviews),
      files: await total(proposalFiles),
    };
  } finally {
    await database.close();
  }

  for (const name of await readdir(dataDir)) {
    if (name === path.basename(unpacked) || name === 'backup.sock') continue;
    await rm(path.join(dataDir, name), { recursive: true, force: true });
  }
  for (const name of await readdir(unpacked)) {
    await rename(path.join(unpacked, name), path.join(dataDir, name));
  }
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${dataDir} in ${((performance.now() - started) / 1000).toFixed(1)} s: ${counts.proposals} proposals, ${counts.reviews} reviews, ${counts.files} proposal files (${files} files besides the database).`,
  );
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  console.error(`Error: ${error.message}`);
  process.exitCode = 1;
} finally {
  await rm(unpacked, { recursive: true, force: true });
  await release();
}
