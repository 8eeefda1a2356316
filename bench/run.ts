/**
 * `npm run bench`: every figure of issue 31, each beside the baseline measured in the
 * same run and held to the issue's budget, then one table of them all (figure, measured,
 * budget, baseline, ratio, met). Not a test: nothing here fails on a slow number.
 *
 *   npm run bench                          # figures (a) to (i) on the 10,000-proposal call
 *   npm run bench -- --size 30000          # the conference-scale call (1000, 10000, 30000)
 *   npm run bench -- --small               # the same as --size 1000
 *   npm run bench -- --only a,b,e          # some figures, by letter
 *   npm run bench -- --only j              # (j) `npm test`'s wall time: only when asked for
 *   npm run bench -- --quick               # shorter runs, for trying things out
 *   npm run bench -- --editors 2000        # open editors polling the lock in (c) (default 2,000)
 *   npm run bench -- --manifest path       # the data's manifest (default bench/.data/manifest.json)
 *   npm run bench -- --test-baseline-seconds 1700   # (j)'s baseline (default: bench/README.md's)
 *   npm run bench -- --no-build            # the built web app as it is, not rebuilt when stale
 *
 * The figures (bench/figures/<letter>-<name>.ts, registered in FIGURES below) read the data
 * generator's manifest; when there is none, or it is a week old, or of another size than
 * --size's preset (bench/data.ts SIZE_PRESETS), or on another database than DATABASE_URL,
 * the generator runs first, on DATABASE_URL's PostgreSQL or an embedded PGlite. (f), (g)
 * and (j) need no data: they start servers on empty databases of their own.
 *
 * The run starts with its date, commit, load average, database and size, and ends with
 * the table and the load average, so that it can be recorded in bench/README.md as it is.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  describeData,
  editorsOption,
  ensureManifest,
  DEFAULT_SIZE,
  OPEN_EDITORS,
  runEnding,
  runHeading,
  runScript,
  secondsOption,
  sizeOption,
} from './lib/bench-server.js';
import { DEFAULT_MANIFEST } from './lib/manifest.js';
import type { Figure, FigureOptions, FigureResult } from './lib/result.js';

type Module = () => Promise<{ run: Figure }>;

/**
 * The figures of issue 31's table "The budgets", by letter, in the order they run; a
 * letter's files run one after another. Each module exports `run(options)` and runs
 * alone with `npx tsx bench/figures/<file>.ts`.
 */
const FIGURES: Record<string, Module[]> = {
  // (a) the chair's list API, by name and by a resource column.
  a: [() => import('./figures/a-list.js')],
  // (b) one proposal with its reviews under load.
  b: [() => import('./figures/b-proposal.js')],
  // (c) the deadline spike, the server's memory during it, and the scale-out run.
  c: [() => import('./figures/c-spike.js')],
  // (d) every chair download, click to file in Chromium.
  d: [() => import('./figures/d-exports.js')],
  // (e) the chair's list page, first rows.
  e: [() => import('./figures/e-list-page.js')],
  // (f) cold start on the embedded database.
  f: [() => import('./figures/f-cold-start.js')],
  // (g) the login page's JavaScript, gzipped, and its first content.
  g: [() => import('./figures/g-login-page.js')],
  // (h) automatic assignment (Propose, Apply, the matrix) on a copy of the call.
  h: [() => import('./figures/h-assignment.js')],
  // (i) the progress page, the ranking page, and pending reviews as an admin.
  i: [
    () => import('./figures/i-progress.js'),
    () => import('./figures/i-ranking.js'),
    () => import('./figures/i-pending-reviews.js'),
  ],
  // (j) `npm test`'s wall time: opt-in (OPT_IN).
  j: [() => import('./figures/j-test-suite.js')],
};

/** Run only when `--only` names them: (j) runs the whole test suite, half an hour. */
const OPT_IN = ['j'];
/** Figures that start servers on empty databases of their own: no generated data. */
const WITHOUT_DATA = ['f', 'g', 'j'];
/** Figures that load the web app in Chromium. */
const IN_BROWSER = ['d', 'e', 'g', 'i'];

const { values: options } = parseArgs({
  options: {
    only: { type: 'string' },
    size: { type: 'string' },
    small: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    manifest: { type: 'string', default: DEFAULT_MANIFEST },
    editors: { type: 'string' },
    'test-baseline-seconds': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const only = options.only
  ?.split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const unknown = only?.filter((name) => !(name in FIGURES)) ?? [];
if (unknown.length > 0)
  throw new Error(
    `--only: no figure ${unknown.join(', ')}; choose from ${Object.keys(FIGURES).join(', ')}.`,
  );
const letters = Object.keys(FIGURES).filter((letter) =>
  only ? only.includes(letter) : !OPT_IN.includes(letter),
);
const size = sizeOption(options.size, options.small) ?? DEFAULT_SIZE;
const log = (line: string) => console.log(line);
const figureOptions: FigureOptions = {
  // npm runs this in bench/: a relative --manifest means where the command was typed, as
  // the generator reads it.
  manifestPath: resolve(process.env.INIT_CWD ?? process.cwd(), options.manifest),
  quick: options.quick,
  log,
  // (c) polls the lock with 2,000 open editors (--editors): the data must have as many.
  editors: editorsOption(options.editors) ?? (letters.includes('c') ? OPEN_EDITORS : undefined),
  testBaselineSeconds: secondsOption(options['test-baseline-seconds']),
};

// The compiled server (startServer builds it when stale) and the built web app it serves;
// the browser needs Debian's Chromium.
const inBrowser = letters.some((letter) => IN_BROWSER.includes(letter));
if (inBrowser && !options['no-build']) runScript('scripts/ensure-built.mjs', 'web', 'server');
if (inBrowser) runScript('scripts/ensure-chromium.mjs', '--headless-shell');

const withData = letters.some((letter) => !WITHOUT_DATA.includes(letter));
if (withData) {
  const manifest = await ensureManifest(
    figureOptions.manifestPath,
    size,
    log,
    figureOptions.editors,
  );
  const data = describeData(manifest);
  log(runHeading(data.database, data.size));
} else {
  log(runHeading('PGlite (embedded, a fresh one per server)', 'no generated data'));
}
log(
  `- figures: ${letters.map((letter) => `(${letter})`).join(' ')}${options.quick ? ', --quick' : ''}`,
);

const results: FigureResult[] = [];
for (const letter of letters) {
  for (const load of FIGURES[letter]!) {
    const { run } = await load();
    results.push(...(await run(figureOptions)));
  }
}
log(runEnding(results));
