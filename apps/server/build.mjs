#!/usr/bin/env node
/**
 * Compiles the server for `npm start`: the server and its two command-line tools, each
 * an ES module in dist/ (with chunks they share or load lazily) with a source map, and
 * the SQL migrations copied beside them.
 *
 * Bundled rather than compiled file by file because @merit/domain and @merit/contract
 * are TypeScript source packages (their `exports` point at src/*.ts), which Node cannot
 * load: bundling just them needs no build or second `exports` of their own. npm packages
 * stay imports, resolved from node_modules at run time as in development, so there is
 * one copy of each (zod's schemas must be the instances fastify-type-provider-zod sees)
 * and native and WASM packages (argon2, PGlite) load their files as usual.
 *
 * All outputs sit directly in dist/, one level below apps/server, so the paths that the
 * sources resolve from their own module hold from both: db/client.ts's migrations folder
 * (copied to dist/migrations), and the repository root, which config/config.ts finds as
 * two levels above the nearest package.json.
 *
 * Other processes may start the server while this runs (two test projects, a journey),
 * so each file is written under a temporary name and renamed into place: a reader sees
 * the old file or the new one, never half of one.
 *
 * It also makes dist/pglite-template.tar.gz: an empty embedded database with every
 * migration applied. A first start on an empty DATA_DIR unpacks it instead of running
 * PostgreSQL's initdb through PGlite's file system, which took 3 to 5 s of a cold start
 * (bench/README.md, figure (f)); see db/client.ts.
 */
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { build } from 'esbuild';

const serverDir = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.join(serverDir, 'dist');
const migrations = path.join(serverDir, 'src/db/migrations');

/** Keeps every bare import except the workspace packages out of the bundle. */
const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@merit/') ? undefined : { path: args.path, external: true },
    );
  },
};

const result = await build({
  absWorkingDir: serverDir,
  entryPoints: {
    main: 'src/main.ts',
    migrate: 'src/cli/migrate.ts',
    'create-admin': 'src/cli/create-admin.ts',
    backup: 'src/cli/backup.ts',
    restore: 'src/cli/restore.ts',
    // `npm run demo`: the server with the demo world (issue 30).
    demo: 'src/cli/demo.ts',
    // The proposal PDF's worker thread, which modules/files/pdf-worker.ts starts as
    // ./pdf-worker.js from the chunk it is bundled into, in this same folder.
    'pdf-worker': 'src/modules/files/pdf.worker.ts',
    // Propose's solver thread, which modules/assignment/solver-thread.ts starts as
    // ./assignment-solver.js, likewise.
    'assignment-solver': 'src/modules/assignment/solver.worker.ts',
    // The worker that writes the embedded database's template on a first start, started
    // as ./template-worker.js by db/template.ts.
    'template-worker': 'src/db/template.worker.ts',
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [npmPackagesExternal],
  // Code reached only by `await import()` (the proposal PDF's pdfmake and pdf-lib) is its
  // own chunk, loaded when first used rather than at start-up. Chunks sit in dist/ too,
  // for the paths above.
  splitting: true,
  chunkNames: 'chunk-[hash]',
  // Stack traces in the logs name the TypeScript files and lines (node --enable-source-maps);
  // the sources themselves are on disk beside the map.
  sourcemap: 'linked',
  sourcesContent: false,
  // Bundling renames clashing names; class and function names appear in logs and errors.
  keepNames: true,
  write: false,
  logLevel: 'warning',
}).catch(() => {
  // esbuild has printed each error with its file and line; its stack trace would only bury them.
  process.exit(1);
});

/** Writes a file so that no reader ever sees it half written. */
async function writeAtomically(file, contents) {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}

// Chunks first: a server started meanwhile must not find an entry naming a chunk not yet
// written. Earlier builds' chunks stay, for a server still running that loads one late.
const isEntry = (file) =>
  /^(main|migrate|create-admin|backup|restore|demo|pdf-worker|assignment-solver|template-worker)\.js(\.map)?$/.test(
    path.basename(file.path),
  );
for (const file of result.outputFiles.filter((f) => !isEntry(f))) {
  await writeAtomically(file.path, file.contents);
}
for (const file of result.outputFiles.filter(isEntry)) {
  await writeAtomically(file.path, file.contents);
}

// A migration removed from src would stay in dist; harmless, since drizzle applies only
// the migrations that meta/_journal.json lists.
for (const entry of await readdir(migrations, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const source = path.join(entry.parentPath, entry.name);
  const target = path.join(outdir, 'migrations', path.relative(migrations, source));
  await writeAtomically(target, await readFile(source));
}

/**
 * The empty database a first start begins from: initdb and the migrations, run here once
 * in memory, dumped as PGlite's own tarball. A server whose migrations are newer than its
 * template still applies them at start, as it would to any older database.
 */
async function databaseTemplate() {
  const client = new PGlite();
  try {
    await migrate(drizzle(client), { migrationsFolder: migrations });
    // Merit uses the `postgres` database alone. initdb's two template databases, from
    // which only CREATE DATABASE copies, are half the files a first start creates
    // (452 of 893), at 0.5-1.5 ms each on a small virtual machine: dropped, so the
    // catalog and the files agree.
    for (const template of ['template0', 'template1']) {
      await client.exec(`alter database ${template} is_template false`);
      await client.exec(`drop database ${template}`);
    }
    // Everything written so far in the data files, so the copy needs no WAL replay.
    await client.exec('checkpoint');
    const tar = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
    return gzipSync(withoutMapForks(tar));
  } finally {
    await client.close();
  }
}

/**
 * The tarball without the tables' free space and visibility maps (files ending `_fsm` and
 * `_vm`), which PostgreSQL makes again when it first needs them: a first start then
 * creates a fifth fewer files, and creating files is most of unpacking (about 0.5 ms each
 * on a small virtual machine). PGlite's tarballs are plain ustar, one header per entry.
 */
function withoutMapForks(tar) {
  const kept = [];
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const text = (start, length) =>
      header
        .subarray(start, start + length)
        .toString('latin1')
        .split('\0')[0];
    const size = parseInt(text(124, 12).trim() || '0', 8);
    const end = offset + 512 + Math.ceil(size / 512) * 512;
    if (!/_(fsm|vm)$/.test(text(0, 100))) kept.push(tar.subarray(offset, end));
    offset = end;
  }
  kept.push(Buffer.alloc(1024));
  return Buffer.concat(kept);
}

await writeAtomically(path.join(outdir, 'pglite-template.tar.gz'), await databaseTemplate());
