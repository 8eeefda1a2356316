/**
 * `npm run bench`: every figure of issue 15, each beside the baseline measured in the
 * same run, then one table of them all. Not a test: nothing here fails on a slow number.
 *
 *   npm run bench                     # all figures on the 10,000-proposal call
 *   npm run bench -- --only a,b       # some figures (letters, or startup, bundle)
 *   npm run bench -- --small          # the 1,000-proposal call
 *   npm run bench -- --quick          # shorter runs, for trying things out
 *   npm run bench -- --editors 2000   # open editors polling the lock in (c) (default 2,000)
 *
 * The figures (bench/figures/<name>.ts, registered in FIGURES below) read the data
 * generator's manifest; when there is none (or it is old, or of another size) the
 * generator runs first, on DATABASE_URL's PostgreSQL or an embedded PGlite.
 *
 * Besides the figures, two older measurements, until figure (f) takes them over:
 *   1. Start-up: wall time from spawning the server (as `npm start` runs it, the
 *      compiled dist/main.js) to its first health 200. Cold: a fresh DATA_DIR, so
 *      an empty embedded PGlite database, migrations and the initial admin. Warm:
 *      the same DATA_DIR again. Median of --runs runs each (default 5).
 *   2. JavaScript of the first page: /auth/login loaded in Chromium until the
 *      network is idle; every JavaScript response (entry, modulepreload and lazy
 *      chunks), each gzipped at level 9. Budget: under 200 KB in all.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs';
import { REPO_ROOT, startServer } from '../scripts/lib/server.mjs';
import { editorsOption, ensureManifest, OPEN_EDITORS } from './lib/bench-server.js';
import { DEFAULT_MANIFEST } from './lib/manifest.js';
import { resultTable, type Figure, type FigureResult } from './lib/result.js';

/**
 * The figures of issue 15, by letter, in the order they run. Each module exports
 * `run(options): Promise<FigureResult[]>` and runs alone with `npx tsx bench/figures/<name>.ts`.
 */
const FIGURES: Record<string, () => Promise<{ run: Figure }>> = {
  a: () => import('./figures/a-list.js'),
  b: () => import('./figures/b-proposal.js'),
  // (c) the deadline spike, with (g) the server's memory during it and the scale-out run.
  c: () => import('./figures/c-spike.js'),
  d: () => import('./figures/d-exports.js'),
  e: () => import('./figures/e-list-page.js'),
  f: () => import('./figures/f-start.js'),
  // Issue 27: reviewer assignment at scale (Propose, Apply, the matrix) on a copy of the call.
  g: () => import('./figures/g-assignment.js'),
  // Issue 28: the chair's review progress and the reminders' sweep on the 10,000-proposal call.
  h: () => import('./figures/h-progress.js'),
  // Issue 29: the Ranking page, one award edit and releasing letters, on a closed copy of the call.
  i: () => import('./figures/i-decisions.js'),
};

const FIRST_PAGE_JS_BUDGET_BYTES = 200 * 1000;

const ADMIN_ENV = {
  INITIAL_ADMIN_USERNAME: 'bench-admin',
  INITIAL_ADMIN_EMAIL: 'bench-admin@example.test',
  INITIAL_ADMIN_PASSWORD: 'Bench-Admin-Passw0rd!',
  LOG_LEVEL: 'warn',
};

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'skip-startup': { type: 'boolean', default: false },
    'skip-bundle': { type: 'boolean', default: false },
    only: { type: 'string' },
    small: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    manifest: { type: 'string', default: DEFAULT_MANIFEST },
    editors: { type: 'string' },
  },
});
const only = options.only
  ?.split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const parts = ['startup', 'bundle', ...Object.keys(FIGURES)];
const unknown = only?.filter((name) => !parts.includes(name)) ?? [];
if (unknown.length > 0)
  throw new Error(`--only: no figure ${unknown.join(', ')}; choose from ${parts.join(', ')}.`);
const wanted = (name: string) => !only || only.includes(name);
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');

