import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

// The build (build.mjs) writes dist/pglite-template.tar.gz beside the bundle: an empty
// database with the migrations applied. From src/ (tests, `npm run dev`) there is none.
const templateFile = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'pglite-template.tar.gz',
);

/** The folders a first start unpacks the template into, beside the database's. */
export const UNPACKING = '.template-';

/** Where the embedded database keeps its files in DATA_DIR. */
export const embeddedDatabaseDir = (dataDir: string) => path.join(dataDir, 'db');

/**
 * Puts the built template into `dataDir` when it holds no database yet; false when it
 * could not (no template was built, or the folder holds something else), and PGlite
 * then runs initdb itself. initdb through PGlite's file system took 3 to 5 s, most of a
 * first start, and unpacking through it (`loadDataDir`) 0.5 s of its 459 files. Here a
 * worker thread writes them (template.worker.ts) while `main.ts` loads the server's code
 * on the main thread. Unpacked beside the folder and renamed into place, so a start
 * stopped halfway leaves no half database to open next time.
 */
async function unpackTemplate(dataDir: string): Promise<boolean> {
  if (!existsSync(templateFile)) return false;
  const parent = path.dirname(dataDir);
  await mkdir(parent, { recursive: true });
  // What a first start killed while unpacking left (one process at a time uses DATA_DIR).
  for (const name of await readdir(parent))
    if (name.startsWith(UNPACKING))
      await rm(path.join(parent, name), { recursive: true, force: true });
  const folder = await mkdtemp(path.join(parent, UNPACKING));
  try {
    // Built only (there is no template from source): dist/template-worker.js is beside this.
    const worker = new Worker(new URL('./template-worker.js', import.meta.url), {
      workerData: { templateFile, folder },
    });
    const [code] = (await once(worker, 'exit')) as [number];
    if (code !== 0) throw new Error(`Unpacking ${templateFile} failed (exit code ${code}).`);
    // Replaces the folder only while it is empty (ENOTEMPTY otherwise).
    await rename(folder, dataDir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw error;
    return false;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The preparations under way, by folder. */
const preparing = new Map<string, Promise<void>>();

/**
 * Makes `dataDir` ready for PGlite: the folder, and the template's database in it on a
 * first start. A call while another for the same folder is under way waits for that one,
 * so `main.ts` can start it early and the database's opening waits for the same work.
 */
export function prepareEmbeddedDatabase(dataDir: string): Promise<void> {
  const under = preparing.get(dataDir);
  if (under) return under;
  const prepared = (async () => {
    if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
    if (!(await unpackTemplate(dataDir))) await mkdir(dataDir, { recursive: true });
  })().finally(() => preparing.delete(dataDir));
  preparing.set(dataDir, prepared);
  return prepared;
}
