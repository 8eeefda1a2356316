/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// page.evaluate() callbacks run in the browser.
/**
 * (f) Cold start on the embedded database, and the first page.
 *
 *   - Cold start: wall time from spawning the compiled server (NODE_ENV=production) on an
 *     empty DATA_DIR to its first `GET /api/v1/health` 200: the PGlite database made,
 *     migrated and given its first admin (INITIAL_ADMIN_*). Median of 7 runs (3 with
 *     --quick). Baseline: `node -e ''`, spawn to exit, in the same runs. Goal: under 2 s.
 *   - Login page JavaScript: every script /auth/login loads, each gzipped at level 9.
 *     Goal: under 200 KB; the baseline is the budget itself.
 *   - First content: /auth/login loaded in a fresh browser context (nothing cached), from
 *     navigation start to the login form on screen (its Username field visible; the
 *     browser's First Contentful Paint is printed beside it, as the loading spinner may
 *     paint first), median of 5 loads. Goal: under 1 s, with at most two waves of script
 *     requests (bench/lib/browser.ts). Baseline: one static HTML page of the same
 *     transferred size from a plain Node server on the same loopback, to its text on
 *     screen.
 *
 *   npx tsx bench/figures/f-start.ts [--quick]
 *
 * It needs no generated data: each server starts on an empty database of its own.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT, startServer } from '../../scripts/lib/server.mjs';
import {
  firstContentfulPaint,
  launchBrowser,
  recordScriptWaves,
  signedInPage,
  type ScriptWaves,
} from '../lib/browser.js';
import { median, resultTable, type FigureOptions, type FigureResult } from '../lib/result.js';

const START_GOAL_MS = 2_000;
const LOGIN_JS_GOAL_BYTES = 200 * 1000;
const FIRST_CONTENT_GOAL_MS = 1_000;
const MAX_WAVES = 2;

const ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  INITIAL_ADMIN_USERNAME: 'bench-admin',
  INITIAL_ADMIN_EMAIL: 'bench-admin@example.test',
  INITIAL_ADMIN_PASSWORD: 'Bench-Admin-Passw0rd!',
};

/** `1 wave`, `2 waves`. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function nodeStartMs(): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node -e '' failed (${result.status})`);
  return performance.now() - started;
}

async function coldStart(runs: number, log: FigureOptions['log']): Promise<FigureResult> {
  const cold: number[] = [];
  const node: number[] = [];
  for (let run = 0; run < runs; run++) {
    node.push(nodeStartMs());
    const server = await startServer({ env: ENV });
    cold.push(server.startupMs);
    await server.stop();
    log(
      `  cold start ${run + 1}: ${Math.round(cold.at(-1)!)} ms (node -e '': ${Math.round(node.at(-1)!)} ms)`,
    );
  }
  const value = median(cold);
  const baseline = median(node);
  return {
    figure: 'f',
    name: `cold start on PGlite, median of ${runs}`,
    value,
    unit: 'ms',
    goal: '< 2000 ms',
    baseline: { name: "node -e ''", value: baseline },
    ratio: value / baseline,
    met: value < START_GOAL_MS,
  };
}

interface PageLoad {
  /** Navigation start to the login form's Username field on screen. */
  contentMs: number;
  fcpMs: number;
  waves: ScriptWaves;
  /** Bytes of every response of the load, as sent (compressed where the server compressed). */
  transferredBytes: number;
  /** Every script of the load, gzipped at level 9. */
  scriptGzipBytes: number;
}

async function loadLoginPage(
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  url: string,
): Promise<PageLoad> {
  const page = await signedInPage(browser, null);
  try {
    const waves = await recordScriptWaves(page);
    const sizes: Promise<{ transferred: number; scriptGzip: number }>[] = [];
    page.on('requestfinished', (request) => {
      sizes.push(
        (async () => {
          const { responseBodySize, responseHeadersSize } = await request.sizes();
          let scriptGzip = 0;
          if (request.resourceType() === 'script') {
            const body = await (await request.response())!.body();
            scriptGzip = gzipSync(body, { level: 9 }).length;
          }
          return { transferred: responseBodySize + responseHeadersSize, scriptGzip };
        })(),
      );
    });
    await page.goto(`${url}/auth/login`);
    await page.getByLabel('Username').waitFor({ state: 'visible' });
    const contentMs = await page.evaluate(() => performance.now());
    const fcpMs = await firstContentfulPaint(page);
    await page.waitForLoadState('networkidle');
    const all = await Promise.all(sizes);
    return {
      contentMs,
      fcpMs,
      waves: waves(),
      transferredBytes: all.reduce((sum, size) => sum + size.transferred, 0),
      scriptGzipBytes: all.reduce((sum, size) => sum + size.scriptGzip, 0),
    };
  } finally {
    await page.context().close();
  }
}

