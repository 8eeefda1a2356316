/**
 * What every figure needs: the generated call (made first when there is none, or it is
 * too old for its tokens and windows), and the server started as in production on its
 * database: the compiled dist/main.js, NODE_ENV=production, started by the helper the e2e
 * suite uses.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { REPO_ROOT, startServer } from '../../scripts/lib/server.mjs';
import { generate, generateOptionsFrom, SIZE_PRESETS, type Size } from '../data.js';
import { databaseEnv, DEFAULT_MANIFEST, readManifest, type Manifest } from './manifest.js';
import {
  metSummary,
  resultTable,
  type Figure,
  type FigureOptions,
  type FigureResult,
} from './result.js';

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

/** The sizes `--size` takes, by proposal count: 1,000, 10,000 (the default) and 30,000. */
export const SIZES = Object.keys(SIZE_PRESETS).map(Number);
export const DEFAULT_SIZE = 10_000;

/** `--size N` (or `--small`, the 1,000 call): the preset's proposal count; undefined when absent. */
export function sizeOption(raw: string | undefined, small = false): number | undefined {
  if (raw === undefined) return small ? 1_000 : undefined;
  const n = Number(raw.replaceAll(',', '').replaceAll('_', ''));
  if (!SIZES.includes(n))
    throw new Error(`--size must be one of ${SIZES.join(', ')} (proposals), not "${raw}".`);
  if (small && n !== 1_000) throw new Error('--small is --size 1000: give one of them.');
  return n;
}

const presetOf = (size: number): Size => SIZE_PRESETS[size as keyof typeof SIZE_PRESETS];

/** What differs between the manifest's size and the preset's, in words; empty when none. */
function sizeDifferences(manifest: Manifest, wanted: Size, editors: number): string[] {
  const made = manifest.size as Partial<Size>;
  const differs = (['proposals', 'reviews', 'members', 'facilities'] as const)
    .filter((key) => made[key] !== wanted[key])
    .map((key) => `${key} ${made[key] ?? 'unrecorded'}, not ${wanted[key]}`);
  // More editors than asked for serve as well: (c) opens the first N.
  const fewer = manifest.editors.length < editors;
  return fewer ? [...differs, `${manifest.editors.length} editors, not ${editors}`] : differs;
}

/**
 * The manifest at `path`, generated first when it is missing, older than a week, of
 * another size than the preset `size` asks for (every number of it: proposals, reviews,
 * members, facilities, and at least as many editors), with fewer than `editors` editors
 * (made with that many then), or on another database than DATABASE_URL when that is
 * set. `size` 'any' takes the manifest's size as it is (a figure run alone). It is
 * generated on DATABASE_URL's database or an embedded one, as `npm run bench:data` chooses.
 */
export async function ensureManifest(
  path: string,
  size: number | 'any',
  log: (line: string) => void,
  editors?: number,
): Promise<Manifest> {
  const wanted = presetOf(size === 'any' ? DEFAULT_SIZE : size);
  const editorCount = Math.max(editors ?? 0, wanted.editors);
  if (existsSync(path)) {
    const manifest = await readManifest(path);
    const age = Date.now() - new Date(manifest.generatedAt).getTime();
    const differences =
      size === 'any'
        ? manifest.editors.length < (editors ?? 0)
          ? [`${manifest.editors.length} editors, not ${editors}`]
          : []
        : sizeDifferences(manifest, wanted, editorCount);
    // DATABASE_URL, when set, names the database to measure; unset, the manifest's serves.
    const sameDatabase =
      !process.env.DATABASE_URL ||
      ('url' in manifest.database && manifest.database.url === process.env.DATABASE_URL);
    if (age < MAX_AGE_MS && differences.length === 0 && sameDatabase) return manifest;
    log(
      `The data at ${path} is ` +
        (differences.length > 0
          ? `of another size (${differences.join('; ')})`
          : age >= MAX_AGE_MS
            ? 'older than a week'
            : 'on another database than DATABASE_URL') +
        '; generating it again.',
    );
  } else {
    log(`No benchmark data at ${path}; generating it (npm run bench:data).`);
  }
  // A figure run alone on no data gets the default size.
  const made = size === 'any' ? wanted : presetOf(size);
  const options = generateOptionsFrom([
    ...['--proposals', String(made.proposals)],
    ...['--reviews', String(made.reviews)],
    ...['--members', String(made.members)],
    ...['--facilities', String(made.facilities)],
    ...['--editors', String(editorCount)],
    ...['--manifest', path],
  ]);
  log(
    `npm run bench:data -- --proposals ${made.proposals} --reviews ${made.reviews} ` +
      `--members ${made.members} --facilities ${made.facilities} --editors ${editorCount}`,
  );
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

/**
 * The baseline of figure (i)'s server times: the answer the chair's list page asks for
 * first (`GET /calls/{id}/proposals/?pageSize=100&sort=name` as the chair), each a fresh
 * request timed to the last byte, `runs` of them after 2 to warm up, in ms.
 */
export async function listAnswerTimes(
  baseUrl: string,
  manifest: Manifest,
  runs: number,
): Promise<number[]> {
  const url = `${baseUrl}/api/v1/calls/${manifest.callId}/proposals/?pageSize=100&sort=name`;
  const headers = { authorization: `Token ${manifest.chair.token}` };
  const times: number[] = [];
  for (let run = -2; run < runs; run++) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`The list answered ${res.status}.`);
    if (run >= 0) times.push(performance.now() - started);
  }
  return times;
}

