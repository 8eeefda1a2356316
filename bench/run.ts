/**
 * `npm run bench`: measures what the budgets in shared/ARCHITECTURE.md name and
 * prints it. Not a test: nothing here fails on a slow number.
 *
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
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs';
import { REPO_ROOT, startServer } from '../scripts/lib/server.mjs';

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
  },
});
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');

function runScript(script: string): void {
  const result = spawnSync(process.execPath, [script], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`node ${script} failed (exit ${result.status ?? result.signal})`);
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

console.log(
  `# Merit benchmarks, ${new Date().toISOString().slice(0, 10)}, ` +
    `${cpus().length} cores, Node ${process.version}`,
);
// The compiled server, and the built web app it serves; the browser needs Debian's Chromium.
runScript('scripts/ensure-built.mjs');
if (!options['skip-bundle']) runScript('scripts/ensure-chromium.mjs');

if (!options['skip-startup']) await benchStartup();
if (!options['skip-bundle']) await benchFirstPageJs();
