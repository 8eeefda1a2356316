import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * DATA_DIR holds the embedded database, uploaded files, unfinished uploads, mail and
 * backups: nobody but the account that runs Merit may read them (ASVS V12.4.1, V8.1).
 * PGlite creates its files as 0666 and most writers here 0644, less the process's umask;
 * with this umask, everything the server and its command-line tools create is owner-only
 * (0600 files, 0700 folders). Called first thing by each entry point (main.ts, cli/*).
 */
export function keepNewFilesPrivate(): void {
  process.umask(0o077);
}

/**
 * Makes DATA_DIR if it is missing, and owner-only either way, so files made there by an
 * older version (or by hand) before the umask above cannot be reached by others either.
 */
export async function privateDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // A folder someone else owns (a mount point) cannot be changed, and need not be.
  await chmod(dataDir, 0o700).catch(() => undefined);
}

/**
 * Takes group and others' permissions off everything under `dir`. PGlite sets each file
 * it creates to 0666 itself (with chmod, past the umask), so the embedded database's
 * files are made owner-only here, at each start, and are unreachable meanwhile anyway
 * inside the 0700 DATA_DIR. A few milliseconds for the thousand files of a database.
 */
export async function makeTreePrivate(dir: string): Promise<number> {
  let changed = 0;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isSymbolicLink()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const info = await stat(file).catch(() => null);
    if (!info || (info.mode & 0o077) === 0) continue;
    // A file removed meanwhile (PostgreSQL's own temporary files) needs nothing.
    await chmod(file, info.mode & 0o700).catch(() => undefined);
    changed += 1;
  }
  return changed;
}