/** A plain page of `bytes` bytes: a heading, and the rest as text that is not shown. */
async function staticPageServer(bytes: number): Promise<{ url: string; server: Server }> {
  const head = '<!doctype html><html><head><title>Static</title></head><body><h1>Sign in</h1>';
  const tail = '</body></html>';
  const filler = 'x'.repeat(Math.max(0, bytes - head.length - tail.length - 40));
  const html = Buffer.from(`${head}<div hidden>${filler}</div>${tail}`);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html', 'content-length': html.length });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function loadStaticPage(
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  url: string,
): Promise<number> {
  const page = await signedInPage(browser, null);
  try {
    await page.goto(url);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ state: 'visible' });
    return await page.evaluate(() => performance.now());
  } finally {
    await page.context().close();
  }
}

async function firstPage(loads: number, log: FigureOptions['log']): Promise<FigureResult[]> {
  const server = await startServer({ env: ENV });
  const browser = await launchBrowser();
  try {
    const results: PageLoad[] = [];
    for (let load = 0; load < loads; load++) {
      const result = await loadLoginPage(browser, server.url);
      results.push(result);
      log(
        `  /auth/login ${load + 1}: form at ${Math.round(result.contentMs)} ms, ` +
          `first paint ${Math.round(result.fcpMs)} ms, ${result.waves.scripts} scripts in ` +
          `${plural(result.waves.waves, 'wave')} (${result.waves.perWave.join(' + ')}), ` +
          `${(result.transferredBytes / 1000).toFixed(1)} KB transferred`,
      );
    }
    const transferred = median(results.map((result) => result.transferredBytes));
    const staticPage = await staticPageServer(transferred);
    const staticTimes: number[] = [];
    try {
      for (let load = 0; load < loads; load++) {
        staticTimes.push(await loadStaticPage(browser, staticPage.url));
      }
    } finally {
      staticPage.server.close();
    }
    log(
      `  static page of ${(transferred / 1000).toFixed(1)} KB: ${staticTimes.map(Math.round).join(', ')} ms`,
    );

    const content = median(results.map((result) => result.contentMs));
    const staticContent = median(staticTimes);
    const waves = Math.max(...results.map((result) => result.waves.waves));
    const gzip = median(results.map((result) => result.scriptGzipBytes));
    const scripts = median(results.map((result) => result.waves.scripts));
    return [
      {
        figure: 'f',
        name: 'login page JavaScript, gzip -9',
        value: gzip / 1000,
        unit: 'KB',
        goal: '< 200 KB',
        baseline: { name: 'the budget', value: LOGIN_JS_GOAL_BYTES / 1000 },
        ratio: gzip / LOGIN_JS_GOAL_BYTES,
        met: gzip < LOGIN_JS_GOAL_BYTES,
      },
      {
        figure: 'f',
        name: `first content of a cold /auth/login, median of ${loads} (${scripts} scripts, at most ${plural(waves, 'wave')})`,
        value: content,
        unit: 'ms',
        goal: '< 1000 ms, ≤ 2 waves',
        baseline: { name: 'a static page of the same size', value: staticContent },
        ratio: content / staticContent,
        met: content < FIRST_CONTENT_GOAL_MS && waves <= MAX_WAVES,
      },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  options.log('\n(f) cold start and the first page');
  const start = await coldStart(options.quick ? 3 : 7, options.log);
  return [start, ...(await firstPage(options.quick ? 3 : 5, options.log))];
}

// Run alone: no generated data needed (bench/lib/bench-server.ts's runAlone would make it).
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
  const built = spawnSync(process.execPath, ['scripts/ensure-built.mjs', 'web', 'server'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  const results = await run({ manifestPath: '', quick: values.quick, log: console.log });
  console.log(`\n${resultTable(results)}`);
}