function runScript(script: string, ...args: string[]): void {
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    throw new Error(
      `node ${[script, ...args].join(' ')} failed (exit ${result.status ?? result.signal})`,
    );
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const ms = (value: number) => `${Math.round(value)} ms`;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

async function benchStartup(): Promise<void> {
  console.log(`\n## Start-up to first health 200 (${runs} runs each)\n`);

  const cold: number[] = [];
  const warm: number[] = [];
  for (let run = 0; run < runs; run++) {
    const dataDir = await mkdtemp(join(tmpdir(), 'merit-bench-'));
    try {
      // Cold: nothing in DATA_DIR yet.
      const first = await startServer({ dataDir, env: ADMIN_ENV });
      await first.stop();
      cold.push(first.startupMs);
      // Warm: the database the cold start just made.
      const second = await startServer({ dataDir, env: ADMIN_ENV });
      await second.stop();
      warm.push(second.startupMs);
      console.log(`run ${run + 1}: cold ${ms(first.startupMs)}, warm ${ms(second.startupMs)}`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  console.log('');
  console.log('| start | median | min | max |');
  console.log('| --- | --- | --- | --- |');
  for (const [name, values] of [
    ['cold (fresh DATA_DIR)', cold],
    ['warm (existing DATA_DIR)', warm],
  ] as const) {
    console.log(
      `| ${name} | ${ms(median(values))} | ${ms(Math.min(...values))} | ${ms(Math.max(...values))} |`,
    );
  }
}

interface ScriptFile {
  path: string;
  rawBytes: number;
  gzipBytes: number;
  transferBytes: number;
  encoding: string;
}

async function benchFirstPageJs(): Promise<void> {
  console.log('\n## JavaScript downloaded by /auth/login\n');

  const server = await startServer({ env: ADMIN_ENV });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const pending: Promise<ScriptFile | undefined>[] = [];
    page.on('response', (response) => {
      const type = response.headers()['content-type'] ?? '';
      const isScript =
        response.request().resourceType() === 'script' ||
        /javascript|ecmascript/.test(type) ||
        /\.m?js(\?|$)/.test(new URL(response.url()).pathname);
      if (!isScript || response.status() !== 200) return;
      pending.push(
        (async () => {
          const body = await response.body();
          const sizes = await response.request().sizes();
          return {
            path: new URL(response.url()).pathname,
            rawBytes: body.length,
            gzipBytes: gzipSync(body, { level: 9 }).length,
            transferBytes: sizes.responseBodySize,
            encoding: response.headers()['content-encoding'] ?? 'none',
          };
        })().catch(() => undefined),
      );
    });

    await page.goto(`${server.url}/auth/login`, { waitUntil: 'networkidle' });
    const files = new Map<string, ScriptFile>();
    for (const file of await Promise.all(pending)) if (file) files.set(file.path, file);
    const list = [...files.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);

    console.log('| file | raw | gzip -9 | transferred (encoding) |');
    console.log('| --- | --- | --- | --- |');
    for (const file of list) {
      console.log(
        `| ${file.path} | ${kb(file.rawBytes)} | ${kb(file.gzipBytes)} | ` +
          `${kb(file.transferBytes)} (${file.encoding}) |`,
      );
    }
    const total = (key: 'rawBytes' | 'gzipBytes' | 'transferBytes') =>
      list.reduce((sum, file) => sum + file[key], 0);
    console.log(
      `| **${list.length} files** | ${kb(total('rawBytes'))} | **${kb(total('gzipBytes'))}** | ` +
        `${kb(total('transferBytes'))} |`,
    );
    const gzip = total('gzipBytes');
    console.log(
      `\nFirst page gzipped JavaScript: ${kb(gzip)} of a ${kb(FIRST_PAGE_JS_BUDGET_BYTES)} budget ` +
        `(${gzip < FIRST_PAGE_JS_BUDGET_BYTES ? 'within' : 'OVER'} budget).`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

async function benchFigures(letters: string[]): Promise<FigureResult[]> {
  const log = (line: string) => console.log(line);
  // (c) polls the lock with 2,000 open editors (--editors): the data must have as many.
  const editors =
    editorsOption(options.editors) ?? (letters.includes('c') ? OPEN_EDITORS : undefined);
  // npm runs this in bench/: a relative --manifest means where the command was typed, as
  // the generator reads it.
  const manifestPath = resolve(process.env.INIT_CWD ?? process.cwd(), options.manifest);
  await ensureManifest(manifestPath, options.small ? 'small' : 'full', log, editors);
  const results: FigureResult[] = [];
  for (const letter of letters) {
    const { run } = await FIGURES[letter]!();
    results.push(...(await run({ manifestPath, quick: options.quick, log, editors })));
  }
  return results;
}

console.log(
  `# Merit benchmarks, ${new Date().toISOString().slice(0, 10)}, ` +
    `${cpus().length} cores, Node ${process.version}`,
);
const withStartup = wanted('startup') && !options['skip-startup'];
const withBundle = wanted('bundle') && !options['skip-bundle'];
const letters = Object.keys(FIGURES).filter(wanted);
// The compiled server, and the built web app it serves; the browser needs Debian's Chromium.
// The API figures need only the server, which starting it builds when it is stale.
// Figures (d), (e), (f), (h) and (i) load the web app in the browser.
const inBrowser = letters.some((letter) => ['d', 'e', 'f', 'h', 'i'].includes(letter));
if (withStartup || withBundle || inBrowser) runScript('scripts/ensure-built.mjs');
if (withBundle || inBrowser) runScript('scripts/ensure-chromium.mjs', '--headless-shell');

if (withStartup) await benchStartup();
if (withBundle) await benchFirstPageJs();
if (letters.length > 0) {
  const results = await benchFigures(letters);
  console.log(`\n## Every figure beside its baseline\n\n${resultTable(results)}`);
}
