/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// page.evaluate() callbacks run in the browser.
/**
 * (g) The login page's JavaScript, and its first content.
 *
 *   - JavaScript: every script /auth/login loads in a fresh browser context (nothing
 *     cached), each gzipped at level 9, added up; median of 5 loads (3 with --quick).
 *     Budget (issue 31): under 150 KB; the baseline is the budget itself.
 *   - First content: the same loads, from navigation start to the login form on screen
 *     (its Username field visible; the browser's First Contentful Paint is printed beside
 *     it, as the loading spinner may paint first). Budget (issue 15's; issue 31 names
 *     none for it): under 1 s, with at most two waves of script requests
 *     (bench/lib/browser.ts). Baseline: one static HTML page of the same transferred size
 *     from a plain Node server on the same loopback, to its text on screen.
 *
 *   npx tsx bench/figures/g-login-page.ts [--quick]
 *
 * It needs no generated data: the server starts on an empty database of its own.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { startServer } from '../../scripts/lib/server.mjs';
import { runAlone } from '../lib/bench-server.js';
import {
  firstContentfulPaint,
  launchBrowser,
  recordScriptWaves,
  signedInPage,
  type ScriptWaves,
} from '../lib/browser.js';
import { median, type FigureOptions, type FigureResult } from '../lib/result.js';
import { FRESH_SERVER_ENV } from './f-cold-start.js';

/** Issue 31's budget for the login page's scripts, gzipped, in KB (1,000 bytes). */
const LOGIN_JS_BUDGET_KB = 150;
const MAX_WAVES = 2;

/** `1 wave`, `2 waves`. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
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
  const server = await startServer({ env: FRESH_SERVER_ENV });
  const browser = await launchBrowser();
  try {
    const results: PageLoad[] = [];
    for (let load = 0; load < loads; load++) {
      const result = await loadLoginPage(browser, server.url);
      results.push(result);
      log(
        `/auth/login ${load + 1}: form at ${Math.round(result.contentMs)} ms, ` +
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
        figure: 'g',
        name: `login page JavaScript, gzip -9, ${scripts} scripts, median of ${loads}`,
        value: gzip / 1000,
        unit: 'KB',
        budget: { below: LOGIN_JS_BUDGET_KB },
        baseline: { name: 'the budget', value: LOGIN_JS_BUDGET_KB },
      },
      {
        figure: 'g',
        name: `first content of a cold /auth/login, median of ${loads} (${scripts} scripts, at most ${plural(waves, 'wave')})`,
        value: content,
        unit: 'ms',
        budget: {
          below: 1_000,
          checks: [{ text: `<= ${MAX_WAVES} waves of scripts`, value: waves, atMost: MAX_WAVES }],
          source: 'issue 15',
        },
        baseline: { name: 'a static page of the same size', value: staticContent },
      },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  options.log('\n## (g) The login page: its JavaScript and its first content\n');
  return firstPage(options.quick ? 3 : 5, options.log);
}

await runAlone(run, import.meta.url, { data: false, build: ['web', 'server'] });
