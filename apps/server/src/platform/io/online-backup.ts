import { copyFile, link, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Database } from '../../db/client.js';

/**
 * Backups of the embedded database while the server runs (`npm run backup`).
 *
 * PGlite is PostgreSQL inside one process: a second process that opens the same data
 * folder does not wait or fail, it runs its own PostgreSQL on the same files, and the two
 * corrupt them. So the process that has DATA_DIR's database open listens on a socket in
 * DATA_DIR, `backup.sock` (only its owner may connect, as only its owner may read the
 * files). `npm run backup` asks that process for a snapshot instead of opening the
 * database; a server starting on a DATA_DIR whose socket answers refuses to start; and
 * `npm run backup`/`restore` hold the socket themselves while they have the folder open.
 *
 * A snapshot is made in DATA_DIR/.backup-XXXXXX/: `db.tar`, PGlite's own dump of its data
 * folder, taken while no transaction is open, and hard links (copies where links do not
 * work) to everything else in DATA_DIR, made before any query runs again. Stored files
 * are written under a new name and never changed, and their bytes are deleted only after
 * the row that names them is gone, so every file a row of the dump names is in the
 * snapshot, whatever happens after it. The backup tool then archives the folder at its
 * own pace and removes it.
 */
export const BACKUP_SOCKET = 'backup.sock';
export const SNAPSHOT_PREFIX = '.backup-';
export const RESTORE_PREFIX = '.restore-';
/** The first entry of a backup archive, which says what it is. */
export const BACKUP_MANIFEST = 'merit-backup.json';
export const BACKUP_FORMAT = 'merit-backup/1';

/** DATA_DIR entries that are not data: the database (dumped on its own), the socket, work folders. */
export function isDataEntry(name: string): boolean {
  return (
    name !== 'db' &&
    name !== BACKUP_SOCKET &&
    !name.startsWith(SNAPSHOT_PREFIX) &&
    !name.startsWith(RESTORE_PREFIX)
  );
}

/**
 * Unix socket paths are limited to about 100 bytes (longer ones are silently cut short,
 * naming another file); a DATA_DIR deeper than that is reached by its relative name, from
 * within the folder. bind and connect both read the path at once, so the working folder
 * changes for no longer than the call.
 */
function atSocket<T>(dataDir: string, use: (socketPath: string) => T): T {
  const full = path.join(dataDir, BACKUP_SOCKET);
  if (Buffer.byteLength(full) <= 100) return use(full);
  const previous = process.cwd();
  process.chdir(dataDir);
  try {
    return use(BACKUP_SOCKET);
  } finally {
    process.chdir(previous);
  }
}

/** Sends one request line to the process holding DATA_DIR; null when none listens. */
async function ask(dataDir: string, request: string): Promise<Record<string, unknown> | null> {
  return new Promise((resolve, reject) => {
    const socket = atSocket(dataDir, (socketPath) => net.connect(socketPath));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${request}\n`));
    socket.on('data', (data: string) => (answer += data));
    socket.on('end', () => {
      try {
        resolve(JSON.parse(answer) as Record<string, unknown>);
      } catch {
        reject(new Error(`The process holding ${dataDir} gave an answer that is not JSON.`));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // No socket, or one left by a process that was killed: nobody holds the folder.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
  });
}

/** Whether a Merit process (a server, a backup, a restore) has DATA_DIR's database open. */
export async function dataDirInUse(dataDir: string): Promise<boolean> {
  return (await ask(dataDir, 'ping')) !== null;
}

/**
 * Asks the process holding DATA_DIR for a snapshot: its folder, or null when no process
 * holds DATA_DIR.
 */
export async function requestSnapshot(dataDir: string): Promise<string | null> {
  const answer = await ask(dataDir, 'snapshot');
  if (answer === null) return null;
  if (typeof answer.snapshot !== 'string')
    throw new Error(String(answer.error ?? 'The server could not make a snapshot.'));
  return answer.snapshot;
}

async function linkTree(from: string, to: string, top: boolean): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (top && !isDataEntry(entry.name)) continue;
    // A file still being written under its temporary name becomes a stored file only
    // once renamed, after which its row is written.
    if (entry.name.endsWith('.partial')) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target, false);
    else if (entry.isFile()) {
      try {
        await link(source, target);
      } catch {
        // Another file system, or one without hard links: a copy is as good, only slower.
        await copyFile(source, target);
      }
    }
  }
}

/** Makes a snapshot of DATA_DIR (see above) with the database open in this process. */
export async function makeSnapshot(database: Database, dataDir: string): Promise<string> {
  if (!database.snapshot) throw new Error('Only the embedded database is backed up this way.');
  const folder = await mkdtemp(path.join(dataDir, SNAPSHOT_PREFIX));
  try {
    await database.snapshot(async (dataDirTar) => {
      await writeFile(path.join(folder, 'db.tar'), dataDirTar);
      await linkTree(dataDir, path.join(folder, 'data'), true);
    });
    return folder;
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Listens on DATA_DIR/backup.sock for as long as this process has the database open:
 * `ping` says it is held, `snapshot` makes one when `database` is given. Returns the
 * function that stops listening and removes the socket.
 */
export async function holdDataDir(
  dataDir: string,
  database?: Database,
  onError?: (error: unknown) => void,
): Promise<() => Promise<void>> {
  // A socket left by a process that was killed refuses connections; it is replaced.
  await rm(path.join(dataDir, BACKUP_SOCKET), { force: true });
  const server = net.createServer((socket) => {
    let request = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (data: string) => {
      request += data;
      if (!request.includes('\n')) return;
      const command = request.trim();
      const reply = async () => {
        if (command === 'ping') return { held: true };
        if (command !== 'snapshot') return { error: `Unknown request "${command}".` };
        if (!database) return { error: `Another Merit command is using ${dataDir}.` };
        return { snapshot: await makeSnapshot(database, dataDir) };
      };
      reply().then(
        (answer) => socket.end(JSON.stringify(answer)),
        (error: unknown) => {
          onError?.(error);
          socket.end(JSON.stringify({ error: `The snapshot failed: ${String(error)}` }));
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Only the owner of DATA_DIR may connect: a snapshot holds every proposal and review.
    const mask = process.umask(0o077);
    try {
      atSocket(dataDir, (socketPath) => server.listen(socketPath, () => resolve()));
    } finally {
      process.umask(mask);
    }
  });
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(path.join(dataDir, BACKUP_SOCKET), { force: true });
  };
}

/**
 * Removes snapshot and restore folders that a killed backup or restore left behind, once
 * older than `olderThanMs` (a younger one may belong to a backup still archiving).
 */
export async function removeLeftovers(dataDir: string, olderThanMs: number): Promise<void> {
  const names = await readdir(dataDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(SNAPSHOT_PREFIX) && !name.startsWith(RESTORE_PREFIX)) continue;
    const info = await lstat(path.join(dataDir, name));
    if (info.isDirectory() && Date.now() - info.mtimeMs > olderThanMs)
      await rm(path.join(dataDir, name), { recursive: true, force: true });
  }
}