export const databaseName = (manifest: Manifest) =>
  'url' in manifest.database ? 'PostgreSQL' : 'PGlite';

/** Runs a script of the repository's scripts/ with this Node; throws when it fails. */
export function runScript(script: string, ...args: string[]): void {
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0)
    throw new Error(
      `node ${[script, ...args].join(' ')} failed (exit ${result.status ?? result.signal})`,
    );
}

/** The machine's load average over 1, 5 and 15 minutes: "3.12 2.80 2.41". */
export const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** The commit measured: `git rev-parse --short HEAD`, with "+changes" when the tree differs. */
export function commitMeasured(): string {
  const git = (...args: string[]) =>
    spawnSync('git', ['--no-optional-locks', ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return 'unknown (not a git checkout)';
  const changed = git('status', '--porcelain').stdout.trim() !== '';
  return `${head.stdout.trim()}${changed ? '+changes' : ''}`;
}

/**
 * What a run starts with, so that its table can be recorded as it is: when, which code,
 * how busy the machine was, on which database and data.
 */
export function runHeading(database: string, size: string): string {
  return [
    `# Merit benchmarks`,
    '',
    `- date: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    `- commit: ${commitMeasured()}`,
    `- machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    `- load average at start: ${loadAverage()}`,
    `- database: ${database}`,
    `- size: ${size}`,
  ].join('\n');
}

/** The manifest's database and size, as the heading prints them. */
export function describeData(manifest: Manifest): { database: string; size: string } {
  const size = manifest.size as Partial<Size>;
  return {
    database:
      'url' in manifest.database
        ? `PostgreSQL (${new URL(manifest.database.url).pathname.slice(1)})`
        : 'PGlite (embedded)',
    size:
      `${size.proposals} proposals, ${size.reviews} reviews, ${size.members ?? '?'} members, ` +
      `${size.facilities} facilities, ${manifest.editors.length} editors`,
  };
}

/** The table and how the run ended, as bench/README.md records it. */
export function runEnding(results: readonly FigureResult[]): string {
  return (
    `\n## Every figure beside its baseline\n\n${resultTable(results)}\n\n` +
    `${metSummary(results)}; load average at end: ${loadAverage()}`
  );
}

/** `--test-baseline-seconds S`: (j)'s baseline; undefined when absent. */
export function secondsOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`--test-baseline-seconds must be a positive number, not "${raw}".`);
  return n;
}

/**
 * Runs one figure when its file is run on its own (`npx tsx bench/figures/a-list.ts`),
 * with `--quick`, `--size` (or `--small`), `--manifest` and `--editors`, and prints the
 * run's heading and its table. `data: false` for a figure that starts its own server on
 * an empty database ((f), (g), (j)): no manifest is read or made. `build` names what
 * scripts/ensure-built.mjs builds first when stale ('web', 'server'), for a figure that
 * needs the built web app or times the server's start (which would otherwise include a
 * build).
 */
export async function runAlone(
  figure: Figure,
  moduleUrl: string,
  { data = true, build = [] }: { data?: boolean; build?: string[] } = {},
): Promise<void> {
  if (!process.argv[1] || pathToFileURL(process.argv[1]).href !== moduleUrl) return;
  if (build.length > 0) runScript('scripts/ensure-built.mjs', ...build);
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      size: { type: 'string' },
      small: { type: 'boolean', default: false },
      manifest: { type: 'string', default: DEFAULT_MANIFEST },
      editors: { type: 'string' },
      'test-baseline-seconds': { type: 'string' },
    },
  });
  const options: FigureOptions = {
    // A relative path means where the command was typed, as the generator reads it.
    manifestPath: resolve(process.env.INIT_CWD ?? process.cwd(), values.manifest),
    quick: values.quick,
    log: (line) => console.log(line),
    editors: editorsOption(values.editors),
    testBaselineSeconds: secondsOption(values['test-baseline-seconds']),
  };
  if (data) {
    const manifest = await ensureManifest(
      options.manifestPath,
      sizeOption(values.size, values.small) ?? 'any',
      options.log,
      options.editors,
    );
    const { database, size } = describeData(manifest);
    console.log(runHeading(database, size));
  } else {
    console.log(runHeading('PGlite (embedded, a fresh one per server)', 'no generated data'));
  }
  const results = await figure(options);
  console.log(runEnding(results));
}
