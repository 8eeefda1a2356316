/**
 * What every figure needs: the generated call (made first when there is none, or it is
 * too old for its tokens and windows), and the server started as in production on its
 * database: the compiled dist/main.js, NODE_ENV=production, started by the helper the e2e
 * suite uses.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startServer } from '../../scripts/lib/server.mjs';
import { FULL_SIZE, generate, generateOptionsFrom, SMALL_SIZE } from '../data.js';
import { databaseEnv, DEFAULT_MANIFEST, readManifest, type Manifest } from './manifest.js';
import { resultTable, type Figure, type FigureOptions } from './result.js';

/** Tokens idle out after 14 days and the review window ends 30 days after generation. */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The manifest's API tokens are made once, when the data is, and used until it is a week old;
 * the server's sessions (12 hours by default) must last as long. Lifetimes cost nothing per
 * request, so this changes no figure.
 */
export const BENCH_SESSIONS = {
  SESSION_MAX_AGE_HOURS: String(MAX_AGE_MS / 3_600_000),
  SESSION_IDLE_MINUTES: String(MAX_AGE_MS / 60_000),
};

/**
 * The manifest at `path`, generated first when it is missing, older than a week, or of
 * another size than asked for (`small`: 1,000 proposals; `full`: 10,000), with fewer
 * than `editors` editors (made with that many then), or on another database than
 * DATABASE_URL when that is set. It is generated on DATABASE_URL's database or an
 * embedded one, as `npm run bench:data` chooses.
 */
export async function ensureManifest(
  path: string,
  size: 'small' | 'full' | 'any',
  log: (line: string) => void,
  editors?: number,
): Promise<Manifest> {
  if (existsSync(path)) {
    const manifest = await readManifest(path);
    const age = Date.now() - new Date(manifest.generatedAt).getTime();
    const wanted = size === 'small' ? SMALL_SIZE : FULL_SIZE;
    const sizeFits =
      (size === 'any' || manifest.size.proposals === wanted.proposals) &&
      manifest.editors.length >= (editors ?? 0);
    // DATABASE_URL, when set, names the database to measure; unset, the manifest's serves.
    const sameDatabase =
      !process.env.DATABASE_URL ||
      ('url' in manifest.database && manifest.database.url === process.env.DATABASE_URL);
    if (age < MAX_AGE_MS && sizeFits && sameDatabase) return manifest;
    log(
      `The data at ${path} is ${sizeFits ? 'too old or elsewhere' : 'of another size'}; generating it again.`,
    );
  } else {
    log(`No benchmark data at ${path}; generating it (npm run bench:data).`);
  }
  const options = generateOptionsFrom([
    ...(size === 'small' ? ['--small'] : []),
    ...(editors ? ['--editors', String(Math.max(editors, FULL_SIZE.editors))] : []),
    ...['--manifest', path],
  ]);
  // Data this command generated before may go; anyone else's database is refused if it holds calls.
  const previous = existsSync(path) ? await readManifest(path) : undefined;
  const ours =
    previous && 'url' in previous.database && previous.database.url === options.databaseUrl;
  return generate({ ...options, reset: Boolean(ours), log });
}

/** Open editors polling the lock in (c)'s spike unless `--editors` says otherwise. */
export const OPEN_EDITORS = 2_000;

/** `--editors N`: how many open editors (c)'s spike polls the lock with; undefined when absent. */
export function editorsOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--editors must be a whole number, not "${raw}".`);
  return n;
}

export type BenchServer = Awaited<ReturnType<typeof startServer>>;

/** The compiled server on the manifest's database, as `npm start` runs it in production. */
export function startBenchServer(manifest: Manifest): Promise<BenchServer> {
  const database = manifest.database;
  return startServer({
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...BENCH_SESSIONS,
      ...databaseEnv(manifest),
    },
    ...('dataDir' in database ? { dataDir: database.dataDir } : {}),
  });
}

export const databaseName = (manifest: Manifest) =>
  'url' in manifest.database ? 'PostgreSQL' : 'PGlite';

/**
 * Runs one figure when its file is run on its own (`npx tsx bench/figures/a-list.ts`),
 * with `--quick`, `--small` and `--manifest`, and prints its table.
 */
export async function runAlone(figure: Figure, moduleUrl: string): Promise<void> {
  if (!process.argv[1] || pathToFileURL(process.argv[1]).href !== moduleUrl) return;
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      small: { type: 'boolean', default: false },
      manifest: { type: 'string', default: DEFAULT_MANIFEST },
      editors: { type: 'string' },
    },
  });
  const options: FigureOptions = {
    manifestPath: values.manifest,
    quick: values.quick,
    log: (line) => console.log(line),
    editors: editorsOption(values.editors),
  };
  await ensureManifest(
    options.manifestPath,
    values.small ? 'small' : 'any',
    options.log,
    options.editors,
  );
  const results = await figure(options);
  console.log(`\n${resultTable(results)}`);
}
